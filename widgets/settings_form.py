"""The engine's settings as a form, each with one short line saying what it changes.

The form never trains: it asks with ``settings_requested(Settings)`` and the session decides (it
retrains, restarts at step 0 and records the change for undo).
"""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.readable.describe import gpt4_split_sentence, tie_rule
from engine.errors import BpeLabError
from engine.formats.schema import MAX_COUNT
from engine.algorithm.settings import Settings
from widgets.special_text import join_specials, split_specials

SPLITS = (("whitespace", "Spaces"), ("gpt2", "GPT-2 rule"), ("gpt4", "GPT-4 rule"), ("none", "No split"))
SPLIT_TIPS = {
    "whitespace": "Words are cut at spaces; a merge never crosses a space.",
    "gpt2": "GPT-2's pattern: a space stays at the front of the next word.",
    "none": "The whole text is one sequence: merges may cross spaces.",
}
UNITS = (
    ("chars", "Characters", "Start from letters; a letter never seen becomes <unk>."),
    ("bytes", "Bytes", "Start from the 256 byte values (the text as UTF-8 bytes): nothing is ever unknown."),
)
MARKERS: tuple[tuple[str | None, str], ...] = (("</w>", "</w>"), ("_", "_"), (None, "none"))
NO_MARKER_IN_BYTES = "Bytes have no end-of-word marker: End of word is off while Units is Bytes."
STOPS = (
    # short enough for the narrowest panel; the number comes on the row below
    ("repeat", "no pair repeats"),
    ("merges", "after N merges"),
    ("vocab", "at N tokens"),
)
# the N a stop rule starts from when the lesson had none (a preset that trains until no pair repeats)
FIRST_N: dict[str, int | dict[str, int]] = {"merges": 10, "vocab": {"chars": 50, "bytes": 300}}
# each rule's name in the combo, and where it comes from (its words are the engine's: tie_rule)
TIES = (
    ("first", "pair met first", ""),
    ("hf", "smaller ids", " (Hugging Face's rule)"),
    ("greatest", "greatest pair", " (a common course rule)"),
    ("smallest", "smallest pair", ""),
    ("last", "pair met last", " (what >= in a max loop picks)"),
)


@cache
def split_tip(split: str) -> str:
    """The line that says what a split does. The GPT-4 rule's shows the engine's own split of an
    example, which needs the regex engine: it is made when first read, not with the form."""
    return gpt4_split_sentence() if split == "gpt4" else SPLIT_TIPS[split]


class SplitBox(QComboBox):
    """The split's choices, each with its line as a tooltip, given when the list first opens."""

    def showPopup(self) -> None:  # noqa: N802 (Qt's name)
        for i in range(self.count()):
            if self.itemData(i, Qt.ItemDataRole.ToolTipRole) is None:
                self.setItemData(i, split_tip(self.itemData(i)), Qt.ItemDataRole.ToolTipRole)
        super().showPopup()


