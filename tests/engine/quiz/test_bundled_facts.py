"""The bundled pack's answers, recomputed with the engine (and GPT-4's real ranks where it cites them)."""

import pytest

from engine import Corpus, Settings, Tokenizer, train
from engine.quiz import grade
from engine.textbook import get_stats
from resources.quiz import bundled_pack

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"


@pytest.fixture(scope="module")
def questions():
    return {q.id: q for q in bundled_pack().questions}


def classic(**kw):
    return Corpus.from_word_counts(CLASSIC, Settings(**kw))


def correct_options(q):
    return [o.text for o in q.options if o.correct]


def test_pair_counts(questions):
    corpus = classic()
    stats = get_stats([corpus.symbols(i) for i in range(len(corpus))], corpus.counts)
    assert questions["count-we"].answer == stats[("w", "e")]
    assert questions["count-st"].answer == stats[("s", "t")]
    # the "each word counts once" wrong answers are the number of words holding the pair
    assert questions["count-we"].wrong[0].answer == sum(1 for w in corpus.words if "we" in w)
    assert questions["total-symbols"].answer == corpus.total_symbols()


def test_first_merge_and_tie(questions):
    _, steps = train(classic(merges=5))
    assert correct_options(questions["tie-first"]) == [" + ".join(steps[0].pair)]
    assert set(steps[0].tied) == {("e", "s"), ("s", "t"), ("t", "</w>")}
    assert list(questions["classic-order"].items) == [s.token for s in steps]


def test_tea_corpus(questions):
    corpus = Corpus.from_text("tea tea team teams steam seat", Settings(end_of_word=None))
    _, steps = train(corpus)
    assert correct_options(questions["tea-next"]) == [" + ".join(steps[0].pair)]
    assert corpus.total_symbols() == 24
    assert questions["tea-tokens"].answer == steps[2].tokens_after


def test_unseen_words(questions):
    trainer, _ = train(classic(merges=5))
    tokenizer = Tokenizer.from_trainer(trainer)
    assert questions["lowest"].answer == len(tokenizer.encode("lowest"))
    assert questions["slowest"].answer == len(tokenizer.encode("slowest"))


def test_bytes(questions):
    assert questions["emoji-bytes"].answer == len("😀".encode("utf-8"))
    corpus = Corpus.from_text("x", Settings(units="bytes"))
    assert len(corpus.base_vocab()) == 256
    assert grade(questions["unknown-fill"], ["<unk>", "256"]).correct


@pytest.fixture(scope="module")
def cl100k():
    from engine.cl100k import load_cl100k

    return load_cl100k()


def test_gpt4_facts(questions, cl100k):
    assert questions["token-or-word"].answer == len(cl100k.encode("tokenization"))
    assert questions["strawberry-tokens"].answer == len(cl100k.encode("strawberry"))
    items = questions["languages-order"].items
    counts = [len(cl100k.encode(item.split(": ", 1)[1])) for item in items]
    assert counts == sorted(counts) and len(set(counts)) == len(counts)
    assert f"English {counts[0]}" in questions["languages-order"].explanation
    assert "8 tokens in English but 25 in Greek" in questions["languages-why"].prompt
    assert (counts[0], counts[2]) == (8, 25)
