"""A panel that scrolls when it is given less room than it needs, instead of being squeezed.

A layout squeezed under its minimum draws its controls over each other; in a frameless scroll area
the panel keeps its size and the area scrolls (docks, and the central views' pages at a large zoom).
"""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QScrollArea, QWidget


def scrolling(panel: QWidget) -> QScrollArea:
    """``panel`` in a frameless scroll area: at its natural size or larger it shows whole, smaller it scrolls."""
    area = QScrollArea()
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidgetResizable(True)
    area.setWidget(panel)
    return area
