"""The engine package names its public classes, each loaded when first asked for."""

import subprocess
import sys

import pytest

import engine


def test_every_public_name_is_the_defining_module_s_own():
    from engine.algorithm.corpus import Corpus
    from engine.algorithm.tokenizer import Tokenizer
    from engine.algorithm.trainer import train

    assert engine.Corpus is Corpus and engine.Tokenizer is Tokenizer and engine.train is train
    assert all(getattr(engine, name) is not None for name in engine.__all__)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no_such_thing"):
        engine.no_such_thing  # noqa: B018


def test_importing_one_engine_module_leaves_the_others_unloaded():
    code = ("import sys, engine.errors; "
            "print(sorted(m for m in ('engine.algorithm.corpus', 'engine.algorithm.tokenizer', 'engine.algorithm.trainer') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
