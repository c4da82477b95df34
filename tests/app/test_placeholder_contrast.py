"""An empty field's placeholder reads as well as any other text (4.5:1 against the field's ground)
in every theme: Qt fades a style sheet's text colour to half for it unless the sheet says otherwise."""

import pytest
from PySide6.QtWidgets import QLineEdit, QVBoxLayout, QWidget

from app.appearance import THEMES, palette, style_sheet
from tests.app.painted_text import painted_contrast


@pytest.mark.parametrize("theme", THEMES)
def test_a_placeholder_keeps_normal_contrast_against_its_field(qtbot, theme):
    box = QWidget()
    box.setPalette(palette(theme))
    box.setStyleSheet(style_sheet(theme, 1.0))
    field = QLineEdit()
    field.setPlaceholderText("none: e.g. <|endoftext|>")
    QVBoxLayout(box).addWidget(field)
    qtbot.addWidget(box)
    box.resize(400, 80)
    box.show()
    qtbot.waitExposed(box)
    image = field.grab().toImage()
    assert painted_contrast(image, field.rect().adjusted(3, 3, -3, -3)) >= 4.5
