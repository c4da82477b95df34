"""A token's merge tree: built from the history up to the step shown, said as a formula, drawn as
tiles that spell the token along the bottom, folded below a depth and opened by a click."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from PySide6.QtCore import QPoint, Qt

from app.session import Session
from engine.lesson.lesson import Lesson
from engine.readable.display import for_settings
from widgets.merge_tree import FOLD_DEPTH, MergeTreeView, TreeNode, formula, merge_tree
from widgets.vocab_panel import VocabPanel

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"


@pytest.fixture
def lesson() -> Lesson:
    return Lesson(CLASSIC, word_counts=True).train()


def test_a_tree_holds_the_merges_made_by_the_step(lesson):
    tree = merge_tree(lesson.history, "est</w>", lesson.last_step)
    assert (tree.token, tree.step, tree.merges, tree.depth) == ("est</w>", 3, 3, 3)
    assert [p.token for p in tree.parts] == ["est", "</w>"]
    assert formula(tree, str) == "((e + s) + t) + </w>"
    # before merge 3 est</w> is no token yet: nothing built it
    assert merge_tree(lesson.history, "est</w>", 2) == TreeNode("est</w>")
    assert formula(merge_tree(lesson.history, "e", 9), str) == "e"


@dataclass(frozen=True)
class Made:
    step: int
    pair: tuple[str, str]


class Chain:
    """A history whose token of n letters is the one of n - 1 letters and one more: n levels deep."""

    def made_by(self, token: str) -> Made | None:
        return Made(len(token) - 1, (token[:-1], token[-1])) if len(token) > 1 else None


def test_a_tree_deeper_than_the_interpreter_recurses_is_built_and_said():
    token = "".join(chr(0x4E00 + i) for i in range(3000))
    tree = merge_tree(Chain(), token, 10**6)  # type: ignore[arg-type]
    assert (tree.depth, tree.merges) == (2999, 2999)
    said = formula(tree, str)
    assert said.endswith(f" + {token[-1]}") and said.count("(") < 100  # deep parts are named, not spelt


def view_of(lesson: Lesson, token: str, qtbot) -> MergeTreeView:
    view = MergeTreeView()
    qtbot.addWidget(view)
    tree = merge_tree(lesson.history, token, lesson.last_step)
    view.set_tree(tree, for_settings(lesson.settings), lesson.tokenizer.token_to_id, None, formula(tree, str))
    view.show()
    return view


def test_the_drawn_tree_has_the_token_on_top_and_its_symbols_in_order_along_the_bottom(lesson, qtbot):
    view = view_of(lesson, "newest</w>", qtbot)
    drawn = {path: token for token, path, _ in view.drawn()}
    assert drawn[()] == "newest</w>" and (drawn[(0,)], drawn[(1,)]) == ("new", "est</w>")
    leaves = sorted((view.box_of(path).left(), drawn[path]) for path in drawn if path + (0,) not in drawn)
    assert "".join(token for _, token in leaves) == "newest</w>"
    # each part hangs below the token it makes, between its neighbours
    for path in drawn:
        if path:
            assert view.box_of(path).top() > view.box_of(path[:-1]).bottom()
    assert view.accessibleDescription() == "((n + e) + w) + (((e + s) + t) + </w>)"


def test_a_deep_tree_folds_below_a_depth_with_a_count_and_a_click_opens_it(qtbot):
    text = " ".join(["abcdefghijklmnopqrstuvwxyz"] * 2)
    deep = Lesson(text).train()
    token = max((s.token for s in deep.steps), key=len)
    view = view_of(deep, token, qtbot)
    tree = merge_tree(deep.history, token, deep.last_step)
    assert tree.depth > FOLD_DEPTH
    folded = [(path, t) for t, path, is_folded in view.drawn() if is_folded]
    assert folded and all(len(path) == FOLD_DEPTH for path, _ in folded)
    assert max(len(path) for _, path, _ in view.drawn()) == FOLD_DEPTH
    path = folded[0][0]
    height = view.height()
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=view.box_of(path).center().toPoint())
    assert max(len(p) for _, p, _ in view.drawn()) > FOLD_DEPTH and view.height() > height
    with qtbot.waitSignal(view.token_clicked) as clicked:
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=view.box_of(()).center().toPoint())
    assert clicked.args == [token]
    assert view.tile_at(QPoint(-5, -5).toPointF()) is None


def test_the_panel_draws_the_chosen_tokens_tree_keeps_its_formula_and_grows_with_the_type(lesson, qtbot):
    session = Session(lesson)
    panel = VocabPanel(session)
    qtbot.addWidget(panel)
    panel.resize(500, 700)
    panel.show()
    session.request_step(lesson.last_step)
    session.request_token_selection("est</w>")
    assert panel.tree.text() == "est</w> = ((e + s) + t) + </w>"
    assert [t for t, _, _ in panel.tree_view.drawn()] == sorted(["est</w>", "est", "</w>", "es", "t", "e", "s"])
    assert panel.tree_area.isVisible()
    small = panel.tree_view.box_of(()).height()
    font = panel.font()
    font.setPixelSize(32)  # classroom type
    panel.setFont(font)
    assert panel.tree_view.box_of(()).height() > 1.5 * small
    # a part clicked shows its own tree; a base symbol has none to draw
    panel.tree_view.token_clicked.emit("est")
    assert session.selected_token == "est" and panel.tree.text() == "est = (e + s) + t"
    session.request_token_selection("e")
    assert not panel.tree_area.isVisible() and "base symbol" in panel.tree.text()
    qtbot.wait(1)  # the table fits its columns to the new type once the event loop turns
