"""Plain sentences about a lesson, for the status line and tooltips (no Qt here).

Byte-level tokens are kept in the GPT-2 byte alphabet inside the engine; people read them as
text with a visible space, so every sentence goes through ``show``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.readable import display
from engine.algorithm.bytelevel import symbols_to_bytes
from engine.algorithm.corpus import Corpus
from engine.lesson.history import VocabSize
from engine.algorithm.pretokenize import split_words
from engine.algorithm.settings import Settings
from engine.algorithm.trainer import NO_PAIR_REPEATS, NOTHING_LEFT, TARGET_REACHED, MergeStep

if TYPE_CHECKING:
    from engine.lesson.lesson import Lesson

STOP_EXPLAINED = {
    TARGET_REACHED: "target reached (the merges or vocabulary size asked for)",
    NO_PAIR_REPEATS: "no pair repeats (every pair left occurs only once)",
    NOTHING_LEFT: "nothing left to merge (every word is a single token)",
}


def show(settings: Settings, token: str) -> str:
    """A token as a person reads it."""
    return display.show(settings, token)


def show_pair(settings: Settings, pair: tuple[str, str]) -> str:
    return display.for_settings(settings).pair(pair)


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """A count with its noun agreeing: '1 pair', '2 pairs', '1,234 merges' ('nouns' when not noun + 's')."""
    return f"{n:,} {noun if n == 1 else (nouns or noun + 's')}"


def times(n: int | None) -> str:
    """How often, for a sentence; a step read from a tokenizer file has no count (None)."""
    if n is None:
        return "an unknown number of times"
    return "once" if n == 1 else f"{n:,} times"


# -- the tie rule: every sentence that states it comes from here ----------------------------------

TIE_RULES = {
    # the trainer's order: the first place a pair occurs, reading the words in order
    "first": "the pair met first when reading the words in order from left to right",
    # the trainer's order: (left id, right id), as Hugging Face's trainer compares pairs
    "hf": "the pair with the smaller token ids, comparing left tokens first",
    # (left, right) as Python compares tuples of str: by code point, left token first
    "greatest": "the pair that comes last in dictionary order, comparing left tokens first, character by character",
    "smallest": "the pair that comes first in dictionary order, comparing left tokens first, character by character",
    # the pairs in the order a merge round's counts meet them, the last one kept (>= in a max loop)
    "last": "the pair met last when reading the words in order from left to right, "
            "each pair placed where it first occurs",
}
# bytes units compare the tokens' bytes, not the letters they are shown with
TIE_RULES_BYTES = {
    "greatest": "the pair that comes last in dictionary order, comparing left tokens first, byte by byte",
    "smallest": "the pair that comes first in dictionary order, comparing left tokens first, byte by byte",
}


# the same rules where a line has little room (the tile view's caption)
TIE_RULES_SHORT = {"first": "the pair met first", "hf": "the pair of smaller ids",
                   "greatest": "the pair last in dictionary order", "smallest": "the pair first in dictionary order",
                   "last": "the pair met last"}


def tie_rule(settings: Settings) -> str:
    """Which pair a tie goes to under the lesson's rule, as a noun phrase: 'the pair met first …'."""
    if settings.units == "bytes" and settings.tie_break in TIE_RULES_BYTES:
        return TIE_RULES_BYTES[settings.tie_break]
    return TIE_RULES[settings.tie_break]


def tie_rule_short(settings: Settings) -> str:
    """The rule in a few words: 'the pair met first' or 'the pair of smaller ids'."""
    return TIE_RULES_SHORT[settings.tie_break]


def tie_rule_sentence(settings: Settings) -> str:
    """'Equal counts go to the pair met first when reading the words in order from left to right.'"""
    return f"Equal counts go to {tie_rule(settings)}."


def tied_rivals(step: MergeStep) -> tuple[tuple[str, str], ...]:
    """The pairs recorded as tied with the winner: the first few (``History.ties`` lists them all)."""
    return step.tied[1:]


def tie_size(step: MergeStep) -> int:
    """How many pairs shared the winning count, the winner included (1: no tie)."""
    size: int = step.tie_count
    return size


def special_text_short() -> str:
    """The switch's own line; ``special_text_sentence`` says the whole of why."""
    return "Spelled out is the safe default: text anyone types or pastes must not become a control token."


def special_text_sentence() -> str:
    """Why typed special-token text is spelled out by default, in one sentence (for the switch
    "typed special-token text: spelled out / becomes the special token")."""
    return (
        "Spelled out is the safe default: typed or pasted text that merely looks like a marker "
        "(<|endoftext|>, <|im_end|>) must not become the control token, or anyone could end a message, fake "
        "the assistant's turn or stop the model early (a prompt injection), which is why tiktoken's "
        "encode_ordinary() spells it out, encode() refuses it, and only allowed_special lets it through."
    )


def describe_vocab(settings: Settings, size: VocabSize) -> str:
    """The vocabulary size in the one wording every view uses:
    '14 tokens (11 base symbols + 3 learned + <unk>)'."""
    parts = [plural(size.base, "base symbol")]
    if size.merges:
        parts.append(f"{size.learned:,} learned")
    if size.special:
        n = len(size.special)
        parts.append(f"{n} special token{'s' if n != 1 else ''} ({', '.join(show(settings, t) for t in size.special)})")
    if size.unknown is not None:
        parts.append(size.unknown)
    text = " + ".join(parts)
    rebuilt = size.merges - size.learned
    if rebuilt:
        # a merge that spells a token already there adds no new one
        text += f"; {plural(rebuilt, 'merge')} rebuilt a token already there"
    return f"{size.total:,} tokens ({text})"


