"""What the pair-count bars show at one step, with no Qt: the top pairs, the ties, the winner."""

from __future__ import annotations

from dataclasses import dataclass

from engine.readable.describe import tie_rule_short
from engine.readable.display import for_settings
from engine.lesson.lesson import LessonState
from engine.algorithm.settings import Settings


@dataclass(frozen=True)
class PairBar:
    pair: tuple[str, str]
    count: int
    # the count equals the winner's and more than one pair has it
    tied: bool
    # this pair merges next
    winner: bool


def pair_label(settings: Settings, pair: tuple[str, str]) -> str:
    return for_settings(settings).pair(pair)


def top_pairs(state: LessonState, limit: int) -> list[PairBar]:
    """The ``limit`` most frequent pairs at the state's step, in the order the tie rule ranks them."""
    ranked = state.ranked_pairs(limit)
    following = state.next_step()
    winner = following.pair if following is not None else None
    if not ranked:
        return []
    best = ranked[0][1]
    ties = sum(1 for _, c in ranked if c == best)
    bars = []
    for pair, count in ranked:
        is_winner = pair == winner
        bars.append(PairBar(pair, count, tied=winner is not None and ties > 1 and count == best, winner=is_winner))
    return bars


def sources_text(state: LessonState, pair: tuple[str, str], most: int = 6) -> str:
    """Where a pair's count comes from: "low ×5 + lower ×2 = 7".

    A word that holds the pair more than once says so ("banana ×3 (2 in the word)"); past ``most``
    words the rest are summed in one term.
    """
    corpus = state.corpus
    settings = corpus.settings
    sources = state.pair_sources(pair)
    terms = []
    total = 0
    rest_words = rest = 0
    for i, (w, occurrences) in enumerate(sources):
        contribution = occurrences * corpus.counts[w]
        total += contribution
        if i >= most:
            rest_words += 1
            rest += contribution
            continue
        word = for_settings(settings).token(corpus.words[w])
        term = f"{word} ×{corpus.counts[w]:,}"
        if occurrences > 1:
            term += f" ({occurrences} in the word)"
        terms.append(term)
    if rest_words:
        terms.append(f"{rest:,} from {rest_words:,} more words")
    return f"{' + '.join(terms)} = {total:,}"


def step_caption(state: LessonState, bars: list[PairBar]) -> str:
    """One line under the bars: what merges next and why, or why training stopped here."""
    lesson = state.lesson
    settings = lesson.settings
    following = state.next_step()
    if following is None:
        reason = lesson.stop_reason or "the end of the history"
        return f"Step {state.step:,}: training stopped here ({reason})."
    if lesson.corpus is None:
        return f"Step {state.step:,}: next merge {pair_label(settings, following.pair)} (no corpus, so no counts)."
    text = f"Step {state.step:,}: next merge {pair_label(settings, following.pair)} ({following.count:,})"
    others = sum(1 for b in bars if b.tied and not b.winner)
    if others:
        # when every bar ties, more tied pairs may lie below the ones shown
        more = "+" if others == len(bars) - 1 else ""
        text += f", tied with {others}{more} {'other' if others == 1 and not more else 'others'} ({tie_rule_short(settings)} wins)"
    return text + "."
