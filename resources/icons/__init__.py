"""BPE Lab's application icon, one SVG drawing used for the window, the dialogs and the desktop entry."""

from __future__ import annotations

from pathlib import Path

# the name the desktop entry and the icon theme know it by
ICON_NAME = "bpe-lab"
ICON_FILE = Path(__file__).resolve().parent / f"{ICON_NAME}.svg"
