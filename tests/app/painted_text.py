"""Text as it is painted, measured in a grabbed image: which widgets show text a user reads, where
the custom views (tiles, charts, explorer token panes) paint theirs, and the WCAG contrast of what
is painted there.

The contrast is measured in pixels, not read from a palette: in a text's rectangle the background
is the most common colour and the text the pixel of greatest contrast with it. A rectangle that
also holds a border or a tick line of higher contrast than the text measures that instead, so the
measure errs towards passing; text drawn in a colour close to its ground always fails it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPoint, QRect, QRectF
from PySide6.QtGui import QFont, QFontInfo, QImage
from PySide6.QtWidgets import (
    QAbstractButton, QAbstractItemView, QComboBox, QGroupBox, QLabel, QLineEdit, QPlainTextEdit, QTabBar,
    QTextEdit, QWidget,
)


def _luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG relative luminance of packed 0xAARRGGBB pixels."""
    channels = np.stack([(rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF]).astype(np.float64) / 255
    linear = np.where(channels <= 0.04045, channels / 12.92, ((channels + 0.055) / 1.055) ** 2.4)
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def pixels(image: QImage, rect: QRect) -> np.ndarray:
    """The packed RGB pixels of ``image`` inside ``rect`` (clipped to the image)."""
    rect = rect.intersected(image.rect())
    if rect.isEmpty():
        return np.zeros(0, dtype=np.uint32)
    if image.format() != QImage.Format.Format_RGB32:
        image = image.convertToFormat(QImage.Format.Format_RGB32)
    rows = np.frombuffer(image.constBits(), dtype=np.uint32).reshape(image.height(), image.bytesPerLine() // 4)
    return rows[rect.top():rect.bottom() + 1, rect.left():rect.right() + 1].ravel() & 0xFFFFFF


def painted_contrast(image: QImage, rect: QRect) -> float:
    """The WCAG contrast (1 to 21) of the text painted in ``rect`` of ``image`` against its ground:
    the most common colour there is the ground, the pixel of greatest contrast with it the text."""
    found = pixels(image, rect)
    if found.size == 0:
        return 1.0
    colours, counts = np.unique(found, return_counts=True)
    ground = _luminance(colours[np.argmax(counts)].reshape(1))[0]
    lum = _luminance(colours)
    hi, lo = np.maximum(lum, ground), np.minimum(lum, ground)
    return float(np.max((hi + 0.05) / (lo + 0.05)))


def _reads_text(w: QWidget) -> bool:
    if isinstance(w, QLabel):
        return bool(w.text().strip())
    if isinstance(w, QAbstractButton):
        return bool(w.text().strip())
    if isinstance(w, QLineEdit):
        return bool(w.text() or w.placeholderText())
    if isinstance(w, (QComboBox, QTabBar, QGroupBox)):
        return True
    return False


def _shown(w: QWidget) -> bool:
    return w.isVisible() and w.width() > 2 and w.height() > 2 and not w.visibleRegion().isEmpty()


def text_widgets(window: QWidget) -> list[QWidget]:
    """The visible widgets of ``window`` whose text a user reads: labels, buttons, boxes, tabs and
    the viewports of text editors and item views (tables, lists). Painted views are
    ``painted_texts``'s."""
    found: list[QWidget] = []
    for w in window.findChildren(QWidget):
        if not _shown(w) or w.window() is not window.window():
            continue
        if _reads_text(w):
            found.append(w)
        elif isinstance(w, (QPlainTextEdit, QTextEdit, QAbstractItemView)) and _shown(w.viewport()):
            found.append(w.viewport())
    return found


def window_rect(widget: QWidget, top: QWidget, rect: QRect | QRectF | None = None) -> QRect:
    """``rect`` of ``widget`` (its whole rect by default) in the coordinates of ``top``."""
    r = QRectF(widget.rect()) if rect is None else QRectF(rect)
    origin = widget.mapTo(top, QPoint(0, 0))
    return r.translated(origin.x(), origin.y()).toAlignedRect()


def pixel_size(font: QFont) -> int:
    """The height of ``font``'s em in pixels as the screen renders it."""
    return QFontInfo(font).pixelSize()


@dataclass(frozen=True)
class PaintedText:
    """Text that a view paints itself: what it is, where (in the top widget's coordinates), in which font."""

    what: str
    rect: QRect
    font: QFont


def painted_texts(top: QWidget) -> list[PaintedText]:
    """Text painted by the custom views inside ``top``: each tile's label, each tile row's ×count
    and token count and each tie bracket's number, each explorer token and the pyqtgraph charts'
    axes, labels, legends and text items."""
    found: list[PaintedText] = []
    found += _tile_labels(top)
    found += _explorer_tokens(top)
    found += _chart_texts(top)
    return [t for t in found if not t.rect.intersected(top.rect()).isEmpty()]


def _tile_labels(top: QWidget) -> list[PaintedText]:
    from widgets.tiles.canvas import TileCanvas

    found = []
    for canvas in top.findChildren(TileCanvas):
        if not _shown(canvas):
            continue
        viewport, font = canvas.viewport(), canvas.painter.tile_font
        for word in canvas.visible_rows():
            for i, token in enumerate(canvas.row_tiles(word)):
                rect = canvas.tile_rect(word, i).toAlignedRect().intersected(viewport.rect())
                if not rect.isEmpty():
                    found.append(PaintedText(f"tile {token!r}", window_rect(viewport, top, rect), font))
        # each row's ×count and token count, and the tie brackets' numbers
        for what, box, label_font in canvas.row_texts():
            rect = box.toAlignedRect().intersected(viewport.rect())
            if not rect.isEmpty():
                found.append(PaintedText(f"row {what!r}", window_rect(viewport, top, rect), label_font))
    return found


def _explorer_tokens(top: QWidget) -> list[PaintedText]:
    from widgets.explorer.token_view import TokenView

    found = []
    for view in top.findChildren(TokenView):
        if not _shown(view):
            continue
        font = view._fonts()[0]
        shown = view.visibleRegion().boundingRect()
        for rect, piece in view.piece_rects():
            box = rect.toAlignedRect().intersected(shown)
            if not box.isEmpty():
                found.append(PaintedText(f"token {piece.text!r}", window_rect(view, top, box), font))
    return found


def _chart_texts(top: QWidget) -> list[PaintedText]:
    import pyqtgraph as pg

    found = []
    for view in top.findChildren(pg.GraphicsView):
        if not _shown(view):
            continue
        for item in view.scene().items():
            if not item.isVisible() or item.opacity() == 0:
                continue
            text = _item_text(item)
            if text is None:
                continue
            what, font = text
            box = view.mapFromScene(item.sceneBoundingRect()).boundingRect().intersected(view.rect())
            if box.width() > 2 and box.height() > 2:
                found.append(PaintedText(what, window_rect(view, top, box), font))
    return found


def _item_text(item) -> tuple[str, QFont] | None:
    """What a chart's scene item writes and in which font, or None for an item that writes nothing."""
    import pyqtgraph as pg
    from PySide6.QtWidgets import QGraphicsTextItem

    if isinstance(item, pg.AxisItem):
        font = item.style.get("tickFont") or item.font()
        return f"axis {item.orientation} ticks", font
    if isinstance(item, QGraphicsTextItem) and item.toPlainText().strip():
        # a TextItem's, a LabelItem's and an axis title's text: sized by its HTML, read from its first run
        fragment = item.document().firstBlock().begin().fragment()
        font = QFont(item.font())
        if fragment.isValid():
            font = fragment.charFormat().font()
            if font.pointSizeF() <= 0 and font.pixelSize() <= 0:
                font = QFont(item.font())
        return f"text {item.toPlainText()!r}", font
    return None


@dataclass(frozen=True)
class MeasuredText:
    """A widget's text as painted in a grab of its window: where, at which type size, at which contrast."""

    widget: QWidget
    text: str
    rect: QRect  # in the window's grab
    pixels: int  # the widget font's pixel size
    contrast: float  # of the painted text against the painted ground

    def __str__(self) -> str:
        kind = type(self.widget).__name__
        return f"{kind} {self.text[:50]!r}: {self.pixels} px, contrast {self.contrast:.1f}:1"


def _text_of(widget: QWidget) -> str:
    if isinstance(widget, (QLabel, QAbstractButton)):
        return widget.text().strip()
    if isinstance(widget, QLineEdit):
        return widget.text() or widget.placeholderText()
    if isinstance(widget, QComboBox):
        return widget.currentText()
    if isinstance(widget, QGroupBox):
        return widget.title()
    return type(widget).__name__


def measured_texts(window: QWidget) -> list[MeasuredText]:
    """Each visible text widget of ``window`` (``text_widgets``), measured in one grab of the window."""
    image = window.grab().toImage()
    measured = []
    for widget in text_widgets(window):
        seen = widget.visibleRegion().boundingRect()
        rect = QRect(widget.mapTo(window, seen.topLeft()), seen.size()).intersected(image.rect())
        size = pixel_size(widget.font())
        if rect.width() < size or rect.height() < size / 2:
            continue  # a sliver at a scrolled edge shows no text to measure
        measured.append(MeasuredText(widget, _text_of(widget), rect, size, painted_contrast(image, rect)))
    return measured
