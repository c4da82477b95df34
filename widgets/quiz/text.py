"""Quiz text for Qt's Markdown labels."""

from __future__ import annotations

import re

_CODE = re.compile(r"(`+[^`]*`+)")


def markdown_text(text: str) -> str:
    """``<`` kept literal outside code spans: tokens such as ``est</w>`` or ``<unk>`` would
    otherwise be read as HTML tags and vanish, with the rest of the text after them."""
    return "".join(part if part.startswith("`") else part.replace("<", "\\<") for part in _CODE.split(text))
