"""How each central view looks in the classroom mode, and how it looked before.

``projector_look(view, fit)`` returns a ``Look``: ``apply(scale)`` sets the view's projector theme
and size for a live type scale (1.0 is the mode's starting size), ``restore()`` puts back exactly
what the view had when the mode began. ``fit`` shrinks the starting sizes on a screen smaller
than 1080p, but never below the size the view had on the desktop nor below the classroom's least
type (``widgets.classroom.look``). Every view also inherits the mode's palette and style sheet from
the window; a look only adds what a view paints itself or sizes in a sheet of its own. Views are
told through their own setters only; a view of a kind not listed here has the window's look alone.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from widgets.charts import ChartsView, ChartTheme
from widgets.classroom import look
from widgets.explorer import ExplorerView
from widgets.quiz_panel import QuizPanel
from widgets.tiles import TileView

# the views' own scales where body text is look.PX_1080 (a 1080p projector): a tile label about
# 50 pixels tall there, the explorer's pieces as large
TILE_SCALE = 2.2
EXPLORER_SCALE = 1.9
# the quiz's type as large as the tiles' labels: its options about 50 pixels tall, its prompt more
QUIZ_SCALE = 2.0
TILE_THEME = EXPLORER_THEME = "high contrast"


def _at(fit: float, scale: float = 1.0) -> float:
    """How much larger than on a 1080p projector the mode's body text is, at a screen's ``fit``."""
    return look.text_px(fit, scale) / look.PX_1080


@dataclass
class Look:
    apply: Callable[[float], None]
    restore: Callable[[], None]


def _tiles(view: TileView, fit: float) -> Look:
    canvas = view.canvas
    scale = canvas.scale
    start = max(scale, TILE_SCALE * _at(fit))
    theme = canvas.own_theme
    controls = not view.controls.isHidden()

    def apply(s: float) -> None:
        view.set_theme(TILE_THEME)
        view.set_controls_visible(False)
        view.set_scale(start * s)
        # the tie numbers under the tiles at the mode's least type, however small their badge
        view.set_least_px(look.text_px(fit, s))

    def restore() -> None:
        view.set_theme(theme)
        view.set_scale(scale)
        view.set_least_px(0)
        view.set_controls_visible(controls)

    return Look(apply, restore)


def _charts(view: ChartsView, fit: float) -> Look:
    theme = view.theme
    start = max(theme.font_size, look.text_points(look.text_px(fit)))

    def apply(s: float) -> None:
        view.set_theme(replace(ChartTheme.projector(dark=True), font_size=max(8, round(start * s))))

    return Look(apply, lambda: view.set_theme(theme))


def _explorer(view: ExplorerView, fit: float) -> Look:
    scale, theme = view.scale, view.theme
    start = max(scale, EXPLORER_SCALE * _at(fit))

    def apply(s: float) -> None:
        view.set_theme(EXPLORER_THEME)
        view.set_scale(start * s)

    def restore() -> None:
        view.set_theme(theme)
        view.set_scale(scale)

    return Look(apply, restore)


def _quiz(view: QuizPanel, fit: float) -> Look:
    scale, teacher, offered = view.scale, view.teacher_mode, view.full_screen_offered
    start = max(scale, QUIZ_SCALE * _at(fit))

    def apply(s: float) -> None:
        # in front of a class the verdict waits for the teacher (Ctrl+R reveals it); the mode is
        # full screen already, so its row keeps the room of that button for the others
        view.set_teacher_mode(True)
        view.set_full_screen_offered(False)
        view.set_scale(start * s, least_px=look.text_px(fit, s))

    def restore() -> None:
        view.set_teacher_mode(teacher)
        view.set_full_screen_offered(offered)
        view.set_scale(scale, least_px=0)

    return Look(apply, restore)


def projector_look(view, fit: float = 1.0) -> Look:
    if isinstance(view, TileView):
        return _tiles(view, fit)
    if isinstance(view, ChartsView):
        return _charts(view, fit)
    if isinstance(view, ExplorerView):
        return _explorer(view, fit)
    if isinstance(view, QuizPanel):
        return _quiz(view, fit)
    return Look(lambda s: None, lambda: None)
