"""Every view a class sees, in both modes and themes, at the sizes classrooms have and at 100, 150
and 200% zoom, read as it is painted (``tests/app/legibility.py`` says what fails a case and how
the zooms are sampled over the sizes). One window serves a size, theme and zoom: its views in
normal mode, then in classroom mode, then its panels alone.

The full matrix is slow (run by .ci/run); one quick case keeps the check itself in the quick part.
Each render is saved as a PNG, to $BPE_LAB_RENDER_DIR when set.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.commands import snapshot
from tests.app.legibility import MODES, SIZES, THEMES, VIEWS, ZOOMS_AT, Case, problems

CENTRAL = [v for v in VIEWS if v not in snapshot.DOCKS]
PANELS = [v for v in VIEWS if v in snapshot.DOCKS]
STEP = 3  # a tied step of the classic lesson: the tie sentence, brackets and tie column all show


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory) -> Path:
    named = os.environ.get("BPE_LAB_RENDER_DIR")
    if named:
        Path(named).mkdir(parents=True, exist_ok=True)
        return Path(named)
    return tmp_path_factory.mktemp("legibility")


def walk(size, theme: str, zoom: float, modes, views, out_dir: Path) -> dict[str, list[str]]:
    """Every case of one window (``size``, ``theme``, ``zoom``) in ``modes`` and ``views``: the problems of each."""

    found: dict[str, list[str]] = {}
    window, _ = snapshot.open_window(snapshot.source_for(None), STEP, size, theme, zoom)

    def check(case: Case, shown) -> None:
        found[str(case)] = problems(case, window, shown)
        shown.grab().toImage().save(str(out_dir / (str(case).replace(" ", "-").replace("%", "") + ".png")), "PNG", 80)

    try:
        for mode in modes:
            classroom = mode == "classroom"
            central = [v for v in views if v in CENTRAL]
            if classroom and central:
                snapshot.enter_classroom(window, size)
            for view in central:
                check(Case(view, mode, theme, size, zoom), snapshot.stage(window, view, size=size))
            if classroom and central:
                snapshot.leave_classroom(window)
            panels = [v for v in views if v in PANELS]
            look(window, *snapshot.panel_look(theme, zoom, classroom))
            for view in panels:
                check(Case(view, mode, theme, size, zoom), snapshot.stage(window, view, size=size))
                getattr(window, snapshot.DOCKS[view]).setFloating(False)
            look(window, theme, zoom)
            if panels:
                window.arrange_docks()
                snapshot.settle()
    finally:
        snapshot.close_window(window)
    return found


def look(window, theme: str, zoom: float) -> None:
    """The window in ``theme`` at ``zoom``, restyled only for a change (a new style sheet takes a second)."""
    if window.theme != theme:
        window.set_theme(theme)
    if window.zoom != zoom:
        window.set_zoom(zoom)
        snapshot.settle()


def report(found: dict[str, list[str]]) -> str:
    failing = {case: p for case, p in found.items() if p}
    lines = [f"{len(failing)} of {len(found)} cases fail:"]
    for case, p in failing.items():
        lines.append(f"- {case}: {len(p)} problems")
        lines += [f"    {line}" for line in p[:12]]
        if len(p) > 12:
            lines.append(f"    … and {len(p) - 12} more")
    return "\n".join(lines)


def test_the_tiles_at_720p_read_in_normal_mode(qtbot, out_dir):
    found = walk((1280, 720), "light", 1.0, ["normal"], ["tiles"], out_dir)
    assert not any(found.values()), report(found)


@pytest.mark.slow
def test_the_tiles_at_720p_read_in_classroom_mode_their_counts_and_tie_numbers_too(qtbot, out_dir):
    # step 3 of the classic lesson ties l + o with o + w: a numbered bracket under two rows
    found = walk((1280, 720), "light", 1.0, ["classroom"], ["tiles"], out_dir)
    assert not any(found.values()), report(found)


@pytest.mark.slow
@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_view_reads_from_the_back_of_the_room(qtbot, out_dir, size, theme):
    found: dict[str, list[str]] = {}
    for zoom in ZOOMS_AT[size]:
        found.update(walk(size, theme, zoom, MODES, VIEWS, out_dir))
    assert not any(found.values()), report(found)
