"""The settings form says what each split does: in the list of splits and under the form."""

from PySide6.QtCore import Qt

from engine.describe import gpt4_split_sentence
from engine.settings import Settings
from widgets.settings_form import SPLIT_TIPS, SettingsForm

TIP = Qt.ItemDataRole.ToolTipRole


def test_opening_the_list_of_splits_gives_each_its_line(qtbot):
    form = SettingsForm(Settings())
    qtbot.addWidget(form)
    form.show()
    form.split.showPopup()
    tips = {form.split.itemData(i): form.split.itemData(i, TIP) for i in range(form.split.count())}
    form.split.hidePopup()
    assert tips == {**SPLIT_TIPS, "gpt4": gpt4_split_sentence()}
    assert "123" in tips["gpt4"]  # the engine's own split of an example, worked out when first read


def test_the_line_under_the_form_follows_the_split_chosen(qtbot):
    form = SettingsForm(Settings())
    qtbot.addWidget(form)
    assert form.explain.text().startswith(SPLIT_TIPS["whitespace"])
    form.show_settings(Settings(split="gpt4"))
    assert form.explain.text().startswith(gpt4_split_sentence())
