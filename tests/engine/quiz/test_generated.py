"""Questions generated from a lesson, checked against an independent replay of the merges.

The replay uses the textbook ``merge`` on every word, step by step: a different code path from
the tokenizer the generators use, so a wrong answer in either shows up here.
"""

import random
import re

import pytest

from engine import Corpus, Settings, Tokenizer, train
from engine.lesson.history import History
from engine.quiz import grade
from engine.quiz.generated import MISCONCEPTIONS, GENERATORS, LiveLesson, generate
from engine.algorithm.textbook import get_stats, merge

CORPORA = {
    "classic": ("low 5\nlower 2\nnewest 6\nwidest 3\n", True, Settings()),
    "tea": ("tea tea team teams steam seat", False, Settings(end_of_word=None)),
    "paragraph": (
        "the cat sat on the mat and the dog sat on the log while the other cat ran to the mat then sat",
        False, Settings(),
    ),
    "bytes": ("naïve café, naïve cafés; 😀 😀 smile café", False, Settings(units="bytes", split="gpt2")),
    "hf-ties": ("abab abab baba ab ba aabb", False, Settings(tie_break="hf", end_of_word="_")),
    "greatest-ties": ("low 5\nlower 2\nnewest 6\nwidest 3\n", True, Settings(tie_break="greatest")),
    "last-ties": ("abab abab baba ab ba aabb", False, Settings(tie_break="last", end_of_word="_")),
}


def lesson(name):
    text, counts, settings = CORPORA[name]
    corpus = Corpus.from_word_counts(text, settings) if counts else Corpus.from_text(text, settings)
    trainer, steps = train(corpus)
    return corpus, steps, Tokenizer.from_trainer(trainer)


def live(corpus, steps, k=0):
    return LiveLesson(History(corpus, steps), k)


def replay(corpus, steps, k):
    """Every word's tokens after k merges, by the textbook loop."""
    words = [corpus.symbols(i) for i in range(len(corpus))]
    for step in steps[:k]:
        words = [merge(w, step.pair) for w in words]
    return words