# beside the chart of corpus length against vocabulary size
WHY_NOT_LARGER = (
    "Why not simply a bigger vocabulary? More tokens make a text shorter (or leave it as long, where no new "
    "token fits): attention's cost grows "
    "with the square of the length, and more text fits in the context window. But each token needs a "
    "row in the embedding table and in the output layer, so both grow, and rare tokens are seen in "
    "few training examples, so the model learns them poorly. Real models settle between tens of "
    "thousands and a few hundred thousand tokens (GPT-4's cl100k_base: 100,256 regular tokens)."
)


def gpt4_split_sentence() -> str:
    """What the GPT-4 split does beyond GPT-2's, with the pieces the engine's own split gives."""
    def pieces(text: str, split: str) -> str:
        return " | ".join(display.show_text(p) for p in split_words(text, split))

    number, shout = " 123456", "IT'S"
    return (
        f"GPT-4's pattern: like GPT-2's, but the space before a number is a piece of its own and digits "
        f"go in groups of up to three ({display.show_text(number)} → {pieces(number, 'gpt4')}, where GPT-2 keeps "
        f"{pieces(number, 'gpt2')}), and contractions match in any case ({shout} → {pieces(shout, 'gpt4')}, "
        f"where GPT-2 gives {pieces(shout, 'gpt2')})."
    )


def describe_start(corpus: Corpus) -> str:
    """What the corpus starts as, counted from the corpus itself:
    '95 tokens: 79 characters and 16 end-of-word markers' or
    '28 tokens: the UTF-8 bytes of its 23 characters, one token per byte'."""
    total = corpus.total_symbols()
    if corpus.settings.units == "bytes":
        chars = sum(len(symbols_to_bytes(w).decode("utf-8", "replace")) * c for w, c in zip(corpus.words, corpus.counts))
        return f"{total:,} tokens: the UTF-8 bytes of its {plural(chars, 'character')}, one token per byte"
    markers = sum(corpus.counts) if corpus.settings.marker is not None else 0
    chars = total - markers
    text = f"{total:,} tokens: {plural(chars, 'character')}"
    if markers:
        text += f" and {plural(markers, 'end-of-word marker')}"
    return text


def merges_made(step: MergeStep) -> int | None:
    """How many merges the step made, weighted by word count: fewer than its count where the pair
    overlaps itself (``a a a`` holds ``a a`` twice, and one merge uses both of its first two);
    None where a file gives no token totals."""
    if step.tokens_before is None or step.tokens_after is None:
        return None
    made: int = step.tokens_before - step.tokens_after
    return made


def describe_overlap(settings: Settings, step: MergeStep) -> str:
    """Why a step made fewer merges than its count, or '' when every counted pair was merged:
    '82 pairs overlap in runs such as ␣␣␣ (two pairs, one merge, left to right); 41 merges fit.'"""
    made = merges_made(step)
    if made is None or step.count is None or made >= step.count:
        return ""
    run = show(settings, step.pair[0]) * 3
    return (f"{step.count:,} pairs overlap in runs such as {run} (two pairs, one merge, left to right); "
            f"{plural(made, 'merge')} fit.")


def describe_merge(settings: Settings, step: MergeStep) -> str:
    """'Merged e + s into es: it appeared 9 times, tied with s + t and t + </w>.'"""
    text = f"Merged {show_pair(settings, step.pair)} into {show(settings, step.token)}: it appeared {times(step.count)}"
    others = tied_rivals(step)
    if others:
        text += f", tied with {join_pairs(settings, others, tie_size(step) - 1)}; the tie goes to {tie_rule(settings)}"
    overlap = describe_overlap(settings, step)
    return text + "." + (f" {overlap}" if overlap else "")


def join_pairs(settings: Settings, pairs: Sequence[tuple[str, str]], total: int | None = None,
               limit: int = 3) -> str:
    """'s + t and t + </w>', or 'a + b, c + d, e + f and 4 more' past ``limit`` (``total``: how many in all)."""
    total = len(pairs) if total is None else total
    shown = [show_pair(settings, p) for p in list(pairs)[:limit]]
    if total > len(shown):
        shown.append(f"{total - len(shown):,} more")
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def describe_stop(reason: str | None, min_frequency: int = 2) -> str:
    if reason is None:
        return ""
    if reason == NO_PAIR_REPEATS and min_frequency != 2:
        why = f"no pair repeats often enough (none occurs {min_frequency} times or more)"
    else:
        why = STOP_EXPLAINED.get(reason, reason)
    return f"Training stopped: {why}."


def _describe_imported(lesson: Lesson, step: int) -> str:
    """The status line of a tokenizer read from a file: its merges, no counts (it has no corpus)."""
    settings = lesson.settings
    if step == 0:
        return f"Start: {lesson.origin()} Press → for its first merge."
    merge = lesson.steps[step - 1]
    text = f"Merge {step:,} of {lesson.last_step:,}: {show_pair(settings, merge.pair)} into {show(settings, merge.token)}."
    if step == lesson.last_step:
        text += " The file's merges end here."
    return text


def describe_position(lesson: Lesson, step: int) -> str:
    """What the status line says at a step: the merge just made, or how the lesson starts, and at
    the last step why training stopped."""
    settings = lesson.settings
    if lesson.is_empty:
        return "The corpus is empty: type some words on the left, or pick a preset."
    if not lesson.trained:
        return "Training…"
    last = lesson.last_step
    if lesson.corpus is None:
        return _describe_imported(lesson, step)
    if step == 0:
        text = f"Start: every word is split into single symbols ({lesson.initial_tokens:,} tokens in all)."
        if last:
            text += " Press → to make the first merge."
    else:
        text = describe_merge(settings, lesson.steps[step - 1])
    if step == last:
        text += " " + describe_stop(lesson.stop_reason, settings.min_frequency)
    return text
