"""A chosen radio button shows a dot in its centre, in every theme: a ring of another colour alone
does not read as chosen from the back of a room, nor in grey."""

import pytest
from PySide6.QtWidgets import QRadioButton, QStyle, QStyleOptionButton, QVBoxLayout, QWidget

from app.appearance import THEMES, palette, style_sheet
from tests.widgets.colour_difference import contrast


def indicator(button: QRadioButton):
    """The button as painted, and where its indicator is (as the style lays it out)."""
    option = QStyleOptionButton()
    button.initStyleOption(option)
    rect = button.style().subElementRect(QStyle.SubElement.SE_RadioButtonIndicator, option, button)
    return button.grab().toImage(), rect


@pytest.mark.parametrize("theme", THEMES)
def test_a_chosen_radio_button_has_a_dot_that_stands_out_from_its_ring_and_from_an_unchosen_one(qtbot, theme):
    box = QWidget()
    box.setPalette(palette(theme))
    box.setStyleSheet(style_sheet(theme, 1.0))
    layout = QVBoxLayout(box)
    chosen, other = QRadioButton("Running text"), QRadioButton("Words with counts")
    layout.addWidget(chosen)
    layout.addWidget(other)
    chosen.setChecked(True)
    qtbot.addWidget(box)
    box.show()
    qtbot.waitExposed(box)
    on_image, rect = indicator(chosen)
    off_image, _ = indicator(other)
    centre = rect.center()
    on, off = on_image.pixelColor(centre), off_image.pixelColor(centre)
    # the centre of a chosen button differs from an unchosen one's in luminance (it reads in grey)
    assert contrast(on.name(), off.name()) >= 3, (theme, on.name(), off.name())
    # and it is a dot: the centre stands out from the indicator's own inside, between dot and ring
    between = on_image.pixelColor(centre.x() - rect.width() * 3 // 10, centre.y())
    assert contrast(on.name(), between.name()) >= 3, (theme, on.name(), between.name())
