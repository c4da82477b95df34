"""What a window actually paints for its text: each visible text widget's place in a grab, the
contrast of its darkest or lightest pixel against its most common one, and its type size.

The palette says what a widget means to paint; a style sheet, a parent's fill or an own colour can
paint something else, so these functions read the pixels of ``window.grab()`` instead.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QRect
from PySide6.QtGui import QFontInfo, QImage
from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget

from tests.widgets.colour_difference import luminance


@dataclass(frozen=True)
class PaintedText:
    widget: QWidget
    text: str
    rect: QRect  # in the window's grab
    pixels: int  # the widget font's pixel size
    contrast: float  # of the painted text against the painted ground

    def __str__(self) -> str:
        kind = type(self.widget).__name__
        return f"{kind} {self.text[:50]!r}: {self.pixels} px, contrast {self.contrast:.1f}:1"


def pixel_array(image: QImage) -> np.ndarray:
    """The grab as an array of 0xRRGGBB integers, one per pixel (rows, columns)."""
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    w, h = image.width(), image.height()
    raw = np.frombuffer(image.constBits(), dtype=np.uint32, count=image.bytesPerLine() * h // 4)
    return (raw.reshape(h, image.bytesPerLine() // 4)[:, :w] & 0xFFFFFF).copy()


def _hex(value: int) -> str:
    return f"#{int(value):06x}"


def painted_contrast(pixels: np.ndarray) -> float:
    """The contrast of a patch's text: the ground is its most common colour, the text the pixel of
    greatest contrast to it (anti-aliased edges only ever lower it)."""
    colours, counts = np.unique(pixels.ravel(), return_counts=True)
    ground = luminance(_hex(colours[np.argmax(counts)]))
    r = ((colours >> 16) & 0xFF) / 255
    g = ((colours >> 8) & 0xFF) / 255
    b = (colours & 0xFF) / 255

    def linear(v: np.ndarray) -> np.ndarray:
        return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)

    lum = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    ratios = (np.maximum(lum, ground) + 0.05) / (np.minimum(lum, ground) + 0.05)
    return float(ratios.max())


def text_of(widget: QWidget) -> str:
    if isinstance(widget, (QLabel, QAbstractButton)):
        return widget.text().strip()
    return ""


def text_widgets(window: QWidget) -> list[QWidget]:
    """Every label and button (check boxes, radio buttons) with text that shows some of itself."""
    found = []
    for widget in window.findChildren(QWidget):
        if not isinstance(widget, (QLabel, QAbstractButton)) or not text_of(widget):
            continue
        if widget.isVisibleTo(window) and widget.isVisible() and not widget.visibleRegion().isEmpty():
            found.append(widget)
    return found


def painted_texts(window: QWidget) -> list[PaintedText]:
    """Each visible text widget of ``window`` as painted in a grab of the whole window."""
    image = window.grab().toImage()
    pixels = pixel_array(image)
    bounds = QRect(0, 0, pixels.shape[1], pixels.shape[0])
    measured = []
    for widget in text_widgets(window):
        seen = widget.visibleRegion().boundingRect()
        rect = QRect(widget.mapTo(window, seen.topLeft()), seen.size()).intersected(bounds)
        size = QFontInfo(widget.font()).pixelSize()
        if rect.width() < size or rect.height() < size / 2:
            continue  # a sliver at a scrolled edge shows no text to measure
        patch = pixels[rect.top():rect.bottom() + 1, rect.left():rect.right() + 1]
        measured.append(PaintedText(widget, text_of(widget), rect, size, painted_contrast(patch)))
    return measured

