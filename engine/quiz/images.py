"""Images in quiz Markdown: shown only from the pack's own folder, each file read once.

A pack is a file someone sent the teacher; its prompts must not make the app read other files.
So an image is a path relative to the pack's folder, with no ``..``, not absolute, not a URL (no
``file:``, ``http:`` or ``data:``), naming a regular file of at most ``MAX_IMAGE_BYTES``. Every other
image becomes a short note in the text, so the question still shows. What Qt would otherwise load
by itself (any path, any number of times) never reaches it: allowed images are handed over as
``data:`` URLs, and anything else that Markdown could read as an image is escaped.

Left out: reference-style images whose definition is missing (they stay text), HTML ``<img>`` (the
quiz labels show ``<`` literally).
"""

from __future__ import annotations

import base64
import re
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from engine.errors import BpeLabError
from engine.files.reading import megabytes, read_bytes

MAX_IMAGE_BYTES = 4 * 1024 * 1024
_CODE = re.compile(r"(`+[^`]*`+)")
# ![alt](url "title") with a url in <...> or with balanced parentheses
_INLINE = re.compile(
    r"!\[(?P<alt>(?:[^\[\]\\]|\\.)*)\]\(\s*(?P<url><[^<>\n]*>|(?:[^\s()\\]|\\.|\([^\s()]*\))*)"
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?\s*\)"
)
# ![alt][label], ![alt][] and ![label]
_REFERENCE = re.compile(r"!\[(?P<alt>(?:[^\[\]\\]|\\.)*)\](?:\[(?P<label>(?:[^\[\]\\]|\\.)*)\])?")
_DEFINITION = re.compile(r"^ {0,3}\[(?P<label>(?:[^\[\]\\]|\\.)+)\]:\s*(?P<url><[^<>\n]*>|\S+)", re.MULTILINE)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def image_path(folder: Path | None, url: str) -> Path:
    """The file ``url`` names inside ``folder``; ``BpeLabError`` saying why it is not shown otherwise."""
    if folder is None:
        raise BpeLabError("images are shown only from a quiz pack's own folder")
    name = unquote(url.strip().removeprefix("<").removesuffix(">"))
    if not name:
        raise BpeLabError("no file named")
    problem = unusable_name(name)
    if problem:
        raise BpeLabError(problem)
    if _SCHEME.match(name) and not re.match(r"^[A-Za-z]:[\\/]", name):
        raise BpeLabError("only files in the pack's folder are shown, not web or file: addresses")
    parts = PurePosixPath(name.replace("\\", "/"))
    if parts.is_absolute() or re.match(r"^[A-Za-z]:", name):
        raise BpeLabError("only files in the pack's folder are shown, not absolute paths")
    if ".." in parts.parts:
        raise BpeLabError("only files in the pack's folder are shown, not paths with ..")
    try:
        root = folder.resolve()
        path = (root / parts).resolve()
    except (OSError, RuntimeError, ValueError) as exc:  # a link loop, a name the system refuses
        raise BpeLabError(f"the file cannot be looked up ({getattr(exc, 'strerror', None) or exc})") from None
    if not path.is_relative_to(root):
        raise BpeLabError("only files in the pack's folder are shown (this one links outside it)")
    return path


def unusable_name(name: str) -> str | None:
    """Why an image's file name (its %-escapes decoded) can name no file at all, or None."""
    if "\x00" in name:
        return "the name holds a NUL character (%00 in a link), which no file name can hold"
    if any(len(part.encode("utf-8", "replace")) > 255 for part in re.split(r"[\\/]", name)):
        return "a name in the path is longer than 255 bytes"
    return None


def image_links(markdown: str) -> list[str]:
    """The address of every image in ``markdown`` that ``with_images`` would look up (code spans left out)."""
    urls = []
    definitions = {_label(m["label"]): m["url"] for m in _DEFINITION.finditer(markdown)}
    for part in _CODE.split(markdown):
        if part.startswith("`"):
            continue
        for m in _INLINE.finditer(part):
            urls.append(m["url"])
        for m in _REFERENCE.finditer(_INLINE.sub("", part)):
            url = definitions.get(_label(m["label"] or m["alt"]))
            if url is not None:
                urls.append(url)
    return urls


