"""The tokenize panel: any text split with the merges learned up to this step.

It shows the tokens as chips with their ids, the count, and for each word the replay of every
merge that applied. A character the vocabulary has never seen is marked, never dropped.
"""

from __future__ import annotations

import html
from urllib.parse import quote, unquote

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QLabel, QLineEdit, QPlainTextEdit, QVBoxLayout, QWidget

from engine.readable.tile_colours import colouring_of
from engine.readable.display import Display, for_tokenizer, show_text
from widgets.copy_tokens import add_copy_actions
from widgets.session_view import SessionView
from widgets.special_switch import SpecialTextSwitch
from widgets.tiles.palette import tile_look
from widgets.steady import steady

# the replay lists this many distinct words; a pasted page would bury the first ones anyway
REPLAY_WORDS = 12
MAX_CHIPS = 400
WORD_JOINER = "\u2060"


class TokenizePanel(QWidget):
    def __init__(self, session: SessionView, parent=None):
        super().__init__(parent)
        self.session = session
        self.input = QLineEdit()
        self.input.setObjectName("tokenizeInput")
        self.input.setPlaceholderText("Type a word or a sentence to split it")
        self.input.setText("lowest newer")
        self.chips = QLabel()
        self.chips.setObjectName("tokenChips")
        self.chips.setWordWrap(True)
        self.chips.setTextFormat(Qt.TextFormat.RichText)
        self.chips.linkActivated.connect(lambda href: session.request_token_selection(unquote(href)))
        add_copy_actions(self.chips, self.tokens_to_copy)
        self.summary = QLabel()
        self.summary.setObjectName("details")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)  # it names <unk>, which is no tag
        self.replay = QPlainTextEdit()
        self.replay.setObjectName("replay")
        self.replay.setReadOnly(True)
        self.replay.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self._replay_shown = ""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.input)
        self.special_switch = SpecialTextSwitch()
        layout.addWidget(self.special_switch)
        layout.addWidget(steady(self.chips))
        layout.addWidget(steady(self.summary))
        layout.addWidget(self.replay, 1)
        # typing a long text should not re-encode on every key
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(120)
        self._timer.timeout.connect(self.refresh)
        self.input.textChanged.connect(lambda _t: self._timer.start())
        self._stale = False
        self._shown_once = False
        self._chips: list[tuple[str, str]] = []
        # typed special-token text stays ordinary text unless the switch allows it (the engine's safe default)
        self.allow_special = False
        self.special_switch.allow_special_changed.connect(self._on_allow_special_changed)
        session.lesson_changed.connect(self.refresh)
        session.step_changed.connect(self.refresh)
        self.refresh()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def _on_allow_special_changed(self, on: bool) -> None:
        self.allow_special = on
        self.refresh()

    def chips_shown(self) -> list[tuple[str, str]]:
        """Each chip as drawn: the token as it reads and its fill (for tests and accessibility)."""
        return list(self._chips)

    def tokens_to_copy(self) -> tuple[list[int], list[str]]:
        """The typed text's ids and tokens (as people read them), all of them, at the lesson's step."""
        session, text = self.session, self.input.text()
        if session.state is None or not text.strip():
            return [], []
        tokenizer = session.lesson.tokenizer_at(session.step)
        encoding = tokenizer.encode(text, self.allow_special)
        return list(encoding.ids), [for_tokenizer(tokenizer).token(t) for t in encoding.tokens]

    def refresh(self, *_args) -> None:
        # a hidden panel (a closed dock, a tab behind another) catches up when it is shown again
        if not self.isVisible() and self._shown_once:
            self._stale = True
            return
        self._stale = False
        self._shown_once = self._shown_once or self.isVisible()
        session = self.session
        text = self.input.text()
        if session.state is None:
            self.chips.setText("")
            self._chips = []
            self.summary.setText(f"Nothing learned yet: {session.why_untrained}.")
            self._show_replay("")
            return
        tokenizer = session.lesson.tokenizer_at(session.step)
        self.special_switch.set_specials(tokenizer.special_ids)
        if not text.strip():
            self.chips.setText("")
            self._chips = []
            self.summary.setText("Type something above to see it split into tokens.")
            self._show_replay("")
            return
        display = for_tokenizer(tokenizer)
        encoding = tokenizer.encode(text, self.allow_special)
        muted = _muted(self.palette())
        colouring = colouring_of(session.lesson)
        chips = []
        self._chips = []
        for token_id, token in list(zip(encoding.ids, encoding.tokens))[:MAX_CHIPS]:
            # a word joiner after each slash keeps a chip such as </w> on one line: lines break between chips
            shown = html.escape(display.token(token).replace("/", "/" + WORD_JOINER))
            # the same look this token has on the tiles and in the explorer
            look = tile_look(display, token, token_id, colouring)
            self._chips.append((display.token(token), look.fill.name()))
            weight = "; font-weight:bold" if look.hatched else ""
            chips.append(
                f'<a href="{quote(token)}" style="text-decoration:none; color:{look.text.name()}">'
                f'<span style="background:{look.fill.name()}; color:{look.text.name()}{weight}">&nbsp;{shown}&nbsp;</span></a>'
                f'<sub style="color:{muted}">{token_id}</sub>'
            )
        if len(encoding) > MAX_CHIPS:
            chips.append(f"… {len(encoding) - MAX_CHIPS:,} more")
        self.chips.setText(" ".join(chips))
        unseen = [text[start:end] for i, (start, end) in zip(encoding.ids, encoding.offsets) if i == tokenizer.unknown_id]
        k = session.step
        summary = f"{len(encoding):,} token{'s' if len(encoding) != 1 else ''} after {k} merge{'s' if k != 1 else ''}"
        summary += f", from {len(text):,} characters."
        if unseen:
            chars = ", ".join(dict.fromkeys(show_text(c) for c in unseen))
            summary += (f" {len(unseen)} character{'s' if len(unseen) != 1 else ''} never seen in training"
                        f" became the unknown token {display.unknown}: {chars}.")
        self.summary.setText(summary)
        self._show_replay(self._replay(tokenizer, display, text, self.allow_special))

    def _show_replay(self, text: str) -> None:
        # most merges leave the typed words alone: the same text laid out and painted again would
        # cost as much as the rest of the step in this panel
        if text != self._replay_shown:
            self._replay_shown = text
            self.replay.setPlainText(text)

    @staticmethod
    def _replay(tokenizer, display: Display, text: str, allow_special: bool) -> str:
        show, joined = display.token, display.tokens
        lines = []
        # the words exactly as encoding cuts them (lowercase, special tokens, split)
        words = list(dict.fromkeys(tokenizer.pre_tokenize(text, allow_special)))
        for word in words[:REPLAY_WORDS]:
            base, trace = tokenizer.encode_steps(word)
            lines.append(f"{show_text(word)}: {joined(base)}")
            for step in trace:
                lines.append(f"   after {show(step.pair[0])} + {show(step.pair[1])}: {joined(step.tokens)}")
            if not trace:
                lines.append("   (no merge applies)")
        if len(words) > REPLAY_WORDS:
            lines.append(f"… and {len(words) - REPLAY_WORDS:,} more words")
        return "\n".join(lines)


def _muted(palette: QPalette) -> str:
    """Half way between the text and its ground: readable, quieter than the tokens (light or dark)."""
    text, ground = palette.color(QPalette.ColorRole.Text), palette.color(QPalette.ColorRole.Base)
    return QColor((text.red() + ground.red()) // 2, (text.green() + ground.green()) // 2,
                  (text.blue() + ground.blue()) // 2).name()
