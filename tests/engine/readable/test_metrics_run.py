"""The measures after every step equal a fresh measure of the tokenizer cut at that step."""

import dataclasses
import math

import pytest
from hypothesis import given, settings as hyp_settings, strategies as st

from engine.algorithm.corpus import Corpus
from engine.algorithm.settings import Settings
from engine.algorithm.tokenizer import Tokenizer
from engine.algorithm.trainer import train
from engine.lesson.history import History
from engine.readable.metrics import measure
from engine.readable.metrics_run import corpus_metrics_curve, text_metrics_curve

TEXT = "low low lower newest newest widest lowest Low\n  tea team teams steam seat"
HELD_OUT = "the lowest newer é low Widest  tea <|x|> teams"


def _same(curve_metrics, fresh, whole_counted=True):
    if not whole_counted:
        fresh = dataclasses.replace(fresh, words_whole=0)
    for field in dataclasses.fields(fresh):
        a, b = getattr(curve_metrics, field.name), getattr(fresh, field.name)
        if isinstance(b, float):
            assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12), field.name
        else:
            assert a == b, field.name


@pytest.mark.parametrize("settings", [
    Settings(),
    Settings(units="bytes", split="gpt2", special_tokens=("<|x|>",)),
    Settings(end_of_word=None, lowercase=True, min_frequency=1),
    Settings(split="none", min_frequency=1),
], ids=["classic", "bytes-gpt2", "no-marker-lowercase", "split-none"])
@pytest.mark.parametrize("alpha", [2.5, 1.0])
def test_held_out_curve_equals_measuring_each_cut(settings, alpha):
    trainer, _ = train(Corpus.from_text(TEXT, settings))
    tok = Tokenizer.from_trainer(trainer)
    for allow_special in (False, True):
        curve = text_metrics_curve(tok, HELD_OUT, alpha=alpha, allow_special=allow_special)
        assert curve.last_step == len(tok.merges) > 3
        # words kept whole are counted along the run except where the whitespace split met a special token
        assert (curve.words_whole is None) == (settings.split == "whitespace" and allow_special and "<|x|>" in settings.special_tokens)
        for k in range(curve.last_step + 1):
            fresh = measure(tok.truncated(k), HELD_OUT, alpha=alpha, allow_special=allow_special)
            _same(curve.at(k), fresh, curve.words_whole is not None)


@pytest.mark.parametrize("split", ["whitespace", "gpt2", "gpt4", "none"])
def test_words_kept_whole_grow_along_the_run(split):
    trainer, _ = train(Corpus.from_text(TEXT, Settings(split=split)))
    curve = text_metrics_curve(Tokenizer.from_trainer(trainer), HELD_OUT)
    assert curve.words_whole is not None and curve.words_whole[-1] > curve.words_whole[0]


def test_corpus_curve_equals_measuring_the_training_text_at_each_step():
    for settings in (Settings(), Settings(units="bytes", end_of_word=None, lowercase=True)):
        corpus = Corpus.from_text(TEXT, settings)
        trainer, steps = train(corpus)
        tok = Tokenizer.from_trainer(trainer)
        curve = corpus_metrics_curve(History(corpus, steps))
        for k in range(len(steps) + 1):
            _same(curve.at(k), measure(tok.truncated(k), TEXT))


def test_classic_corpus_curve_by_hand():
    # 95 symbols; e+s, es+t, est+</w> are made 9 times each, l+o and lo+w 7 times: 95 86 77 68 61 54.
    # No word is one token yet: "low" is low + </w> after the fifth merge
    corpus = Corpus.from_word_counts("low 5\nlower 2\nnewest 6\nwidest 3", Settings(merges=5))
    curve = corpus_metrics_curve(History(corpus, train(corpus)[1]))
    assert curve.tokens == (95, 86, 77, 68, 61, 54)
    assert curve.words == 16 and curve.words_whole == (0,) * 6
    # 10 letters, </w> and <unk>, then one new token a step
    assert curve.vocab_sizes == tuple(12 + k for k in range(6))


def test_a_lessons_curves_agree_with_its_history_and_its_held_out_count():
    from engine.lesson.lesson import Lesson
    from engine.readable.metrics_run import lesson_metrics

    lesson = Lesson(TEXT, held_out=HELD_OUT)
    lesson.train()
    curves = lesson_metrics(lesson)
    assert list(curves.corpus.tokens) == lesson.history.totals()
    assert curves.held_out.tokens == lesson.held_out_curve(HELD_OUT).tokens
    assert curves.held_out.characters == lesson.held_out_curve(HELD_OUT).characters
    assert lesson_metrics(lesson, "").held_out is None


_TEXTS = st.text(alphabet="ab c\nd.é", min_size=1, max_size=40)


@hyp_settings(max_examples=40, deadline=None)
@given(_TEXTS, _TEXTS, st.sampled_from([Settings(min_frequency=1), Settings(units="bytes", split="gpt4", min_frequency=1),
                                       Settings(end_of_word=None, min_frequency=1), Settings(split="none", min_frequency=1),
                                       Settings(units="bytes", split="gpt2", min_frequency=1, lowercase=True)]))
def test_any_texts_curve_equals_measuring_each_cut(training, held_out, settings):
    corpus = Corpus.from_text(training, settings)
    if corpus.is_empty:
        return
    trainer, steps = train(corpus)
    tok = Tokenizer.from_trainer(trainer)
    curve = text_metrics_curve(tok, held_out)
    own = corpus_metrics_curve(History(corpus, steps))
    for k in range(len(steps) + 1):
        cut = tok.truncated(k)
        _same(curve.at(k), measure(cut, held_out), curve.words_whole is not None)
        fresh = measure(cut, training)
        assert (own.at(k).tokens, own.at(k).vocab_used, own.at(k).characters) == (fresh.tokens, fresh.vocab_used, fresh.characters)
        assert math.isclose(own.at(k).renyi_entropy, fresh.renyi_entropy, rel_tol=1e-9, abs_tol=1e-12)


class Stop(Exception):
    pass


def test_a_long_held_out_text_measured_in_a_child_gives_the_curve_measured_here(monkeypatch):
    import engine.readable.metrics_run as metrics_run
    from engine.lesson.lesson import Lesson
    from tests.child_processes import forkserver_children

    lesson = Lesson(TEXT).train()
    here = metrics_run.lesson_metrics(lesson, HELD_OUT)
    monkeypatch.setattr(metrics_run, "IN_CHILD_FROM", 1)
    seen = set()
    there = metrics_run.lesson_metrics(lesson, HELD_OUT, check=lambda: seen.update(forkserver_children()))
    assert seen and there == here


def test_a_check_that_raises_ends_the_child_measuring(monkeypatch):
    import engine.readable.metrics_run as metrics_run
    from engine.lesson.lesson import Lesson
    from tests.child_processes import forkserver_children, gone

    monkeypatch.setattr(metrics_run, "IN_CHILD_FROM", 1)
    measuring = set()

    def check():
        measuring.update(forkserver_children())
        if measuring:
            raise Stop

    with pytest.raises(Stop):
        metrics_run.lesson_metrics(Lesson(TEXT).train(), HELD_OUT * 20_000, check=check)
    assert measuring and all(gone(pid) for pid in measuring)