def check_image_links(markdown: str) -> None:
    """``BpeLabError`` for an image link that can name no file (what a pack's reader refuses)."""
    for url in image_links(markdown):
        problem = unusable_name(unquote(url.strip().removeprefix("<").removesuffix(">")))
        if problem:
            shown = url.strip()[:60]
            raise BpeLabError(f"the image link {shown!r} cannot be shown: {problem}; fix the link")


class ImageFiles:
    """Images read from disk, each file once (a prompt shown again, or using one image many
    times, reads nothing more); a refusal is remembered too."""

    def __init__(self, limit: int = MAX_IMAGE_BYTES):
        self.limit = limit
        self._read: dict[tuple[Path | None, str], bytes | BpeLabError] = {}

    def get(self, folder: Path | None, url: str) -> bytes:
        key = (folder, url)
        if key not in self._read:
            try:
                path = image_path(folder, url)
            except BpeLabError as exc:
                self._read[key] = exc
            else:
                try:
                    self._read[key] = read_bytes(path, self.limit)
                except BpeLabError as exc:
                    self._read[key] = BpeLabError(_short(str(exc), path, self.limit))
        found = self._read[key]
        if isinstance(found, BpeLabError):
            raise found
        return found


def _short(reason: str, path: Path, limit: int) -> str:
    """A reader's message cut to fit a note that already names the image: "no such file"."""
    if "BPE Lab reads files up to" in reason:
        return f"larger than {megabytes(limit)}"
    reason = reason.removeprefix(str(path)).lstrip(": ").removeprefix("is ")
    return re.split(r"[:;] ", reason, maxsplit=1)[0]


def with_images(markdown: str, folder: Path | None, images: ImageFiles) -> str:
    """``markdown`` with each image as a ``data:`` URL read from the pack's folder, or as a note
    saying why it is not shown. Code spans are left as they are."""
    definitions = {_label(m["label"]): m["url"] for m in _DEFINITION.finditer(markdown)}
    return "".join(
        part if part.startswith("`") else _images_in(part, folder, images, definitions)
        for part in _CODE.split(markdown)
    )


def _images_in(text: str, folder: Path | None, images: ImageFiles, definitions: dict[str, str]) -> str:
    out = []
    at = 0
    while True:
        inline = _INLINE.search(text, at)
        reference = _REFERENCE.search(text, at)
        found = min((m for m in (inline, reference) if m), key=lambda m: (m.start(), m is not inline), default=None)
        if found is None:
            out.append(_escaped(text[at:]))
            return "".join(out)
        out.append(_escaped(text[at:found.start()]))
        alt = found["alt"]
        if found is inline:
            url = found["url"]
        else:
            url = definitions.get(_label(found["label"] or alt))
        if url is None:
            out.append(_escaped(found.group(0)))
        else:
            out.append(_image(alt, url, folder, images))
        at = found.end()


def _image(alt: str, url: str, folder: Path | None, images: ImageFiles) -> str:
    try:
        data = images.get(folder, url)
    except BpeLabError as exc:
        shown = url.strip().removeprefix("<").removesuffix(">")[:80]
        return f"*(image {_plain(shown)} not shown: {_plain(str(exc))})*"
    return f"![{_plain(alt)}](data:image;base64,{base64.b64encode(data).decode('ascii')})"


def _label(label: str) -> str:
    return " ".join(label.split()).casefold()


def _escaped(text: str) -> str:
    """Text in which Markdown can no longer find an image (``![`` that no pattern above took)."""
    return text.replace("![", "!\\[")


def _plain(text: str) -> str:
    """Text shown as it is inside Markdown: what Markdown would act on is escaped (``<`` is left to
    ``widgets.quiz.text.markdown_text``, which escapes it everywhere)."""
    return re.sub(r"([\\`*_\[\]()!#|~])", r"\\\1", text)
