"""The key list and the blank screen: they cover their host and keep to its size."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QWidget

from widgets.classroom import BlankCover, KeysOverlay

ROWS = [("→  Page Down", "next step"), ("Esc", "leave"), ("?", "this list")]


def host(qtbot, size=QSize(1920, 1080)):
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.resize(size)
    widget.show()
    return widget


def test_covers_follow_the_host_size(qtbot):
    h = host(qtbot)
    blank = BlankCover(h)
    blank.show()
    assert blank.geometry() == h.rect()
    h.resize(1280, 720)
    assert blank.geometry() == h.rect()
    assert blank.grab().toImage().pixelColor(640, 360) == QColor("#000000")


def test_the_key_list_reads_as_text(qtbot):
    overlay = KeysOverlay(host(qtbot))
    overlay.set_keys(ROWS)
    text = overlay.text()
    assert text.splitlines()[0] == "Classroom keys"
    assert "→  Page Down: next step" in text and "Esc: leave" in text


def test_the_key_list_type_fits_the_screen(qtbot):
    h = host(qtbot)
    overlay = KeysOverlay(h)
    overlay.set_keys(ROWS * 4)
    overlay.show()
    _, big = overlay.fonts()
    h.resize(1280, 480)
    _, small = overlay.fonts()
    assert big.pixelSize() > small.pixelSize() >= 14
    # every line fits in the height: rows plus title and footer
    assert (len(ROWS) * 4 + 3.5) * small.pixelSize() * 1.45 <= 480
    overlay.grab()


def test_the_key_list_type_fits_a_narrow_screen_whole(qtbot):
    rows = [("Ctrl + =  /  Ctrl + −", "larger / smaller type (Ctrl + 0: as it was)"), *ROWS]
    h = host(qtbot, QSize(800, 800))
    overlay = KeysOverlay(h)
    overlay.set_keys(rows)
    overlay.show()
    _, body = overlay.fonts()
    # every line whole inside the frame (drawn 20 px out from the list, on a screen 800 px wide)
    assert overlay.content_width(body) <= 800 - 80
    h.resize(1920, 1080)
    _, wide = overlay.fonts()
    assert wide.pixelSize() > body.pixelSize()
    overlay.grab()
