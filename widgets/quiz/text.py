"""Quiz text for Qt's Markdown labels."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from engine.quiz.images import ImageFiles, with_images

_CODE = re.compile(r"(`+[^`]*`+)")
# renders a pack's Markdown for a label: the quiz panel's own reads images from the pack on show
Markdown = Callable[[str], str]


def markdown_text(text: str, folder: Path | None = None, images: ImageFiles | None = None) -> str:
    """``text`` ready for a Markdown label.

    ``<`` is kept literal outside code spans: tokens such as ``est</w>`` or ``<unk>`` would otherwise
    be read as HTML tags and vanish, with the rest of the text after them. Images come only from
    ``folder`` (the pack's own), read through ``images``; with no folder each is a note, so the label
    never loads a file by itself (``engine.quiz.images``).
    """
    text = with_images(text, folder, images if images is not None else ImageFiles())
    return "".join(part if part.startswith("`") else part.replace("<", "\\<") for part in _CODE.split(text))


def pack_folder(source: str) -> Path | None:
    """The folder of the pack file ``source`` names, where its images may be; None for no file."""
    return Path(source).parent if source else None
