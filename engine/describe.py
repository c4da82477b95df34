"""Plain sentences about a lesson, for the status line and tooltips (no Qt here).

Byte-level tokens are kept in the GPT-2 byte alphabet inside the engine; people read them as
text with a visible space, so every sentence goes through ``show``.
"""

from __future__ import annotations

from engine import display
from engine.history import VocabSize
from engine.settings import Settings
from engine.trainer import NO_PAIR_REPEATS, NOTHING_LEFT, TARGET_REACHED, MergeStep

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


def times(n: int) -> str:
    return "once" if n == 1 else f"{n:,} times"


def describe_vocab(settings: Settings, size: VocabSize) -> str:
    """The vocabulary size in the one wording every view uses:
    '14 tokens (11 base symbols + 3 learned + <unk>)'."""
    parts = [f"{size.base:,} base symbol{'s' if size.base != 1 else ''}"]
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
        text += f"; {rebuilt:,} merge{'s' if rebuilt != 1 else ''} rebuilt a token already there"
    return f"{size.total:,} tokens ({text})"


def describe_merge(settings: Settings, step: MergeStep) -> str:
    """'Merged e + s into es: it appeared 9 times, tied with s + t and t + </w>.'"""
    text = f"Merged {show_pair(settings, step.pair)} into {show(settings, step.token)}: it appeared {times(step.count)}"
    others = [p for p in step.tied if p != step.pair]
    if others:
        shown = [show_pair(settings, p) for p in others[:3]]
        if len(others) > 3:
            shown.append(f"{len(others) - 3} more")
        joined = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
        text += f", tied with {joined} (the pair met first wins)" if settings.tie_break == "first" else f", tied with {joined}"
    return text + "."


def describe_stop(reason: str | None, min_frequency: int = 2) -> str:
    if reason is None:
        return ""
    if reason == NO_PAIR_REPEATS and min_frequency != 2:
        why = f"no pair repeats often enough (none occurs {min_frequency} times or more)"
    else:
        why = STOP_EXPLAINED.get(reason, reason)
    return f"Training stopped: {why}."


def describe_position(lesson, step: int) -> str:
    """What the status line says at a step: the merge just made, or how the lesson starts, and at
    the last step why training stopped."""
    settings = lesson.settings
    if lesson.is_empty:
        return "The corpus is empty: type some words on the left, or pick a preset."
    if not lesson.trained:
        return "Training…"
    last = lesson.last_step
    if step == 0:
        text = f"Start: every word is split into single symbols ({lesson.initial_tokens:,} tokens in all)."
        if last:
            text += " Press → to make the first merge."
    else:
        text = describe_merge(settings, lesson.steps[step - 1])
    if step == last:
        text += " " + describe_stop(lesson.stop_reason, settings.min_frequency)
    return text
