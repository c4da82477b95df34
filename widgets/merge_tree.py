"""A token's merge tree drawn as tiles: the token at the top, under it the two parts its merge
joined, and so on down to base symbols, which spell the token left to right along the bottom.

``merge_tree`` builds the tree of a token at a step from the lesson's history (no Qt); ``formula``
says it as nested brackets, the text alternative kept for copying and for screen readers
(``est</w> = ((e + s) + t) + </w>``). ``MergeTreeView`` draws it in the lesson's tile colours at
the widget's type size, so it grows with the window's zoom and in classroom mode. A deep tree
(a token of a big lesson may be 30 merges deep) is drawn ``FOLD_DEPTH`` levels at a time: a part
below that shows how many merges built it, and a click opens it; the view scrolls for the rest.

Left out: how a token reads and its fill (``engine.readable.display``, ``widgets.tiles.palette``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QFont, QFontDatabase, QFontInfo, QFontMetricsF, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QFrame, QScrollArea, QSizePolicy, QWidget

from engine.lesson.history import History
from engine.readable.display import Display
from engine.readable.tile_colours import TokenColours
from widgets.tiles.palette import tile_look

# levels drawn below the token, and below each part opened, before a part is folded
FOLD_DEPTH = 6
# the formula spells out this many levels; a deeper part is named by its token
FORMULA_DEPTH = 60


@dataclass(frozen=True)
class TreeNode:
    """A token of the tree: the step whose merge made it (None for a base symbol) and its two parts."""

    token: str
    step: int | None = None
    parts: tuple["TreeNode", ...] = ()
    merges: int = 0  # merges in this part of the tree, its own included
    depth: int = 0  # levels of merges below it (0 for a base symbol)


def merge_tree(history: History, token: str, step: int) -> TreeNode:
    """The tree of ``token`` as the merges of the first ``step`` steps built it (a token no merge
    has made by then is a base symbol here). A part met twice is the same node."""
    made: dict[str, TreeNode] = {}
    todo = [token]
    while todo:
        current = todo[-1]
        if current in made:
            todo.pop()
            continue
        merge = history.made_by(current)
        if merge is None or merge.step > step:
            made[current] = TreeNode(current)
            todo.pop()
            continue
        missing = [part for part in merge.pair if part not in made]
        if missing:
            todo.extend(missing)  # the parts first, without recursion: a tree may be hundreds deep
            continue
        parts = tuple(made[part] for part in merge.pair)
        made[current] = TreeNode(current, merge.step, parts, 1 + sum(p.merges for p in parts),
                                 1 + max(p.depth for p in parts))
        todo.pop()
    return made[token]


def formula(node: TreeNode, show: Callable[[str], str], depth: int = FORMULA_DEPTH) -> str:
    """The tree as nested brackets: ``((e + s) + t) + </w>`` for est</w>; a part deeper than
    ``depth`` levels is named by its token."""

    def said(n: TreeNode, level: int) -> str:
        if not n.parts or level >= depth:
            return show(n.token)
        inner = " + ".join(said(p, level + 1) for p in n.parts)
        return f"({inner})" if level else inner

    return said(node, 0)


@dataclass
class _Placed:
    """A tile of the drawn tree: its node, its box, whether it is folded, and where its parts are."""

    node: TreeNode
    path: tuple[int, ...]
    box: QRectF
    folded: bool
    children: list["_Placed"] = field(default_factory=list)


class MergeTreeView(QWidget):
    """The merge tree of one token, drawn; put it in a scroll area for trees wider or deeper than it."""

    # a part of the tree was clicked (its token), to see that token's own tree
    token_clicked = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.tree: TreeNode | None = None
        self.display = Display()
        self._token_id: Callable[[str], int | None] = lambda token: None
        self._colouring: TokenColours | None = None
        self._opened: set[tuple[int, ...]] = set()
        self._placed: list[_Placed] = []
        self._size = QSize(0, 0)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.setMouseTracking(True)

    def set_tree(self, tree: TreeNode | None, display: Display, token_id: Callable[[str], int | None],
                 colouring: TokenColours | None, text: str) -> None:
        """Show ``tree`` (None: nothing) with the lesson's reading of tokens, ids and colours; ``text``
        is what a screen reader says of it (its formula)."""
        self.tree = tree
        self.display, self._token_id, self._colouring = display, token_id, colouring
        self._opened = set()
        self.setAccessibleName("Merge tree" if tree is None else f"Merge tree of {display.token(tree.token)}")
        self.setAccessibleDescription(text)
        self.setToolTip("" if tree is None else "Click a part to see its own tree; click a folded part to open it")
        self._lay_out()

    def open(self, path: tuple[int, ...]) -> None:
        """Unfold the part at ``path`` (0 for the left part, 1 for the right, from the top)."""
        self._opened.add(path)
        self._lay_out()

    # -- sizes, from the widget's type: the window's zoom and classroom mode set it ------------------

    def _fonts(self) -> tuple[QFont, QFont]:
        pixels = max(10, QFontInfo(self.font()).pixelSize())
        tile = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        tile.setPixelSize(round(pixels * 1.15))
        note = QFont(self.font())
        note.setPixelSize(max(9, round(pixels * 0.85)))
        return tile, note

    def sizeHint(self) -> QSize:
        return self._size

    def minimumSizeHint(self) -> QSize:
        return self._size

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() in (event.Type.FontChange, event.Type.StyleChange):
            self._lay_out()

    def _lay_out(self) -> None:
        self._placed = []
        tree = self.tree
        if tree is None:
            self._size = QSize(0, 0)
            self.updateGeometry()
            self.update()
            return
        tile_font, note_font = self._fonts()
        tm, nm = QFontMetricsF(tile_font), QFontMetricsF(note_font)
        pad, gap = tm.height() * 0.45, tm.height() * 0.5
        tile_h = tm.height() * 1.5
        level_h = tile_h + nm.height() + tm.height() * 0.9  # room for a folded part's note and the lines
        margin = gap
        x = margin

        def width(node: TreeNode, folded: bool) -> float:
            w = tm.horizontalAdvance(self.display.token(node.token)) + 2 * pad
            if folded:
                w = max(w, nm.horizontalAdvance(_folded_note(node)) + pad)
            return max(w, tile_h)

        def place(node: TreeNode, path: tuple[int, ...], level: int, shown: int) -> _Placed:
            nonlocal x
            folded = bool(node.parts) and shown >= FOLD_DEPTH and path not in self._opened
            if folded or not node.parts:
                w = width(node, folded)
                placed = _Placed(node, path, QRectF(x, margin + level * level_h, w, tile_h), folded)
                x += w + gap
            else:
                below = 0 if path in self._opened else shown + 1
                children = [place(part, path + (i,), level + 1, below) for i, part in enumerate(node.parts)]
                w = width(node, False)
                centre = (children[0].box.center().x() + children[-1].box.center().x()) / 2
                placed = _Placed(node, path, QRectF(centre - w / 2, margin + level * level_h, w, tile_h), False,
                                 children)
            self._placed.append(placed)
            return placed

        place(tree, (), 0, 0)
        # a parent wider than its parts may stick out on the left: everything moves right by as much
        left = min(p.box.left() for p in self._placed)
        if left < margin:
            for p in self._placed:
                p.box.translate(margin - left, 0)
        right = max(p.box.right() for p in self._placed) + margin
        bottom = max(p.box.bottom() for p in self._placed) + nm.height() + margin
        self._size = QSize(int(right) + 1, int(bottom) + 1)
        self.resize(self._size)
        self.updateGeometry()
        self.update()

    # -- what is drawn (also what the tests read) ----------------------------------------------------

    def drawn(self) -> list[tuple[str, tuple[int, ...], bool]]:
        """Each tile drawn: the token as it reads, its path from the top, whether it is folded."""
        return sorted((self.display.token(p.node.token), p.path, p.folded) for p in self._placed)

    def tile_at(self, point: QPointF) -> tuple[TreeNode, tuple[int, ...], bool] | None:
        for p in self._placed:
            if p.box.contains(point):
                return p.node, p.path, p.folded
        return None

    def box_of(self, path: tuple[int, ...]) -> QRectF:
        return next(p.box for p in self._placed if p.path == path)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        tile_font, note_font = self._fonts()
        text_colour = self.palette().color(self.foregroundRole())
        line = QPen(text_colour, max(1.5, QFontMetricsF(tile_font).height() / 10))
        for p in self._placed:
            painter.setPen(line)
            for child in p.children:
                painter.drawLine(QPointF(p.box.center().x(), p.box.bottom()), QPointF(child.box.center().x(), child.box.top()))
        radius = QFontMetricsF(tile_font).height() / 4
        for p in self._placed:
            token = p.node.token
            look = tile_look(self.display, token, self._token_id(token), self._colouring)
            outline = QPen(text_colour, line.widthF())
            if look.dashed or p.folded:
                outline.setStyle(Qt.PenStyle.DashLine)
            painter.setPen(outline)
            painter.setBrush(look.fill)
            painter.drawRoundedRect(p.box, radius, radius)
            painter.setFont(tile_font)
            painter.setPen(look.text)
            painter.drawText(p.box, Qt.AlignmentFlag.AlignCenter, self.display.token(token))
            if p.folded:
                painter.setFont(note_font)
                painter.setPen(text_colour)
                note = QRectF(p.box.left() - p.box.width(), p.box.bottom(), p.box.width() * 3,
                              QFontMetricsF(note_font).height() * 1.3)
                painter.drawText(note, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom, _folded_note(p.node))
        painter.end()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        found = self.tile_at(event.position())
        if found is None or event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        node, path, folded = found
        if folded:
            self.open(path)
        else:
            self.token_clicked.emit(node.token)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        found = self.tile_at(event.position())
        self.setCursor(Qt.CursorShape.PointingHandCursor if found is not None else Qt.CursorShape.ArrowCursor)
        super().mouseMoveEvent(event)


def _folded_note(node: TreeNode) -> str:
    return f"▸ built by {node.merges:,} merge{'' if node.merges == 1 else 's'}"


class MergeTreeArea(QScrollArea):
    """A ``MergeTreeView`` that scrolls: it takes what room its panel gives it and asks for little,
    so a panel in a small dock keeps its table and its buttons in view."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.view = MergeTreeView()
        self.setWidget(self.view)
        self.setWidgetResizable(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)

    def sizeHint(self) -> QSize:
        # a panel's word-wrapped labels make its dock ask for its preferred height: the tree's
        # whole height there would push the panel past a small dock
        line = QFontMetricsF(self.font()).height()
        return QSize(super().sizeHint().width(), int(min(self.view.sizeHint().height(), 2 * line)))

    def minimumSizeHint(self) -> QSize:
        return QSize(0, 0)

    def show_top(self) -> None:
        """Scroll to the top of the tree with its token in the middle (a wide tree opens on its token,
        not on its leftmost part)."""
        self.verticalScrollBar().setValue(0)
        if self.view.tree is not None:
            top = self.view.box_of(())
            self.horizontalScrollBar().setValue(int(top.center().x() - self.viewport().width() / 2))
