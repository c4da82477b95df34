"""The Help menu: the quick start and the user guide open in the app with their text, every link
between the guide's pages lands, the quick start names only keys and menu items the window has, and
in classroom mode a page reads from the back of the room."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QKeySequence

from app import help_pages
from app.classroom import KEY_NAMES, command_for
from app.help_window import GuideWindow
from app.shortcut_list import ShortcutList
from tests.widgets.colour_difference import contrast
from widgets.shortcuts import bindings

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(p.name for p in DOCS.glob("*.md"))
NO_MODIFIER = Qt.KeyboardModifier.NoModifier


@pytest.fixture
def window(make_window, qtbot, monkeypatch):
    monkeypatch.setattr("app.classroom._screen_fit", lambda window: 1.0)
    w = make_window()
    w.show()
    qtbot.waitExposed(w)
    return w


def guide_of(window) -> GuideWindow:
    (guide,) = [g for g in window.findChildren(GuideWindow) if g.isVisible()]
    return guide


def words(text: str) -> str:
    return " ".join(text.split())


def plain(markdown: str) -> str:
    """What a page's Markdown reads as: marks, tags and link targets gone."""
    text = re.sub(r"<[^>]+>", "", markdown)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"^\s*(#+|\d+\.|-)\s+", "", text, flags=re.M)
    return words(text.replace("**", "").replace("*", "").replace("`", ""))


# -- the actions open their windows -------------------------------------------------------------


def test_the_checkout_reads_the_guide_where_it_is_written():
    assert Path(str(help_pages.guide_folder())) == DOCS
    assert help_pages.page_names()[:2] == [help_pages.INDEX, help_pages.QUICK_START]
    assert sorted(help_pages.page_names()) == PAGES


def test_help_quick_start_opens_the_tour(window, qtbot):
    window.quick_start_action.trigger()
    guide = guide_of(window)
    assert guide.page == help_pages.QUICK_START
    assert plain(help_pages.page_text(help_pages.QUICK_START)) == words(guide.browser.toPlainText())
    assert "five-minute tour" in guide.windowTitle()


def test_shift_f1_opens_the_quick_start_and_f1_still_the_keys(window, qtbot):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_F1, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: any(g.isVisible() for g in window.findChildren(GuideWindow)))
    assert guide_of(window).page == help_pages.QUICK_START
    assert "Shift+F1" in [s.toString() for s in window.quick_start_action.shortcuts()]
    assert not [b for b in bindings(window) if b.keys == "Shift+F1" and b.owner is not window.quick_start_action]
    qtbot.keyClick(window, Qt.Key.Key_F1)
    qtbot.waitUntil(lambda: any(d.isVisible() for d in window.findChildren(ShortcutList)))


def test_help_user_guide_opens_the_contents_and_the_same_window_serves_both(window):
    window.quick_start_action.trigger()
    first = guide_of(window)
    window.guide_action.trigger()
    assert guide_of(window) is first and first.page == help_pages.INDEX
    shown = words(first.browser.toPlainText())
    for page in PAGES:
        if page != help_pages.INDEX:
            assert help_pages.title_of(help_pages.page_text(page)) in shown, page


def test_help_keyboard_shortcuts_opens_the_generated_list(window):
    window.shortcuts_action.trigger()
    (listing,) = [d for d in window.findChildren(ShortcutList) if d.isVisible()]
    text = words(listing.browser.toPlainText())
    assert all(b.keys in text for b in bindings(window))


def test_the_help_menu_holds_the_three_in_order(window):
    help_menu = window.menuBar().actions()[-1].menu()
    texts = [a.text().replace("&", "") for a in help_menu.actions()]
    assert texts[:3] == ["Quick start", "User guide", "Keyboard shortcuts"]


# -- links --------------------------------------------------------------------------------------


def links_of_the_guide() -> list[tuple[str, str]]:
    return [(page, target) for page in PAGES
            for target in help_pages.link_targets((DOCS / page).read_text(encoding="utf-8"))
            if not help_pages.is_external(target)]


def test_the_guide_has_links_between_its_pages():
    assert len(links_of_the_guide()) >= len(PAGES) - 1


@pytest.mark.parametrize("page, target", links_of_the_guide())
def test_every_link_between_pages_leads_to_a_page_and_heading(page, target):
    where = help_pages.resolve(page, target)
    assert where is not None, f"{page}: {target} is no page of the guide"
    to, fragment = where
    if fragment:
        slugs = [help_pages.slug(h) for h in help_pages.headings(help_pages.page_text(to))]
        assert fragment in slugs, f"{page}: {target} names no heading of {to}"


def test_the_contents_reach_every_page():
    linked = {help_pages.resolve(help_pages.INDEX, t)[0]
              for t in help_pages.link_targets(help_pages.page_text(help_pages.INDEX))}
    assert linked == set(PAGES) - {help_pages.INDEX}


def test_every_link_of_the_readme_into_the_guide_lands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    into = [t for t in help_pages.link_targets(readme) if t.startswith("docs/")]
    assert {Path(t.partition("#")[0]).name for t in into} == set(PAGES) - {help_pages.QUICK_START}
    for target in into:
        path, _, fragment = target.partition("#")
        assert (ROOT / path).is_file(), target
        if fragment:
            assert fragment in [help_pages.slug(h) for h in help_pages.headings((ROOT / path).read_text("utf-8"))]


