"""Answer editors, one per question kind. Each collects an answer with mouse or keyboard alone.

Every editor has ``answer()`` (the shape ``engine.quiz.grade`` takes), ``set_locked(bool)`` once
the answer is checked, ``show_parts(parts)`` to mark what was right, and ``submitted`` (Return
pressed: the panel checks, or moves on). Keys: digits pick options; in an order list Alt+Up and
Alt+Down (or Ctrl+Up/Down) move the selected item, and items can also be dragged.
"""

from __future__ import annotations

import random
import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from engine.quiz.packs import GAP
from engine.quiz.questions import ChooseQuestion, FillQuestion, NumberQuestion, OrderQuestion, Question
from widgets.quiz.text import Markdown, markdown_text

RIGHT_MARK = "✔"
WRONG_MARK = "✘"


def plain(text: str) -> str:
    """Option text without Markdown code marks (buttons show plain text)."""
    return text.replace("`", "")


class ClickLabel(QLabel):
    """An option's text: clicking it picks the option, as clicking its button does."""

    clicked = Signal()

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit()
        super().mousePressEvent(event)


class AnswerEditor(QWidget):
    submitted = Signal()

    def answer(self):
        raise NotImplementedError

    locked = False

    def set_locked(self, locked: bool) -> None:
        # locked parts stay enabled: greyed-out text would be hard to read from the back of a room
        self.locked = locked
        for edit in self.findChildren(QLineEdit):
            edit.setReadOnly(locked)
        for button in self.findChildren(QAbstractButton):
            if isinstance(button, QPushButton):
                button.setEnabled(not locked)
            else:
                button.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, locked)
                button.setFocusPolicy(Qt.FocusPolicy.NoFocus if locked else Qt.FocusPolicy.StrongFocus)
        for view in self.findChildren(OrderList):
            view.locked = locked
            view.setDragDropMode(QAbstractItemView.DragDropMode.NoDragDrop if locked
                                 else QAbstractItemView.DragDropMode.InternalMove)

    def show_parts(self, parts) -> None:
        """Mark each part right or wrong after checking (not every kind has parts)."""

    def numbered_options(self) -> int:
        """How many options the digit keys pick from (none for most kinds)."""
        return 0

    def pick_number(self, n: int) -> bool:
        """The digit key ``n`` (from 1) was pressed: pick option n, if this kind has numbered options."""
        return False

    def focus_first(self) -> None:
        self.setFocus()


class NumberEditor(AnswerEditor):
    def __init__(self, question: NumberQuestion, parent=None):
        super().__init__(parent)
        self.edit = QLineEdit()
        self.edit.setPlaceholderText("type a number")
        self.edit.setAccessibleName("Your answer")
        self.edit.setMaximumWidth(360)
        self.edit.returnPressed.connect(self.submitted)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel("Answer:"))
        row.addWidget(self.edit)
        row.addStretch(1)

    def answer(self):
        return self.edit.text()

    def focus_first(self) -> None:
        self.edit.setFocus()