class SettingsForm(QWidget):
    settings_requested = Signal(object)

    def __init__(self, settings: Settings, parent=None):
        super().__init__(parent)
        self.split = SplitBox()
        for key, text in SPLITS:
            self.split.addItem(text, key)
        self.units = QComboBox()
        for key, text, _tip in UNITS:
            self.units.addItem(text, key)
        self.marker = QComboBox()
        for marker, text in MARKERS:
            self.marker.addItem(text, marker)
        self.lowercase = QCheckBox("lowercase first")
        self.min_frequency = QSpinBox()
        # every value a lesson file may hold shows as it is, never clamped into another
        self.min_frequency.setRange(1, MAX_COUNT)
        self.stop = QComboBox()
        for key, text in STOPS:
            self.stop.addItem(text, key)
        self.stop_n = QSpinBox()
        self.stop_n.setRange(0, MAX_COUNT)
        self.stop_n.setSingleStep(10)
        self.tie = QComboBox()
        for key, text, _tip in TIES:
            self.tie.addItem(text, key)
        self.specials = QLineEdit()
        self.specials.setObjectName("specialTokens")
        self.specials.setPlaceholderText("none (e.g. <|endoftext|>)")
        self.specials.setAccessibleName("Special tokens")
        for combo in (self.split, self.units, self.marker, self.stop, self.tie):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(6)
        self.explain = QLabel()
        self.explain.setObjectName("hint")
        self.explain.setWordWrap(True)

        form = QFormLayout()
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        form.addRow("Split", self.split)
        form.addRow("Units", self.units)
        form.addRow("End of word", self.marker)
        form.addRow("", self.lowercase)
        form.addRow("Min count", self.min_frequency)
        # the stop rule on a row of its own and its number under it: a narrow panel shows both whole
        form.addRow("Stop", self.stop)
        self.stop_n.setPrefix("N = ")
        form.addRow("", self.stop_n)
        self._form = form
        form.addRow("Ties", self.tie)
        form.addRow("Special", self.specials)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(form)
        layout.addWidget(self.explain)

        self.split.setToolTip("How the text is cut into words before any merge")
        self.units.setToolTip("What a word starts as: characters or UTF-8 bytes")
        self.marker.setToolTip("A symbol added at the end of each word, so 'est' at the end differs from 'est' inside")
        self.lowercase.setToolTip("Treat 'The' and 'the' as the same word")
        self.min_frequency.setToolTip("Stop when the best pair occurs fewer times than this (2: until no pair repeats)")
        self.stop.setToolTip("When training stops: when no pair occurs twice, after N merges, or when the "
                             "vocabulary holds N tokens")
        self.stop_n.setToolTip("N: the number of merges, or the vocabulary size, to stop at")
        self.tie.setToolTip("Which pair wins when several have the same count")
        self.specials.setToolTip("Special tokens, separated by spaces (put one that holds a space in double "
                                 "quotes): each gets an id of its own and is never merged (Return to apply)")

        self._settings = settings
        # the marker chosen for characters, shown again when Units goes back from bytes to characters
        self._chars_marker: str | None = settings.marker if settings.units == "chars" else "</w>"
        self.show_settings(settings)
        for combo in (self.split, self.units, self.marker, self.stop, self.tie):
            combo.currentIndexChanged.connect(self._on_edited)
        self.lowercase.toggled.connect(self._on_edited)
        self.min_frequency.valueChanged.connect(self._on_edited)
        self.stop_n.valueChanged.connect(self._on_edited)
        # typed tokens apply when the row is left or Return pressed, not at every key
        self.specials.editingFinished.connect(self._on_edited)

    def show_settings(self, s: Settings) -> None:
        """Show settings without announcing an edit (a new lesson, an undo)."""
        self._settings = s
        widgets = (self.split, self.units, self.marker, self.lowercase, self.min_frequency, self.stop, self.stop_n,
                   self.tie, self.specials)
        for w in widgets:
            w.blockSignals(True)
        self.split.setCurrentIndex(self.split.findData(s.split))
        self.units.setCurrentIndex(self.units.findData(s.units))
        marker = s.marker if s.units == "chars" else self._chars_marker
        i = self.marker.findData(marker)
        # "none" is always listed: only a marker spelled by a lesson file can be missing
        if i < 0 and marker is not None:
            self.marker.addItem(marker, marker)
            i = self.marker.count() - 1
        self.marker.setCurrentIndex(i)
        if s.units == "chars":
            self._chars_marker = marker
        self.lowercase.setChecked(s.lowercase)
        self.min_frequency.setValue(s.min_frequency)
        if s.merges is not None:
            self.stop.setCurrentIndex(1)
            self.stop_n.setValue(s.merges)
        elif s.vocab_size is not None:
            self.stop.setCurrentIndex(2)
            self.stop_n.setValue(s.vocab_size)
        else:
            self.stop.setCurrentIndex(0)
            # no N of an earlier lesson stays behind to be taken for this one's
            self.stop_n.setValue(0)
        self.tie.setCurrentIndex(self.tie.findData(s.tie_break))
        self.specials.setText(join_specials(s.special_tokens))
        for w in widgets:
            w.blockSignals(False)
        self._update_enabled()
        self._explain()

    def _update_enabled(self) -> None:
        # a marker only makes sense for character units: bytes keep the space in the next word
        chars = self.units.currentData() == "chars"
        if self.marker.isEnabled():
            self._chars_marker = self.marker.currentData()
        # with bytes the row shows what the lesson has, no marker, not the choice kept for characters
        self.marker.blockSignals(True)
        self.marker.setCurrentIndex(self.marker.findData(self._chars_marker if chars else None))
        self.marker.blockSignals(False)
        self.marker.setEnabled(chars)
        self.stop_n.setEnabled(self.stop.currentData() != "repeat")
        self._form.setRowVisible(self.stop_n, self.stop.currentData() != "repeat")

    def _explain(self) -> None:
        split = split_tip(self.split.currentData())
        units = UNITS[self.units.currentIndex()][2]
        key, _text, origin = TIES[self.tie.currentIndex()]
        tie = f"Equal counts go to {tie_rule(Settings(units=self.units.currentData(), tie_break=key))}{origin}."
        marker = f" {NO_MARKER_IN_BYTES}" if self.units.currentData() == "bytes" else ""
        self.explain.setText(f"{split} {units}{marker} {tie}")

    def current(self) -> Settings:
        stop = self.stop.currentData()
        size = self.stop_n.value()
        units = self.units.currentData()
        marker = self.marker.currentData() if units == "chars" else None
        return Settings(
            split=self.split.currentData(),
            units=units,
            end_of_word=marker,
            lowercase=self.lowercase.isChecked(),
            min_frequency=self.min_frequency.value(),
            merges=size if stop == "merges" else None,
            vocab_size=max(1, size) if stop == "vocab" else None,
            special_tokens=split_specials(self.specials.text()),
            tie_break=self.tie.currentData(),
        )

    def _on_edited(self, *_args) -> None:
        stop = self.stop.currentData()
        if stop != "repeat" and (self.stop_n.value() == 0 and (stop == "vocab" or self._settings.merges is None)):
            first = FIRST_N[stop]
            self.stop_n.blockSignals(True)
            self.stop_n.setValue(first if isinstance(first, int) else first[self.units.currentData()])
            self.stop_n.blockSignals(False)
        self._update_enabled()
        self._explain()
        try:
            settings = self.current()
        except BpeLabError as exc:
            self.explain.setText(str(exc))
            return
        if settings.resolved() != self._settings.resolved():
            self._settings = settings
            self.settings_requested.emit(settings)
