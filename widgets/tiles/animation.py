"""The merge film: which merge is playing, how far it has got, and when it ends. No Qt here.

The lesson state always holds the step the session is at; a film is laid over it and can be
dropped at any moment, which is how a step asked for mid-film finishes the running one cleanly:
the rows underneath are already right. Time comes in as milliseconds from any steady clock, so a
test drives a film by hand instead of waiting for it.

Where each tile is at a given progress is the layout's business (``layout.RowMerge.frames``);
drawing is the painter's. The session never hears of a film: it only knows "step k of n".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Callable, Sequence

from engine.algorithm.trainer import MergeStep

MERGE_MS = 700  # one merge, until the timeline's pace sets it
SWEEP_MS = 260  # each stop of the counting window
# share of a merge spent sliding together; the rest is the fused tile's moment of emphasis
FUSE_AT = 0.6


@dataclass
class Transition:
    """One merge being played: step ``step.step`` made (forward) or undone (backward)."""

    step: MergeStep
    forward: bool
    sweep_positions: int = 0  # the counting window's stops; 0 when counting is not shown
    progress: float = 0.0  # merge progress: 0 = pair apart, 1 = fused (runs 1 -> 0 for a split)
    sweep: float = -1.0  # counting window position while counting, else -1

    @property
    def sweeping(self) -> bool:
        return self.sweep >= 0

    @property
    def fused(self) -> bool:
        return not self.sweeping and self.progress >= FUSE_AT

    @property
    def tokens_shown(self) -> int | None:
        """The corpus total at this moment: it changes when the pair fuses, not when the film starts
        (None for a step read from a tokenizer file, which keeps no corpus)."""
        return self.step.tokens_after if self.fused else self.step.tokens_before


class Tick(Enum):
    """What moving a film to a moment did, so the view knows how much to redraw."""

    STILL = "no film runs, or it is held: the clock need not tick"
    MOVED = "the tiles moved"
    TURNED = "the film changed phase (counting ended, or the pair fused): the caption follows"
    ENDED = "the film reached its end and is gone"


class MergeFilm:
    """Plays one merge at a time as the lesson moves a step; a jump shows at once.

    ``longest_row(step)`` tells how many tiles the longest row in view has before ``step``: the
    counting window stops at each pair of it. ``on_start`` and ``on_end`` are called as a film
    begins and as it ends, whether it ran out, was cut by a new move, or was finished on request.
    """

    def __init__(self, longest_row: Callable[[MergeStep], int] = lambda step: 0,
                 on_start: Callable[[], None] = lambda: None, on_end: Callable[[], None] = lambda: None):
        self.merge_ms = MERGE_MS
        self.sweep_ms = SWEEP_MS
        self.reduce_motion = False
        self.show_counting = False
        self.transition: Transition | None = None
        self.held = False  # seek() holds the film at one moment; the clock no longer moves it
        self._began = 0.0
        self._longest_row = longest_row
        self._on_start = on_start
        self._on_end = on_end

    @property
    def running(self) -> bool:
        return self.transition is not None

    # -- settings -------------------------------------------------------------------------------

    def set_merge_duration(self, ms: float) -> None:
        self.merge_ms = max(1, int(ms))

    def set_reduce_motion(self, on: bool) -> None:
        """With reduced motion every move shows at once; turning it on ends the running film."""
        self.reduce_motion = bool(on)
        if self.reduce_motion:
            self.stop()

    # -- following the lesson -------------------------------------------------------------------

    def move(self, previous: int, new: int, steps: Sequence[MergeStep], now: float, motion: bool = True) -> Transition | None:
        """The lesson moved from step ``previous`` to ``new``; returns the film that starts, if any.

        Whatever plays ends first, whole. One step forward or back then plays as a film when
        motion is allowed (``motion`` is the desktop's and the widget's say); a jump does not.
        """
        self.stop()
        if abs(new - previous) != 1 or self.reduce_motion or not motion:
            return None
        forward = new > previous
        step = steps[max(new, previous) - 1]
        t = Transition(step, forward, progress=0.0 if forward else 1.0)
        if forward and self.show_counting:
            t.sweep_positions = max(0, self._longest_row(step) - 1)
            t.sweep = 0.0 if t.sweep_positions else -1.0
        self.transition = t
        self.held = False
        self._began = now
        self._on_start()
        return t

    def stop(self) -> bool:
        """Drop the running film (its end is already underneath); False when none ran."""
        if self.transition is None:
            return False
        self.transition = None
        self.held = False
        self._on_end()
        return True

    # -- time -----------------------------------------------------------------------------------

    def length(self) -> float:
        """Milliseconds the running film lasts: the counting sweep, then the merge."""
        t = self.transition
        return 0.0 if t is None else t.sweep_positions * self.sweep_ms + self.merge_ms

    def advance(self, now: float) -> Tick:
        """Move the film to the clock's ``now`` (the clock that ``move`` was given)."""
        t = self.transition
        if t is None or self.held:
            return Tick.STILL
        return self._set_time(t, now - self._began)

    def seek(self, fraction: float) -> Tick:
        """Hold the film at a fraction of its length (for pictures and tests); it never ends here."""
        t = self.transition
        if t is None:
            return Tick.STILL
        self.held = True
        return self._set_time(t, max(0.0, min(1.0, fraction)) * self.length() - 1e-6)

    def _set_time(self, t: Transition, ms: float) -> Tick:
        sweep_ms = t.sweep_positions * self.sweep_ms
        was = (t.fused, t.sweeping)
        if ms < sweep_ms:
            t.sweep = ms / self.sweep_ms
        else:
            t.sweep = -1.0
            p = min(1.0, (ms - sweep_ms) / self.merge_ms)
            t.progress = p if t.forward else 1.0 - p
            if p >= 1.0:
                self.stop()
                return Tick.ENDED
        return Tick.TURNED if (t.fused, t.sweeping) != was else Tick.MOVED
