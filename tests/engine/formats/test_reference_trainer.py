"""With the hf tie rule, byte-level training gives merge for merge the list `tokenizers`' BpeTrainer gives."""

import codecs
import inspect
import json
import this

import pytest
from tokenizers import Tokenizer as HFTokenizer, models, pre_tokenizers, trainers

from engine.algorithm.corpus import Corpus
from engine.algorithm.settings import Settings
from engine.algorithm.trainer import train
from tests.engine.formats.samples import TEXT, TRAINING

ZEN = codecs.decode(this.s, "rot13")
CORPORA = {
    "zen of python": ZEN,
    "python source": inspect.getsource(json.decoder) + inspect.getsource(json.encoder),
    "many languages": TRAINING + TEXT,
    "overlapping runs": "aaaa aaa aaaaa aa aaaaaa baaab aaaaaaaa abababab " * 3 + "zzzzzz zzz",
}


def library_merges(text: str, vocab_size: int) -> list[tuple[str, str]]:
    hf = HFTokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, min_frequency=2, show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), special_tokens=[],
    )
    hf.train_from_iterator([text], trainer)
    return [tuple(m) for m in json.loads(hf.to_str())["model"]["merges"]]


def lab_merges(text: str, **limits) -> list[tuple[str, str]]:
    settings = Settings(split="gpt2", units="bytes", tie_break="hf", min_frequency=2, **limits)
    _, steps = train(Corpus.from_text(text, settings))
    return [s.pair for s in steps]


@pytest.mark.parametrize("name", list(CORPORA))
@pytest.mark.parametrize("merges", [10, 100, 500])
def test_same_merges_as_the_reference_trainer(name, merges):
    text = CORPORA[name]
    assert lab_merges(text, merges=merges) == library_merges(text, 256 + merges)


@pytest.mark.parametrize("name", list(CORPORA))
def test_both_stop_when_no_pair_repeats(name):
    text = CORPORA[name]
    mine = lab_merges(text)
    assert mine == library_merges(text, 10**6)
    assert len(mine) > 0


def test_overlapping_runs_are_counted_alike():
    # "aaaa" holds the pair a a three times though only two merges fit; both trainers count three,
    # which ties a a with a b (3 each) and the tie goes to the smaller ids: a a. Counting only the
    # two that fit would have picked a b first.
    text = "aaaa\nab\nab\nab"
    assert lab_merges(text) == library_merges(text, 10**6) == [("a", "a"), ("a", "b")]
