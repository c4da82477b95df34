"""The class-vote phone page as a file: one small file that needs nothing from outside the teacher's
computer, whose colours read on a phone in light and in dark. Its behaviour in a real browser is
tests/app/test_vote_browser.py."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from importlib import resources
from pathlib import Path

import pytest

from tests.widgets.colour_difference import contrast

PAGE = Path(__file__).resolve().parents[1] / "resources" / "vote" / "page.html"
# what a phone on a slow school network fetches once, whole
MOST_BYTES = 25 * 1024
# foreground on background, as the page's rules paint them
TEXT_ON = [("text", "ground"), ("soft", "ground"), ("error", "ground"), ("accent", "ground"),
           ("text", "button"), ("soft", "button"), ("accent", "button"), ("on-accent", "accent"),
           ("text", "tile")]


def page_text() -> str:
    return PAGE.read_text(encoding="utf-8")


class References(HTMLParser):
    """Every address the page's tags name, and whether any tag loads a script or style from a file."""

    def __init__(self) -> None:
        super().__init__()
        self.addresses: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("src", "href", "action", "srcset", "poster", "data") and value is not None:
                self.addresses.append(value)


def test_the_page_is_small_and_ships_as_a_resource():
    assert PAGE.stat().st_size < MOST_BYTES
    assert (resources.files("resources") / "vote" / "page.html").read_bytes() == PAGE.read_bytes()


def test_the_page_refers_to_nothing_outside_the_teachers_computer():
    text = page_text()
    assert not re.search(r"https?://", text, re.IGNORECASE)
    assert not re.search(r"url\(|@import", text, re.IGNORECASE)
    parser = References()
    parser.feed(text)
    # only an inline icon (so the browser asks for no favicon): no script, style or font file at all
    assert parser.addresses == ["data:,"]
    # what the script asks for is the vote API on the same server, by path
    asked = re.findall(r"""(?:fetch|EventSource)\(\s*["']([^"']*)""", text)
    assert asked and all(path.startswith("/api/") for path in asked)


def colours(scheme: str) -> dict[str, str]:
    """The page's custom colours in one scheme: ``:root`` for light, the dark media query's for dark."""
    text = page_text()
    dark = text.index("prefers-color-scheme: dark")
    block = text[dark:text.index("}", dark)] if scheme == "dark" else text[text.index(":root"):dark]
    found = dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-fA-F]{6})", block))
    assert {name for pair in TEXT_ON for name in pair} <= found.keys()
    return found


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_text_colour_reads_on_its_background(scheme):
    found = colours(scheme)
    weak = {(fg, bg): round(contrast(found[fg], found[bg]), 2) for fg, bg in TEXT_ON
            if contrast(found[fg], found[bg]) < 4.5}
    assert not weak, f"{scheme}: below 4.5:1: {weak}"


def test_no_text_is_set_below_18_px():
    sizes = [int(px) for px in re.findall(r"font(?:-size)?:\s*(?:\d+\s+)?(\d+)px", page_text())]
    assert sizes and min(sizes) >= 18
