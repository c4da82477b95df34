"""Pictures the views draw, as bytes for ``engine.files.writing`` (the one place a file is written)."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QImage

from engine.errors import BpeLabError


def png_bytes(image: QImage) -> bytes:
    # PySide6 takes the format as str (bytes is refused at run time) where its stubs say bytes
    return drawn_bytes(lambda device: image.save(device, "PNG"))  # type: ignore[call-overload]


def drawn_bytes(draw: Callable[[QIODevice], bool]) -> bytes:
    """What ``draw`` writes to an in-memory device (False from it: nothing could be drawn)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    ok = draw(buffer)
    buffer.close()
    if ok is False:
        raise BpeLabError("the picture could not be drawn")
    return bytes(data.data())