def test_following_a_link_in_the_window_shows_the_page_at_its_heading(window):
    window.guide_action.trigger()
    guide = guide_of(window)
    guide.show_page("command-line.md")
    guide.browser.anchorClicked.emit(QUrl("export-import.md"))
    assert guide.page == "export-import.md"
    assert words(guide.browser.toPlainText()).startswith("Exporting and importing")
    guide.show_page("command-line.md", "corpora-bigger-than-one-machine-should-train")
    block = guide.browser.document().findBlockByNumber(guide.heading_blocks()["corpora-bigger-than-one-machine-should-train"])
    top = guide.browser.document().documentLayout().blockBoundingRect(block).top()
    bar = guide.browser.verticalScrollBar()
    assert bar.value() > 0 and bar.value() == min(int(top), bar.maximum())
    guide.back()
    assert guide.page == "export-import.md"
    guide.back()
    assert guide.page == "command-line.md"
    guide.forward()
    assert guide.page == "export-import.md"
    guide.contents_button.click()
    assert guide.page == help_pages.INDEX


@pytest.mark.parametrize("page", PAGES)
def test_every_link_on_a_page_opens_in_the_window(window, page):
    window.guide_action.trigger()
    guide = guide_of(window)
    for target in help_pages.link_targets(help_pages.page_text(page)):
        if help_pages.is_external(target):
            continue
        guide.show_page(page)
        guide.browser.anchorClicked.emit(QUrl(target))
        to, fragment = help_pages.resolve(page, target)
        assert guide.page == to, target
        assert not fragment or fragment in guide.heading_blocks(), target


# -- the quick start names what exists -----------------------------------------------------------


def key_of(name: str) -> tuple[int, Qt.KeyboardModifier]:
    """A key as the quick start writes it ("→", "Ctrl+E", "A"), as a key and its modifiers."""
    named = {text: int(key) for key, text in KEY_NAMES.items()}
    if name in named:
        return named[name], NO_MODIFIER
    combination = QKeySequence.fromString(name, QKeySequence.SequenceFormat.PortableText)[0]
    return int(combination.key()), combination.keyboardModifiers()


def test_every_key_the_quick_start_names_is_bound(window):
    for title in window.views:
        window.views[title]  # the views' own keys (the quiz's) too
    named = re.findall(r"<kbd>([^<]+)</kbd>", help_pages.page_text(help_pages.QUICK_START))
    assert len(named) > 10
    bound = {(int(b.sequence[0].key()), b.sequence[0].keyboardModifiers()) for b in bindings(window)}
    for name in named:
        key, modifiers = key_of(name)
        in_classroom = command_for(key, modifiers) is not None
        assert (key, modifiers) in bound or in_classroom, f"the quick start names {name}, which nothing binds"


def test_every_menu_item_the_quick_start_names_is_in_its_menu(window):
    items = re.findall(r"\*\*(\w+) > ([^*]+)\*\*", help_pages.page_text(help_pages.QUICK_START))
    assert len(items) >= 3
    menus = {a.text().replace("&", ""): a.menu() for a in window.menuBar().actions() if a.menu()}
    for menu, item in items:
        assert menu in menus, menu
        assert item in [a.text().replace("&", "") for a in menus[menu].actions()], f"{menu} > {item}"


def test_the_readme_tour_is_the_quick_start():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    tour = readme[readme.index("## A five-minute tour\n"):]
    tour = tour[:tour.index("\n## ")]
    steps = help_pages.page_text(help_pages.QUICK_START).split("\n", 2)[2]
    steps = steps[:steps.index("**Help > Keyboard shortcuts**")].strip()
    assert steps in tour


# -- classroom mode -----------------------------------------------------------------------------


def fragments(guide: GuideWindow):
    block = guide.browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            if it.fragment().text().strip():
                yield it.fragment()
            it += 1
        block = block.next()


@pytest.mark.slow
def test_in_classroom_mode_a_page_reads_from_the_back_and_comes_back_as_it_was(window, qtbot):
    window.quick_start_action.trigger()
    guide = guide_of(window)
    desktop = guide.size()
    window.classroom.enter()
    guide.show_page("classroom.md")  # a page with a table, code and links
    qtbot.wait(10)
    screen = window.screen().availableGeometry()
    assert screen.contains(guide.frameGeometry()) and guide.width() > screen.width() * 0.8
    base = guide.browser.font().pixelSize()
    assert base >= 24
    for fragment in fragments(guide):
        chars = fragment.charFormat()
        size = chars.font().pixelSize() if chars.font().pixelSize() > 0 else base
        assert size >= 24 and chars.intProperty(chars.Property.FontSizeAdjustment) >= 0, fragment.text()
        if chars.isAnchor():
            assert contrast(chars.foreground().color().name(), "#000000") >= 7, fragment.text()
    # what is painted: a black ground and white type
    image = guide.browser.viewport().grab().toImage()
    painted = Counter(image.pixelColor(x, y).name() for x in range(0, image.width(), 3) for y in range(0, image.height(), 3))
    ground, _n = painted.most_common(1)[0]
    ink = next(c for c, _n in painted.most_common() if contrast(c, ground) > 3)
    assert ground == "#000000" and contrast(ink, ground) >= 7

    window.classroom.set_scale(1.5)
    assert guide.browser.font().pixelSize() >= round(base * 1.4)
    window.classroom.leave()
    assert guide.size() == desktop and guide.styleSheet() == "" and guide.page == "classroom.md"
    assert guide.classroom_px is None and "#000000" not in guide.browser.styleSheet() + guide.styleSheet()