def states(name):
    corpus, steps, tokenizer = lesson(name)
    assert steps, name
    for k in sorted({0, 1, len(steps) // 2, len(steps) - 1, len(steps)}):
        yield live(corpus, steps, k)


def correct_texts(q):
    return [o.text for o in q.options if o.correct]


@pytest.mark.parametrize("name", CORPORA)
def test_next_pair_is_the_merge_the_engine_makes(name):
    for state in states(name):
        q = generate(state, "next-pair")
        k = state.step
        stats = get_stats(replay(state.corpus, state.steps, k), state.corpus.counts)
        if k == len(state.steps) or len(stats) < 2:
            assert q is None
            continue
        winner = state.steps[k].pair
        assert stats[winner] == max(stats.values()) == state.steps[k].count
        assert correct_texts(q) == [state.show_pair(winner)]
        assert len({o.text for o in q.options}) == len(q.options) >= 2
        # the step asked about: its tiles crown the winner (one step on, the crown is on the next merge)
        assert q.reveal_step == k
        assert str(state.steps[k].count) in q.explanation
        if len(state.steps[k].tied) > 1:
            assert "tie" in q.explanation


@pytest.mark.parametrize("name", CORPORA)
def test_pair_count_matches_a_recount(name):
    for state in states(name):
        for seed in range(4):
            q = generate(state, "pair-count", seed)
            stats = get_stats(replay(state.corpus, state.steps, state.step), state.corpus.counts)
            if not stats:
                assert q is None
                continue
            counted = {state.show_pair(p): c for p, c in stats.items()}
            shown = re.search(r"the pair (.+) occur", q.prompt).group(1)
            assert q.answer == counted[shown]
            assert grade(q, str(counted[shown])).correct
            # the pairs of the step asked about, the winner's too: once merged its count is gone
            assert q.reveal_step == state.step


@pytest.mark.parametrize("name", CORPORA)
def test_word_split_matches_a_replay(name):
    for state in states(name):
        for seed in range(4):
            q = generate(state, "word-split", seed)
            target, index = (int(x) for x in q.id.split(":")[2:4])
            assert state.step <= target <= len(state.steps) and q.reveal_step == target
            tokens = replay(state.corpus, state.steps, target)[index]
            assert q.answer == len(tokens)
            assert state.show(state.corpus.words[index]) in q.prompt
            for wrong in q.wrong:
                assert wrong.answer != q.answer and wrong.misconception in MISCONCEPTIONS


def test_word_split_asks_about_words_a_class_can_read_not_a_text_with_no_spaces():
    from engine.quiz.generated import MAX_ASKED_WORD

    rng = random.Random(3)
    long_word = "".join(rng.choice("abcab") for _ in range(5_000))
    settings = Settings(min_frequency=2, merges=20)
    corpus = Corpus.from_word_counts(f"{long_word} 1\nlow 5\nlower 2\nnewest 6", settings)
    trainer, steps = train(corpus)
    for k in (0, 5, 19):
        for seed in range(6):
            q = generate(live(corpus, steps, k), "word-split", seed)
            index = int(q.id.split(":")[3])
            assert len(corpus.words[index]) <= MAX_ASKED_WORD
            assert len(q.prompt) + len(q.hint) + len(q.explanation) < 1_000
    # only one long word: nothing to ask of that kind, rather than pasting it whole
    alone = Corpus.from_text(long_word, Settings(split="none", merges=5))
    assert generate(live(alone, train(alone)[1], 0), "word-split", 0) is None


@pytest.mark.parametrize("name", CORPORA)
def test_vocab_size_matches_the_tokenizer(name):
    tokenizer = lesson(name)[2]
    for state in states(name):
        for seed in range(3):
            q = generate(state, "vocab-size", seed)
            if state.step == len(state.steps):
                assert q is None
                continue
            more = int(q.id.split(":")[3])
            assert q.reveal_step == state.step + more <= len(state.steps)
            assert q.answer == tokenizer.truncated(state.step + more).get_vocab_size()
            assert f"holds {tokenizer.truncated(state.step).get_vocab_size()} tokens" in q.prompt


@pytest.mark.parametrize("name", CORPORA)
def test_in_pieces_names_a_word_in_pieces_among_whole_ones(name):
    asked = 0
    for state in states(name):
        for seed in range(3):
            q = generate(state, "in-pieces", seed)
            if q is None:
                continue
            asked += 1
            at = q.reveal_step
            tokens = replay(state.corpus, state.steps, at)
            shown = {state.show(state.corpus.words[i]): len(t) for i, t in enumerate(tokens)}
            for option in q.options:
                assert (shown[option.text] > 1) == option.correct
            assert sum(o.correct for o in q.options) == 1
            assert "why" in q.title.lower() and q.explanation
    assert asked


def test_in_pieces_explains_the_next_join_on_the_classic_corpus():
    corpus, steps, tokenizer = lesson("classic")
    state = live(corpus, steps, 0)
    q = generate(state, "in-pieces")
    # no word is whole at step 0, so the question moves to the first step where one is
    at = q.reveal_step
    assert at > 0
    assert not any(len(t) == 1 for t in replay(corpus, steps, at - 1))
    assert any(len(t) == 1 for t in replay(corpus, steps, at))
    word = next(o.text for o in q.options if o.correct)
    index = corpus.words.index(word)
    later = [j for j in range(at + 1, len(steps) + 1)
             if len(replay(corpus, steps, j)[index]) < len(replay(corpus, steps, at)[index])]
    if later:
        assert f"at step {later[0]}" in q.explanation


def test_every_kind_at_every_step_gives_right_answers_by_grading():
    corpus, steps, tokenizer = lesson("paragraph")
    rng = random.Random(1)
    for k in range(len(steps) + 1):
        state, seed = live(corpus, steps, k), rng.randrange(100)
        asked = (generate(state, kind, seed) for kind in GENERATORS)
        for q in (q for q in asked if q is not None):
            if hasattr(q, "answer"):
                assert grade(q, q.answer).correct
            else:
                assert grade(q, [i for i, o in enumerate(q.options) if o.correct]).correct
            assert q.id.startswith("lesson:") and q.reveal_step is not None


@pytest.mark.parametrize("name", CORPORA)
def test_next_pair_with_tied_options_names_the_lessons_tie_rule(name):
    from engine.readable.describe import tie_rule_sentence

    corpus, steps, _ = lesson(name)
    named = 0
    for k in range(len(steps)):
        q = generate(live(corpus, steps, k), "next-pair")
        if q is None:
            continue
        counts = get_stats(replay(corpus, steps, k), corpus.counts)
        by_text = {live(corpus, steps, k).show_pair(p): c for p, c in counts.items()}
        shown = [by_text[o.text] for o in q.options]
        winner = next(by_text[o.text] for o in q.options if o.correct)
        # a tie among the pairs behind the winner decides nothing: the rule is said only for the winner's
        if shown.count(winner) > 1:
            assert tie_rule_sentence(corpus.settings) in q.prompt
            named += 1
        else:
            assert "Equal counts" not in q.prompt and "tie" not in q.prompt
    if name in ("classic", "hf-ties", "greatest-ties", "last-ties"):
        assert named  # these corpora tie at their first step


def test_next_pair_under_hf_states_the_hf_rule_where_met_first_would_be_false():
    corpus = Corpus.from_word_counts("low 3\nlower 2\nnewest 2\nwidest 1\n", Settings(end_of_word="_", tie_break="hf"))
    _, steps = train(corpus)
    q = generate(live(corpus, steps, 2), "next-pair")
    assert correct_texts(q) == ["e + s"]
    assert "smaller token ids" in q.prompt and "met first" not in q.prompt + q.explanation


def test_in_pieces_says_a_lone_marker_is_a_token():
    corpus, steps, _ = lesson("classic")
    q = generate(live(corpus, steps, 0), "in-pieces")
    assert "Count the end-of-word marker </w> as a token when it stands alone." in q.prompt
    corpus, steps, _ = lesson("tea")  # no marker, no reminder
    q = generate(live(corpus, steps, len(steps)), "in-pieces")
    assert q is None or "marker" not in q.prompt


def test_pair_count_explanations_write_each_weight_once():
    corpus = Corpus.from_text("aaa aaa banana training training", Settings())
    _, steps = train(corpus)
    texts = [generate(live(corpus, steps, k), "pair-count", seed).explanation
             for k in range(len(steps) + 1) for seed in range(6)]
    assert not any("× ×" in t for t in texts)
    assert any(re.search(r"\(\d+ × \d+\)", t) for t in texts)  # a word holding the pair twice


def test_every_generator_is_named():
    assert set(GENERATORS) == {"next-pair", "pair-count", "word-split", "vocab-size", "in-pieces",
                               "characters-per-token", "words-whole"}


def test_pieces_of_a_split_text_are_chunks_not_words():
    corpus, steps, _ = lesson("bytes")  # gpt2 split: "␣café" and "," are entries, not words
    asked = 0
    for k in range(len(steps)):
        for kind in ("word-split", "in-pieces", "pair-count"):
            q = generate(live(corpus, steps, k), kind, seed=k)
            if q is None:
                continue
            said = q.prompt + q.hint + q.explanation
            assert "word" not in said.replace("end-of-word", ""), said
            asked += kind != "pair-count" and "chunk" in q.prompt
    assert asked
    words, steps_w, _ = lesson("classic")
    assert "the word “" in generate(live(words, steps_w, 0), "word-split", seed=1).prompt


@pytest.mark.parametrize("name", CORPORA)
def test_in_pieces_names_the_words_that_are_whole(name):
    corpus, steps, _ = lesson(name)
    for k in range(len(steps) + 1):
        q = generate(live(corpus, steps, k), "in-pieces", seed=k)
        if q is None:
            continue
        whole = [o.text for o in q.options if not o.correct]
        assert "the others" not in q.explanation
        for text in whole:
            assert f"“{text}”" in q.explanation.split(". ")[0], (text, q.explanation)


@pytest.mark.parametrize("name", ["classic", "tea", "paragraph"])
def test_characters_per_token_matches_a_recount(name):
    for state in states(name):
        corpus, k = state.corpus, state.step
        q = generate(state, "characters-per-token")
        words = replay(corpus, state.steps, k)
        tokens = sum(len(w) * c for w, c in zip(words, corpus.counts))
        characters = sum(len(w) * c for w, c in zip(corpus.words, corpus.counts))
        assert q.answer == pytest.approx(characters / tokens, abs=0.001)
        # a class rounding to one decimal place is right; a tenth off is not
        assert grade(q, round(characters / tokens, 1)).correct
        assert not grade(q, round(characters / tokens, 1) + 0.1).correct
        assert f"{characters} / {tokens}" in q.explanation


def test_characters_per_token_flags_characters_per_word_as_a_token_is_a_word():
    corpus, steps, _ = lesson("classic")
    q = generate(live(corpus, steps, 0), "characters-per-token")
    result = grade(q, round(79 / 16, 3), MISCONCEPTIONS)
    assert not result.correct and result.misconception.id == "token-is-word"


@pytest.mark.parametrize("name", ["classic", "tea", "paragraph"])
def test_words_whole_counts_each_word_as_often_as_it_occurs(name):
    for state in states(name):
        q = generate(state, "words-whole", seed=2)
        words = replay(state.corpus, state.steps, q.reveal_step)
        assert q.answer == sum(c for w, c in zip(words, state.corpus.counts) if len(w) == 1)


def test_words_whole_on_the_classic_corpus_flags_the_unweighted_count():
    corpus, steps, _ = lesson("classic")
    q = next(q for seed in range(20) if (q := generate(live(corpus, steps, 10), "words-whole", seed)).reveal_step == 10)
    assert q.answer == 11  # low ×5 and newest ×6
    result = grade(q, 2, MISCONCEPTIONS)
    assert not result.correct and result.misconception.id == "unweighted-count"


def test_words_whole_is_not_asked_of_a_split_whose_pieces_are_not_words():
    corpus, steps, _ = lesson("bytes")
    assert generate(live(corpus, steps, 1), "words-whole") is None