class ChooseEditor(AnswerEditor):
    """Radio buttons (choose one) or check boxes (choose many), numbered for the keyboard."""

    def __init__(self, question: ChooseQuestion, parent=None):
        super().__init__(parent)
        self.multiple = question.multiple
        self.texts = [plain(o.text) for o in question.options]
        self.group = QButtonGroup(self)
        self.group.setExclusive(not self.multiple)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        if self.multiple:
            note = QLabel("Choose every option that is right (keys 1–9 toggle).")
            note.setObjectName("note")
            note.setWordWrap(True)
            layout.addWidget(note)
        self.buttons: list[QAbstractButton] = []
        self.labels: list[QLabel] = []
        grid = QGridLayout()
        grid.setColumnStretch(1, 1)
        for i, text in enumerate(self.texts):
            # the button carries the number and the mark; a label beside it wraps long options
            button = QCheckBox(f"{i + 1}.") if self.multiple else QRadioButton(f"{i + 1}.")
            button.setAccessibleName(text)
            label = ClickLabel(text)
            label.setWordWrap(True)
            label.setObjectName("option")
            label.clicked.connect(lambda i=i: self._press(i))
            self.group.addButton(button, i)
            self.buttons.append(button)
            self.labels.append(label)
            grid.addWidget(button, i, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(label, i, 1)
        layout.addLayout(grid)

    def numbered_options(self) -> int:
        return min(9, len(self.buttons))

    def pick_number(self, n: int) -> bool:
        if not 1 <= n <= len(self.buttons):
            return False
        self._press(n - 1)
        return True

    def _press(self, i: int) -> None:
        button = self.buttons[i]
        if self.locked:
            return
        if self.multiple:
            button.toggle()
        else:
            button.setChecked(True)
        button.setFocus()

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.submitted.emit()
            return
        super().keyPressEvent(event)

    def answer(self):
        return [i for i, b in enumerate(self.buttons) if b.isChecked()]

    def focus_first(self) -> None:
        checked = [b for b in self.buttons if b.isChecked()]
        (checked or self.buttons)[0].setFocus()

    def show_parts(self, parts) -> None:
        # parts[i] is whether option i was treated rightly; mark right options and wrong choices
        for i, button in enumerate(self.buttons):
            chosen = button.isChecked()
            ok = parts[i] if i < len(parts) else True
            right_option = ok == chosen
            if right_option:
                button.setText(f"{RIGHT_MARK} {i + 1}.")
                self.labels[i].setText(self.texts[i] + ("" if chosen else "   (missed)"))
            elif chosen:
                button.setText(f"{WRONG_MARK} {i + 1}.")


class FillEditor(AnswerEditor):
    """The text with its gaps numbered, then one field per gap."""

    def __init__(self, question: FillQuestion, parent=None, markdown: Markdown = markdown_text):
        super().__init__(parent)
        shown = GAP.sub(lambda m: f" **[ {m.group(1)} ]** ", question.text)
        text = QLabel(markdown(re.sub(r"  +", " ", shown)))
        text.setTextFormat(Qt.TextFormat.MarkdownText)
        text.setWordWrap(True)
        text.setObjectName("fillText")
        form = QFormLayout()
        self.edits: list[QLineEdit] = []
        self.labels: list[QLabel] = []
        for i in range(len(question.blanks)):
            edit = QLineEdit()
            edit.setPlaceholderText(f"gap {i + 1}")
            edit.setAccessibleName(f"Gap {i + 1}")
            edit.setMaximumWidth(420)
            label = QLabel(f"Gap {i + 1}:")
            self.labels.append(label)
            form.addRow(label, edit)
            self.edits.append(edit)
            edit.returnPressed.connect(lambda i=i: self._next(i))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(text)
        layout.addLayout(form)

    def _next(self, i: int) -> None:
        if i + 1 < len(self.edits) and not self.edits[i + 1].text().strip():
            self.edits[i + 1].setFocus()
        else:
            self.submitted.emit()

    def answer(self):
        return [e.text() for e in self.edits]

    def focus_first(self) -> None:
        self.edits[0].setFocus()

    def show_parts(self, parts) -> None:
        for label, ok, i in zip(self.labels, parts, range(len(parts))):
            label.setText(f"{RIGHT_MARK if ok else WRONG_MARK} Gap {i + 1}:")


class OrderList(QListWidget):
    """A list reordered by dragging, or by Alt/Ctrl + Up/Down on the selected item."""

    moved = Signal()
    locked = False

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWordWrap(True)
        self.setResizeMode(QListWidget.ResizeMode.Adjust)

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.ignore()  # the editor above checks the answer
            return
        mods = event.modifiers()
        if mods & (Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ControlModifier):
            if event.key() == Qt.Key.Key_Up:
                self.move_current(-1)
                return
            if event.key() == Qt.Key.Key_Down:
                self.move_current(1)
                return
        super().keyPressEvent(event)

    def move_current(self, delta: int) -> None:
        row = self.currentRow()
        target = row + delta
        if row < 0 or not 0 <= target < self.count() or self.locked:
            return
        item = self.takeItem(row)
        self.insertItem(target, item)
        self.setCurrentRow(target)
        self.moved.emit()

    def dropEvent(self, event) -> None:
        super().dropEvent(event)
        self.moved.emit()


def shown_order(question: OrderQuestion, seed: int = 0) -> list[int]:
    """The items' indices in the order the editor first lists them (a class vote lists them so too)."""
    order = list(range(len(question.items)))
    rng = random.Random(f"{question.id}:{seed}")
    # a shuffle that leaves everything in place would give the answer away
    while order == sorted(order) and len(order) > 1:
        rng.shuffle(order)
    return order


class OrderEditor(AnswerEditor):
    def __init__(self, question: OrderQuestion, parent=None, seed: int = 0):
        super().__init__(parent)
        self.items = list(question.items)
        order = shown_order(question, seed)
        note = QLabel("Drag the items, or select one and press Alt+↑ / Alt+↓ to move it.")
        note.setObjectName("note")
        note.setWordWrap(True)
        self.list = OrderList()
        for i in order:
            self.list.addItem(plain(self.items[i]))
            self.list.item(self.list.count() - 1).setData(Qt.ItemDataRole.UserRole, i)
        self.list.setCurrentRow(0)
        self.list.moved.connect(self._fit)
        up, down = QPushButton("Move up"), QPushButton("Move down")
        up.clicked.connect(lambda: self._move(-1))
        down.clicked.connect(lambda: self._move(1))
        buttons = QVBoxLayout()
        buttons.addWidget(up)
        buttons.addWidget(down)
        buttons.addStretch(1)
        row = QHBoxLayout()
        row.addWidget(self.list, 1)
        row.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(note)
        layout.addLayout(row)
        self._fit()

    def _move(self, delta: int) -> None:
        self.list.move_current(delta)
        self.list.setFocus()  # the keys move it on from here

    def _fit(self) -> None:
        # show every item at once: no scrolling while a class watches
        rows = sum(self.list.sizeHintForRow(i) for i in range(self.list.count()))
        self.list.setFixedHeight(rows + 2 * self.list.frameWidth() + 8)

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() in (event.Type.FontChange, event.Type.StyleChange):
            self._fit()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()  # wrapped items grow taller as the list narrows

    def answer(self):
        return [self.list.item(r).data(Qt.ItemDataRole.UserRole) for r in range(self.list.count())]

    def focus_first(self) -> None:
        self.list.setFocus()

    def show_parts(self, parts) -> None:
        for r, ok in enumerate(parts):
            item = self.list.item(r)
            item.setText(f"{RIGHT_MARK if ok else WRONG_MARK} {plain(self.items[item.data(Qt.ItemDataRole.UserRole)])}")

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.submitted.emit()
            return
        super().keyPressEvent(event)


def editor_for(question: Question, seed: int = 0, markdown: Markdown = markdown_text) -> AnswerEditor:
    """The editor for a question; ``markdown`` renders its text (with the pack's images)."""
    if isinstance(question, NumberQuestion):
        return NumberEditor(question)
    if isinstance(question, ChooseQuestion):
        return ChooseEditor(question)
    if isinstance(question, FillQuestion):
        return FillEditor(question, markdown=markdown)
    if isinstance(question, OrderQuestion):
        return OrderEditor(question, seed=seed)
    raise TypeError(f"no editor for {type(question).__name__}")
