"""Tokenizers loaded in workers: each key ends ready or failed, whatever the loader raises."""

import pytest

import widgets.explorer.sources
from app.session import Session
from widgets.explorer.sources import CL100K, TokenizerSources, file_key
from widgets.worker import wait_for_workers

WAIT = 10_000


@pytest.fixture
def sources(qtbot):
    return TokenizerSources(Session())


def test_an_exception_in_the_loader_is_reported_and_the_key_no_longer_loads(qtbot, sources, monkeypatch):
    def broken(chat=False):
        raise RuntimeError("simulated")

    monkeypatch.setattr(widgets.explorer.sources, "load_cl100k", broken)
    with qtbot.waitSignal(sources.failed, timeout=WAIT) as blocker:
        assert sources.get(CL100K) is None
        assert sources.is_loading(CL100K)
    key, message = blocker.args
    assert key == CL100K and "internal error of BPE Lab (RuntimeError: simulated)" in message
    assert not sources.is_loading(CL100K) and sources.error(CL100K) == message
    assert sources.get(CL100K) is None  # a failed key is not retried behind the user's back
    assert not sources.is_loading(CL100K)
    wait_for_workers(WAIT)


def test_a_file_that_is_not_a_tokenizer_says_which_file(qtbot, sources, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("just some notes", encoding="utf-8")
    key = file_key(path)
    with qtbot.waitSignal(sources.failed, timeout=WAIT) as blocker:
        sources.get(key)
    assert blocker.args[0] == key and "notes.txt" in blocker.args[1]
    wait_for_workers(WAIT)


def test_reload_reads_a_file_again_once_it_is_fixed(qtbot, sources, tmp_path):
    from engine.formats.bpelab import save_tokenizer
    from engine.lesson.lesson import Lesson

    path = tmp_path / "tok.json"
    path.write_text("{not json", encoding="utf-8")
    key = file_key(path)
    with qtbot.waitSignal(sources.failed, timeout=WAIT):
        sources.get(key)
    save_tokenizer(Lesson("low lower lowest").train().tokenizer, path)
    with qtbot.waitSignal(sources.ready, timeout=WAIT):
        sources.reload(key)
    assert sources.get(key) is not None and sources.error(key) is None
    wait_for_workers(WAIT)


@pytest.mark.parametrize("kind", ["bpelab", "hf", "gpt2", "tiktoken", "csv"])
def test_every_malformed_file_fails_with_the_readers_one_line(kind, tmp_path):
    import random

    from engine.errors import BpeLabError
    from engine.readable.explorer import split_text
    from tests.engine.formats.mutations import TEXT, Mutator, make_seeds
    from widgets.explorer.sources import _load, failure_message

    mutator = Mutator(make_seeds(tmp_path / "seeds")[kind], tmp_path / "work")
    rng = random.Random(f"explorer-{kind}")
    refused = 0
    for n in range(120):
        key = file_key(mutator.next(rng))
        try:
            split_text(_load(key), TEXT)
        except BpeLabError as exc:
            refused += 1
            message = failure_message(key, exc)
            assert message == str(exc).replace("\n", "\\n").replace("\t", "\\t") or "\\" in message, n
            assert "\n" not in message and message.strip(), n
    assert refused >= 10


@pytest.mark.parametrize("error, said", [
    (OSError(5, "Input/output error"), "cannot be read (Input/output error)"),
    (MemoryError(), "too large for the memory available"),
    (KeyError("model"), "internal error of BPE Lab (KeyError: 'model'); please report it"),
])
def test_a_failure_that_is_not_the_readers_is_named_in_one_line(error, said):
    from widgets.explorer.sources import failure_message

    message = failure_message(file_key("/data/tok.json"), error)
    assert message.startswith("/data/tok.json") and said in message
