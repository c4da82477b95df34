"""The switch for text that spells a special token: spelled out (the safe default) or the token.

The tokenize panel and the explorer each hold one; it says why the default is what it is, and is
off-limits (greyed, with the reason) when the tokenizer shown has no special tokens.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from engine.readable.describe import special_text_sentence, special_text_short
from widgets.shortest_combo import ShortestCombo
from widgets.flow import FlowLayout

SPELLED_OUT, SPECIAL = "spelled out", "becomes the special token"


class SpecialTextSwitch(QWidget):
    # True: typed special-token text becomes the special token (tiktoken's allowed_special="all")
    allow_special_changed = Signal(bool)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("specialTextSwitch")
        self.label = QLabel("Typed special-token text:")
        self.choice = ShortestCombo()
        self.choice.addItem(SPELLED_OUT, False)
        self.choice.addItem(SPECIAL, True)
        self.choice.setAccessibleName("Typed special-token text")
        self.label.setBuddy(self.choice)
        self.why = special_text_sentence()
        # one line under the switch; the whole reason in its tooltip (two switches share the window)
        self.hint = QLabel(special_text_short())
        self.hint.setToolTip(self.why)
        self.hint.setObjectName("hint")
        self.hint.setWordWrap(True)
        # on a narrow panel the choice goes under its label rather than widen the panel
        row = QWidget()
        row_layout = FlowLayout(row, gap=2)
        row_layout.addWidget(self.label)
        row_layout.addWidget(self.choice)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(row)
        layout.addWidget(self.hint)
        self.choice.currentIndexChanged.connect(lambda _i: self.allow_special_changed.emit(self.allow_special))

    @property
    def allow_special(self) -> bool:
        return bool(self.choice.currentData())

    def set_allow_special(self, on: bool) -> None:
        self.choice.setCurrentIndex(1 if on else 0)

    def set_specials(self, tokens) -> None:
        """The special tokens the tokenizer shown knows: none, and the switch has nothing to switch."""
        tokens = list(tokens)
        self.choice.setEnabled(bool(tokens))
        if tokens:
            shown = ", ".join(tokens[:4]) + (f" and {len(tokens) - 4} more" if len(tokens) > 4 else "")
            self.choice.setToolTip(f"{self.why} This tokenizer's special tokens: {shown}.")
        else:
            self.choice.setToolTip("This tokenizer has no special tokens: add some under Settings. " + self.why)
