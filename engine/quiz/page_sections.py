"""A concept page cut into its sections: front matter, body lines, and where each starts.

Two page shapes are read. The published one opens every section with a heading
``## Version <64 hex digits>`` and a metadata line (``Published …, proof: …, score …. Source:
<URL>``) before the front matter; the heading ends the section before it, so no text runs on
from one section into the next. The older shape has no headings: a front-matter block that
names a ``kind`` opens a section, so a horizontal rule in a body stays a rule.

Front-matter values are JSON (``format: 1``, ``labels: {"lang": "en"}``); a value that is not
JSON is read as plain text (``kind: question``), and ``- item`` lines make a list. This is a
reader for that convention, not a YAML parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine.errors import BpeLabError
from engine.files.reading import parse_json

_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s*(.*)$")
_ITEM = re.compile(r"^\s+-\s*(.*)$")
_FENCE = re.compile(r"^\s*(```+|~~~+)\s*([\w-]*)\s*$")
_VERSION = re.compile(r"^##\s+Version\b[ \t]*(.*?)\s*$", re.IGNORECASE)
_HASH = re.compile(r"^[0-9a-fA-F]{64}$")
# the publisher's line about a version: metadata, never part of a prompt
_PUBLISHED = re.compile(r"^\s*Published\b.*\b(proof|Source):", re.IGNORECASE)
_JSON_START = re.compile(r'^(\{|\[|"|-?\d|true$|false$|null$)')
_MAX_FRONT_MATTER = 80


@dataclass
class Section:
    line: int  # 1-based line where the section starts: its version heading, or its opening ---
    meta: dict[str, Any] = field(default_factory=dict)
    body_line: int = 0  # 1-based line of the body's first line
    body: list[str] = field(default_factory=list)
    version: str = ""  # the 64 hex digits of its ``## Version`` heading, in lower case
    problem: str = ""  # why the section cannot be read at all


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _value(raw: str) -> Any:
    """A front-matter value: JSON where it parses, else the text (a list without quotes split at commas)."""
    raw = raw.strip()
    if _JSON_START.match(raw):
        try:
            return parse_json(raw, "the value")
        except BpeLabError:
            pass
    if raw.startswith("[") and raw.endswith("]"):
        return [_unquote(v) for v in raw[1:-1].split(",") if v.strip()]
    return _unquote(raw)


def _front_matter(lines: list[str], start: int) -> tuple[dict[str, Any], int] | None:
    """The block opening at ``lines[start]`` (a ``---``): its keys and the index of its closing line."""
    meta: dict[str, Any] = {}
    last_key = None
    j = start + 1
    end = min(len(lines), start + 2 + _MAX_FRONT_MATTER)
    while j < end:
        line = lines[j]
        if line.strip() == "---":
            return (meta, j) if "kind" in meta else None
        item = _ITEM.match(line)
        key = _KEY.match(line)
        if not line.strip():
            pass
        elif item and last_key is not None:
            if not isinstance(meta[last_key], list):
                meta[last_key] = []
            meta[last_key].append(_unquote(item.group(1)))
        elif key:
            last_key = key.group(1)
            raw = key.group(2)
            # a JSON object or list may go on over several lines
            while raw.strip()[:1] in ("{", "[") and _unfinished(raw) and j + 1 < end and lines[j + 1].strip() != "---":
                j += 1
                raw += "\n" + lines[j]
            meta[last_key] = _value(raw) if raw.strip() else ""
        else:
            return None
        j += 1
    return None


def _unfinished(raw: str) -> bool:
    try:
        parse_json(raw, "the value")
    except BpeLabError:
        return True
    return False


def _version_problem(text: str) -> str:
    if _HASH.match(text):
        return ""
    shown = text[:40] or "nothing"
    return f"the heading gives {shown!r} where a version needs 64 hex digits"


def _fence_left_open(line: str, m: re.Match[str] | None, opener: str, headed: bool) -> bool:
    """Whether ``line``, met inside the fence ``opener``, shows that fence was never closed: a version
    heading (a fence never spans sections), or a fence of the same run opening with an info string
    (```` ```json ````), which inside a code block would be a closing line someone mistyped."""
    if headed and _VERSION.match(line):
        return True
    return bool(m and m.group(2) and m.group(1) == opener)


def _unclosed(line: int, opening: str, opener: str) -> str:
    return f"its code fence at line {line} ({opening}) is never closed: add a line {opener} after the code"


def split_sections(text: str) -> list[Section]:
    """Sections in file order; text before the first one (the page's title, an intro) is dropped.

    A fence left open would swallow every section after it: where it shows (see
    ``_fence_left_open``, or the end of the page), its section is refused, naming the fence's line,
    and the page is read again from the line after the fence as if it were text."""
    lines = text.splitlines()
    headed = any(_VERSION.match(line) for line in lines)
    sections: list[Section] = []
    current: Section | None = None
    heading: tuple[str, int] | None = None  # a version heading whose front matter has not come yet
    fence = None
    # where the open fence started: its line, its run of backticks, its section and that body's length
    opened: tuple[int, str, Section | None, int] = (0, "", None, 0)
    plain: set[int] = set()  # fences found open: read as text on the second pass
    i = 0
    while i < len(lines) or fence is not None:
        line = lines[i] if i < len(lines) else ""
        m = _FENCE.match(line) if i < len(lines) else None
        if fence is not None and (i >= len(lines) or _fence_left_open(line, m, opened[1], headed)):
            at, opener, owner, kept = opened
            if owner is not None:
                del owner.body[kept:]
                owner.problem = owner.problem or _unclosed(at + 1, lines[at].strip(), opener)
            plain.add(at)
            fence, current, i = None, owner, at
            line, m = lines[i], None
        if m and fence is None and i not in plain:
            fence = m.group(1)[:3]
            opened = (i, m.group(1), current, len(current.body) if current is not None else 0)
        elif m and fence is not None and m.group(1).startswith(fence) and not m.group(2):
            # a closing fence has no info string
            fence = None
        elif fence is None:
            version = _VERSION.match(line)
            if version:
                if heading is not None:
                    sections.append(_headless(heading))
                heading, current = (version.group(1), i + 1), None
                i += 1
                continue
            if _PUBLISHED.match(line) and _before_body(heading, current):
                i += 1
                continue
            found = _front_matter(lines, i) if line.strip() == "---" else None
            if found:
                meta, end = found
                current = Section(i + 1, meta, body_line=end + 2)
                if heading is not None:
                    current.version = heading[0].lower()
                    current.line = heading[1]
                    current.problem = _version_problem(heading[0])
                    heading = None
                sections.append(current)
                i = end + 1
                continue
        if current is not None:
            current.body.append(line)
        i += 1
    if heading is not None:
        sections.append(_headless(heading))
    return sections


def _before_body(heading: tuple[str, int] | None, current: Section | None) -> bool:
    """Where a publication line is metadata: after a version heading, or before a body's first words."""
    return heading is not None or (current is not None and not any(line.strip() for line in current.body))


def _headless(heading: tuple[str, int]) -> Section:
    return Section(heading[1], version=heading[0].lower(),
                   problem="has no front matter: after the heading, a block between two --- lines must "
                           'give its kind (kind: "question")')


def json_block(body: list[str]) -> tuple[str, str | None, int]:
    """(the body without its first json block, that block's text or None, its line in the body)."""
    kept: list[str] = []
    block: list[str] = []
    found = None
    at = 0
    fence = None
    for n, line in enumerate(body):
        m = _FENCE.match(line)
        if fence is None and m and m.group(2).lower() == "json" and found is None:
            fence, block, at = m.group(1), [], n
            continue
        if fence is not None:
            if m and m.group(1).startswith(fence[:3]) and not m.group(2):
                found = "\n".join(block)
                fence = None
            else:
                block.append(line)
            continue
        kept.append(line)
    if fence is not None:
        # an unclosed fence: keep what there is, parse_json will say where it stops
        found = "\n".join(block)
    return "\n".join(kept).strip(), found, at


def page_title(text: str) -> str:
    """The page's ``# Title``: its first level-one heading outside a code fence."""
    fence = None
    for line in text.splitlines():
        m = _FENCE.match(line)
        if m:
            fence = None if fence is not None and not m.group(2) else (fence or m.group(1))
            continue
        if fence is None and line.startswith("# "):
            return line[2:].strip()
    return ""
