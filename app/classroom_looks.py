"""How each central view looks in the classroom mode, and how it looked before.

``projector_look(view, fit)`` returns a ``Look``: ``apply(scale)`` sets the view's projector theme
and size for a live type scale (1.0 is the mode's starting size), ``restore()`` puts back exactly
what the view had when the mode began. ``fit`` shrinks the starting sizes on a screen smaller
than 1080p, but never below the size the view had on the desktop. Views are told through their own setters only; a view of a kind
not listed here is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from widgets.charts import ChartsView, ChartTheme
from widgets.explorer import ExplorerView
from widgets.quiz_panel import QuizPanel
from widgets.tiles import TileView

# the views' own scales at the mode's starting size, chosen on a 1920x1080 projector so a tile
# label is about 50 pixels tall and the charts' axis labels about 30
TILE_SCALE = 2.2
EXPLORER_SCALE = 1.9
# the quiz's type as large as the tiles' labels: its options about 50 pixels tall, its prompt more
QUIZ_SCALE = 2.0
CHART_POINTS = 20


@dataclass
class Look:
    apply: Callable[[float], None]
    restore: Callable[[], None]


def _tiles(view: TileView, fit: float) -> Look:
    canvas = view.canvas
    scale = canvas.scale
    start = max(scale, TILE_SCALE * fit)
    theme = canvas.own_theme
    controls = not view.controls.isHidden()

    def apply(s: float) -> None:
        view.set_theme("high contrast")
        view.set_controls_visible(False)
        view.set_scale(start * s)

    def restore() -> None:
        view.set_theme(theme)
        view.set_scale(scale)
        view.set_controls_visible(controls)

    return Look(apply, restore)


def _charts(view: ChartsView, fit: float) -> Look:
    theme = view.theme
    start = max(theme.font_size, CHART_POINTS * fit)

    def apply(s: float) -> None:
        view.set_theme(replace(ChartTheme.projector(dark=True), font_size=max(8, round(start * s))))

    return Look(apply, lambda: view.set_theme(theme))


def _explorer(view: ExplorerView, fit: float) -> Look:
    scale, theme = view.scale, view.theme
    start = max(scale, EXPLORER_SCALE * fit)

    def apply(s: float) -> None:
        view.set_theme("high contrast")
        view.set_scale(start * s)

    def restore() -> None:
        view.set_theme(theme)
        view.set_scale(scale)

    return Look(apply, restore)


# the quiz's own sheet sizes its text; these rules add white on black for the projector (its
# feedback boxes and hint keep their own light colours, as their rules are more specific)
QUIZ_CONTRAST = """
QWidget { background-color: #000000; color: #FFFFFF; }
QPushButton, QComboBox { border: 2px solid #FFFFFF; padding: 6px 14px; }
QPushButton:focus { border: 4px solid #FFFF00; }
QRadioButton::indicator, QCheckBox::indicator { border: 3px solid #FFFFFF; background-color: #000000; }
QRadioButton::indicator:checked, QCheckBox::indicator:checked { background-color: #FFFF00; }
QListWidget { border: 2px solid #FFFFFF; }
QLineEdit, QSpinBox { border: 2px solid #FFFFFF; background-color: #111111; }
"""


def _quiz(view: QuizPanel, fit: float) -> Look:
    scale, teacher = view.scale, view.teacher_mode
    start = max(scale, QUIZ_SCALE * fit)

    def apply(s: float) -> None:
        # in front of a class the verdict waits for the teacher (Ctrl+R reveals it)
        view.set_teacher_mode(True)
        view.set_scale(start * s)
        view.setStyleSheet(view.styleSheet() + QUIZ_CONTRAST)

    def restore() -> None:
        view.set_teacher_mode(teacher)
        view.set_scale(scale)

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
