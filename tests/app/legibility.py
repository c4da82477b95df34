"""The legibility check's matrix and its walk over what a case shows, with a report of what fails.

A case is one view in one mode, theme, window size and zoom. It is staged as ``bpe-lab snapshot``
stages it (``app.commands.snapshot``): a central view in the window, a panel alone at the size (in
classroom mode, where panels are hidden, alone in the dark theme at classroom type). What the case
shows is then grabbed once and walked: every widget whose text a user reads and every text a
custom view paints (``painted_text``) must keep a WCAG contrast of 4.5:1 against what is painted
behind it (7:1 in classroom mode), classroom text must be 24 px or more at 1280x720, what explains a
step must not be shortened with "…", no widget may reach outside the window and the window (or
panel) must be the size of the screen it is shown on, not wider.

Not covered: text a custom view paints that it does not report (the predict prompt's sentences,
the charts' bars' own labels are measured only as part of the chart's scene items), and tooltips,
which no grab shows. The tile rows' ×count and "N tokens" and the tie brackets' numbers are measured
as the tiles' labels are.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QWidget

from app.commands.snapshot import DOCKS
from tests.app.painted_text import painted_contrast, painted_texts, pixel_size, text_widgets, window_rect
from tests.app.test_nothing_cut import PAIRS_WHOLE, VOCAB_WHOLE, cells_cut, outside

VIEWS = ("tiles", "charts", "pairs", "vocab", "tokenize", "quiz", "explorer", "languages")
MODES = ("normal", "classroom")
THEMES = ("light", "dark")
SIZES = ((1024, 768), (1280, 720), (1280, 800), (1366, 768), (1920, 1080), (3840, 2160))
ZOOMS = (1.0, 1.5, 2.0)
# The full product (6 sizes × 3 zooms × 2 themes, one window each, 4 to 40 s a window on a shared
# 2-core machine) takes over 5 minutes; the sample (9 windows a theme) about 3: the zooms are
# sampled over the sizes, so that every size and every zoom runs, the sizes a classroom meets most (1024x768, 1280x720, 1920x1080) at two zooms each, 100%
# among them (where the classroom type size is checked at 1280x720), and 200% on the smallest screen.
ZOOMS_AT = {
    (1024, 768): (1.0, 2.0), (1280, 720): (1.0, 1.5), (1280, 800): (2.0,),
    (1366, 768): (1.5,), (1920, 1080): (1.0, 2.0), (3840, 2160): (1.5,),
}
NORMAL_CONTRAST, CLASSROOM_CONTRAST = 4.5, 7.0
CLASSROOM_PIXELS = 24
TYPE_SIZE_CHECKED_AT = (1280, 720)


@dataclass(frozen=True)
class Case:
    view: str
    mode: str
    theme: str
    size: tuple[int, int]
    zoom: float

    @property
    def classroom(self) -> bool:
        return self.mode == "classroom"

    def __str__(self) -> str:
        w, h = self.size
        return f"{self.view} {self.mode} {self.theme} {w}x{h} zoom {round(self.zoom * 100)}%"


def cases() -> list[Case]:
    return [Case(view, mode, theme, size, zoom)
            for size in SIZES for zoom in ZOOMS_AT[size] for theme in THEMES for mode in MODES for view in VIEWS]


def _name(w: QWidget) -> str:
    """A widget as a report names it: its class and name (a viewport by its view's), and its text's start."""
    if w.objectName() == "qt_scrollarea_viewport" and w.parentWidget() is not None:
        w = w.parentWidget()
    text = getattr(w, "text", None)
    shown = str(text()).replace("\n", " ")[:40] if callable(text) else ""
    return f"{type(w).__name__}{' ' + w.objectName() if w.objectName() else ''}" + (f" {shown!r}" if shown else "")


def problems(case: Case, window, shown: QWidget) -> list[str]:
    """What ``case`` gets wrong in ``shown`` (the window, or a panel's floating dock)."""
    image = shown.grab().toImage()
    least = CLASSROOM_CONTRAST if case.classroom else NORMAL_CONTRAST
    type_size = case.classroom and case.size == TYPE_SIZE_CHECKED_AT
    found: list[str] = []
    for w in text_widgets(shown):
        rect = window_rect(w, shown).intersected(shown.rect())
        if rect.isEmpty():
            continue
        ratio = painted_contrast(image, rect)
        if ratio < least:
            found.append(f"contrast {ratio:.1f}:1 < {least}:1: {_name(w)}")
        if type_size and w.isEnabled() and pixel_size(w.font()) < CLASSROOM_PIXELS:
            found.append(f"type {pixel_size(w.font())} px < {CLASSROOM_PIXELS} px: {_name(w)}")
    for text in painted_texts(shown):
        ratio = painted_contrast(image, text.rect)
        if ratio < least:
            found.append(f"contrast {ratio:.1f}:1 < {least}:1: painted {text.what}")
        if type_size and pixel_size(text.font) < CLASSROOM_PIXELS:
            found.append(f"type {pixel_size(text.font)} px < {CLASSROOM_PIXELS} px: painted {text.what}")
    found += [f"cut: {text}" for text in elided(case, window)]
    if shown.size().toTuple() != case.size:
        found.append(f"larger than the screen: {shown.width()}x{shown.height()}")
    found += [f"outside the window: {far}" for far in outside(shown)]
    return found


def elided(case: Case, window) -> list[str]:
    """What explains a step and is shortened with "…" in what the case shows."""
    from widgets.elided import ElidedLabel

    cut: list[str] = []
    status = window.timeline.status
    if not panel(case) and status.isVisible() and (status.is_elided() or "…" in status.text()):
        cut.append(f"status {status.full_text()!r}")
    if case.view == "pairs":
        cut += [f"pairs {t!r}" for t in cells_cut(window.pairs_panel.table, PAIRS_WHOLE)]
    if case.view == "vocab":
        cut += [f"vocabulary {t!r}" for t in cells_cut(window.vocab_panel.table, VOCAB_WHOLE)]
    for label in window.findChildren(ElidedLabel):
        if label.isVisible() and label is not status and label.is_elided():
            cut.append(f"sentence {label.full_text()!r}")
    if case.view in (None, "tiles"):
        caption = window.views["Tiles"].caption
        if caption.isVisible() and caption.height() < caption.heightForWidth(caption.width()):
            cut.append(f"tiles caption {caption.height()} px of {caption.heightForWidth(caption.width())}")
    return cut


def panel(case: Case) -> bool:
    return case.view in DOCKS
