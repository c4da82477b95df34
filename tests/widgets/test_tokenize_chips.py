"""The tokenize panel's chips wrap between tokens, never inside one: ``</w>`` stays on one line."""

import pytest
from PySide6.QtGui import QTextDocument

from app.session import Session
from widgets.tokenize_panel import TokenizePanel


def line_of(document: QTextDocument, position: int) -> int:
    block = document.findBlock(position)
    layout = block.layout()
    return layout.lineForTextPosition(position - block.position()).lineNumber()


@pytest.mark.parametrize("width", [140, 180, 230, 300])
def test_no_chip_breaks_across_lines(qtbot, width):
    session = Session()
    session.request_step(0)  # before any merge every word ends in its own </w> chip
    panel = TokenizePanel(session)
    qtbot.addWidget(panel)
    panel.show()
    panel.input.setText("low lower newest widest low lower")
    panel.refresh()
    document = QTextDocument()
    document.setDefaultFont(panel.chips.font())
    document.setHtml(panel.chips.text())
    document.setTextWidth(width)
    # the letters as read (without any invisible joiner) and where each sits in the document
    at = [i for i, c in enumerate(document.toPlainText()) if c != "\u2060"]
    text = "".join(document.toPlainText()[i] for i in at)
    starts = [i for i in range(len(text)) if text.startswith("</w>", i)]
    assert len(starts) == 6
    assert document.size().height() > 2 * panel.chips.fontMetrics().height()  # the chips take several lines
    for i in starts:
        assert line_of(document, at[i]) == line_of(document, at[i + 3]), (width, i)
