"""What the metrics chart plots, with no Qt: every measure of ``engine.readable.metrics`` after every
step, for the corpus and the held-out text, computed once per lesson (in a worker) so that a step
only moves a line.

Left out: drawing, and any measure not defined in docs/metrics.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.lesson.lesson import Lesson
from engine.readable.metrics import Metrics
from engine.readable.metrics_run import MetricsCurve, lesson_metrics


@dataclass(frozen=True)
class MetricKind:
    key: str
    label: str  # the combo's entry
    unit: str  # what the read-out puts after a value
    value: Callable[[Metrics], float]
    percent: bool = False  # a share, shown as 0..100
    whole_words: bool = False  # needs words kept whole, which some splits do not count
    axis: str = ""  # the y axis's title where the label is too long for it at a projector's type

    @property
    def axis_title(self) -> str:
        return self.axis or self.label

    def reads(self, value: float) -> str:
        """A value as the read-out says it: "1.62 characters per token", "67% of the vocabulary used"."""
        return f"{value:.0f}% {self.unit}" if self.percent else f"{value:.2f} {self.unit}"


METRICS: tuple[MetricKind, ...] = (
    MetricKind("characters", "Characters per token", "characters per token", lambda m: m.characters_per_token),
    MetricKind("bytes", "Bytes per token", "bytes per token", lambda m: m.bytes_per_token),
    MetricKind("fertility", "Tokens per word", "tokens per word", lambda m: m.tokens_per_word),
    MetricKind("whole", "Words kept whole (%)", "of the words kept whole", lambda m: 100 * m.whole_share,
               percent=True, whole_words=True),
    MetricKind("unknown", "Unknown share (%)", "of the tokens unknown", lambda m: 100 * m.unknown_share, percent=True),
    MetricKind("used", "Vocabulary used (%)", "of the vocabulary used", lambda m: 100 * m.vocab_used_share,
               percent=True),
    MetricKind("renyi", "Rényi efficiency (α = 2.5)", "Rényi efficiency", lambda m: m.renyi_efficiency,
               axis="Rényi efficiency"),
    MetricKind("shannon", "Shannon efficiency", "Shannon efficiency", lambda m: m.shannon_efficiency),
)
BY_KEY = {kind.key: kind for kind in METRICS}


@dataclass(frozen=True)
class MetricSeries:
    """Per measure, its value at every step 0..n for the corpus and the held-out text; an empty tuple
    where that text has no curve (no corpus, no held-out text, words kept whole not counted)."""

    lesson: Lesson  # whose: a result that arrives after the lesson changed is dropped
    held_out: str
    corpus: dict[str, tuple[float, ...]]
    held: dict[str, tuple[float, ...]]
    merges: tuple[int, ...]
    vocab: tuple[int, ...]

    @property
    def last_step(self) -> int:
        return len(self.merges) - 1


def _values(curve: MetricsCurve | None) -> dict[str, tuple[float, ...]]:
    if curve is None:
        return {kind.key: () for kind in METRICS}
    at = [curve.at(k) for k in range(curve.last_step + 1)]
    return {kind.key: () if kind.whole_words and curve.words_whole is None else tuple(kind.value(m) for m in at)
            for kind in METRICS}


def metric_series(lesson: Lesson, held_out: str, check: Callable[[], None] | None = None) -> MetricSeries:
    """Every measure at every step of a trained ``lesson`` (slow on a long run: call it in a worker,
    with its stop as ``check``, which ``lesson_metrics`` hears while it measures a very long text)."""
    curves = lesson_metrics(lesson, held_out, check=check)
    shown = curves.corpus or curves.held_out
    vocab = shown.vocab_sizes if shown is not None else ()
    return MetricSeries(lesson, held_out, _values(curves.corpus), _values(curves.held_out),
                        tuple(range(len(vocab))), tuple(vocab))
