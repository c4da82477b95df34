"""The tokenize panel: any text split with the merges learned up to this step.

It shows the tokens as chips with their ids, the count, and for each word the replay of every
merge that applied. A character the vocabulary has never seen is marked, never dropped.
"""

from __future__ import annotations

import html
from urllib.parse import quote, unquote

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QLineEdit, QPlainTextEdit, QVBoxLayout, QWidget

from engine.bytelevel import visible_whitespace
from engine.pretokenize import split_words
from widgets.colors import tile_colors
from widgets.tiles.palette import tile_look
from widgets.steady import steady

# the replay lists this many distinct words; a pasted page would bury the first ones anyway
REPLAY_WORDS = 12
MAX_CHIPS = 400


class TokenizePanel(QWidget):
    def __init__(self, session, parent=None):
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
        self.summary = QLabel()
        self.summary.setObjectName("details")
        self.summary.setWordWrap(True)
        self.replay = QPlainTextEdit()
        self.replay.setObjectName("replay")
        self.replay.setReadOnly(True)
        self.replay.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.input)
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
        session.lesson_changed.connect(self.refresh)
        session.step_changed.connect(self.refresh)
        self.refresh()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if self._stale:
            self.refresh()

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
            self.summary.setText("Nothing learned yet: the corpus is empty.")
            self.replay.setPlainText("")
            return
        if not text.strip():
            self.chips.setText("")
            self.summary.setText("Type something above to see it split into tokens.")
            self.replay.setPlainText("")
            return
        tokenizer = session.lesson.tokenizer_at(session.step)
        encoding = tokenizer.encode(text)
        colors = tile_colors(self.palette())
        unknown = tokenizer.unknown_id
        chips = []
        for token_id, token, (start, end) in list(zip(encoding.ids, encoding.tokens, encoding.offsets))[:MAX_CHIPS]:
            if token_id == unknown:
                shown = html.escape(text[start:end] or "?")
                chips.append(
                    f'<span style="background:{colors.unknown_fill.name()}; color:{colors.unknown_border.name()};'
                    f' font-weight:bold"> ?{shown}? </span><sub>{token_id}</sub>'
                )
                continue
            shown = html.escape(session.show(token))
            # the same colour this token has on the tiles and in the explorer
            look = tile_look(token, tokenizer.settings.marker, tokenizer.settings.units, None, token_id)
            chips.append(
                f'<a href="{quote(token)}" style="text-decoration:none; color:{look.text.name()}">'
                f'<span style="background:{look.fill.name()}; color:{look.text.name()}">&nbsp;{shown}&nbsp;</span></a>'
                f'<sub style="color:{colors.muted.name()}">{token_id}</sub>'
            )
        if len(encoding) > MAX_CHIPS:
            chips.append(f"… {len(encoding) - MAX_CHIPS:,} more")
        self.chips.setText(" ".join(chips))
        unknowns = sum(1 for i in encoding.ids if i == unknown)
        k = session.step
        summary = f"{len(encoding):,} token{'s' if len(encoding) != 1 else ''} after {k} merge{'s' if k != 1 else ''}"
        summary += f", from {len(text):,} characters."
        if unknowns:
            summary += (f" {unknowns} character{'s' if unknowns != 1 else ''} never seen in training"
                        " became the unknown token (marked ?x?).")
        self.summary.setText(summary)
        self.replay.setPlainText(self._replay(tokenizer, text))

    def _replay(self, tokenizer, text: str) -> str:
        show = self.session.show
        settings = tokenizer.settings

        def joined(tokens) -> str:
            return " | ".join(show(t) for t in tokens)

        lines = []
        words = list(dict.fromkeys(split_words(text.lower() if settings.lowercase else text, settings.split)))
        for word in words[:REPLAY_WORDS]:
            base, trace = tokenizer.encode_steps(word)
            lines.append(f"{visible_whitespace(word)}: {joined(base)}")
            for step in trace:
                lines.append(f"   after {show(step.pair[0])} + {show(step.pair[1])}: {joined(step.tokens)}")
            if not trace:
                lines.append("   (no merge applies)")
        if len(words) > REPLAY_WORDS:
            lines.append(f"… and {len(words) - REPLAY_WORDS:,} more words")
        return "\n".join(lines)
