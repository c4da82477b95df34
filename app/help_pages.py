"""The user guide's pages, found wherever BPE Lab runs from, and the links between them.

The pages are written in one place, ``docs/`` in the repository. A wheel and the bundle carry them
as ``resources/guide/`` (``setup.py`` and ``packaging/bpe-lab.spec`` put them there when they are
built), read through importlib.resources; a checkout has no such folder and reads ``docs/`` itself.
Nothing here needs Qt: the Help window (``app.help_window``) shows what this finds.
"""

from __future__ import annotations

import re
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from urllib.parse import unquote

INDEX = "index.md"
QUICK_START = "quick-start.md"

# [text](target) outside code: the guide's links, to another page, a heading, or the web
_LINK = re.compile(r"(?<!!)\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^(`{3,}).*?^\1[ \t]*$", re.S | re.M)
_CODE_SPAN = re.compile(r"(`+).+?\1", re.S)


def guide_folder() -> Traversable:
    """The folder of the guide's pages: the installed package's, else the checkout's ``docs/``."""
    shipped = resources.files("resources") / "guide"
    if shipped.is_dir():
        return shipped
    return Path(__file__).resolve().parents[1] / "docs"


def page_names() -> list[str]:
    """Every page, the contents first, then the quick start, then the rest by name."""
    names = sorted(p.name for p in guide_folder().iterdir() if p.name.endswith(".md"))
    first = [n for n in (INDEX, QUICK_START) if n in names]
    return first + [n for n in names if n not in first]


def page_text(name: str) -> str:
    if name not in page_names():
        raise KeyError(f"no page {name!r} in the user guide")
    return guide_folder().joinpath(name).read_text(encoding="utf-8")


def title_of(text: str) -> str:
    """A page's title: its first ``# `` heading."""
    found = re.search(r"^# (.+)$", text, re.M)
    return found.group(1).strip() if found else ""


def slug(heading: str) -> str:
    """The anchor a heading gets on GitHub: lower case, punctuation dropped, spaces as hyphens."""
    kept = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return kept.replace(" ", "-")


def headings(text: str) -> list[str]:
    """The headings of a page, outside its code blocks, as they read."""
    prose = _FENCE.sub("", text)
    return [m.group(1).strip() for m in re.finditer(r"^#{1,6} (.+)$", prose, re.M)]


def link_targets(text: str) -> list[str]:
    """Every link target of a page, outside code (a link shown in a code example is not a link)."""
    prose = _CODE_SPAN.sub("", _FENCE.sub("", text))
    return [m.group(1) for m in _LINK.finditer(prose)]


def is_external(target: str) -> bool:
    return re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) is not None


def resolve(current: str, target: str) -> tuple[str, str] | None:
    """The (page, heading slug) a link of page ``current`` leads to ("" for the top of a page), or
    None for a link out of the guide (the web, or a file that is not one of its pages)."""
    if is_external(target):
        return None
    path, _, fragment = target.partition("#")
    page = unquote(Path(path).name) if path else current
    if path and (Path(path).parent != Path(".") or page not in page_names()):
        return None
    return page, unquote(fragment)
