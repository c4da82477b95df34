"""The settings form says what each split does: in the list of splits and under the form."""

from PySide6.QtCore import Qt

from engine.readable.describe import gpt4_split_sentence
from engine.algorithm.settings import Settings
from widgets.settings_form import FIRST_N, NO_MARKER_IN_BYTES, SPLIT_TIPS, SettingsForm

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


def test_bytes_say_the_marker_is_off_and_characters_bring_it_back(qtbot):
    form = SettingsForm(Settings())
    qtbot.addWidget(form)
    assert NO_MARKER_IN_BYTES not in form.explain.text()
    with qtbot.waitSignal(form.settings_requested) as blocker:
        form.units.setCurrentIndex(form.units.findData("bytes"))
    assert blocker.args[0].marker is None
    assert NO_MARKER_IN_BYTES in form.explain.text()
    assert form.marker.currentData() is None and not form.marker.isEnabled()
    with qtbot.waitSignal(form.settings_requested) as blocker:
        form.units.setCurrentIndex(form.units.findData("chars"))
    assert blocker.args[0].marker == "</w>" and form.marker.currentData() == "</w>"
    assert NO_MARKER_IN_BYTES not in form.explain.text()


def test_a_lesson_in_bytes_keeps_the_marker_chosen_for_characters(qtbot):
    form = SettingsForm(Settings(end_of_word="_"))
    qtbot.addWidget(form)
    form.show_settings(Settings(units="bytes"))
    assert form.marker.currentData() is None
    with qtbot.waitSignal(form.settings_requested) as blocker:
        form.units.setCurrentIndex(form.units.findData("chars"))
    assert blocker.args[0].marker == "_"


def test_a_lesson_with_no_stop_number_shows_none_left_from_the_one_before(qtbot):
    form = SettingsForm(Settings(merges=1000))
    qtbot.addWidget(form)
    form.show()
    assert form.stop_n.isVisible() and form.stop_n.text() == "N = 1000"
    form.show_settings(Settings())
    assert form.stop.currentData() == "repeat" and not form.stop_n.isVisible()
    with qtbot.waitSignal(form.settings_requested) as blocker:
        form.stop.setCurrentIndex(form.stop.findData("merges"))
    assert blocker.args[0].merges == FIRST_N["merges"] and form.stop_n.isVisible()
    # within a rule, N is the user's: 0 merges stays 0
    with qtbot.waitSignal(form.settings_requested) as blocker:
        form.stop_n.setValue(0)
    assert blocker.args[0].merges == 0


def test_the_form_keeps_qt_s_size_method(qtbot):
    # the stop rule's number once took the name `size`, and `form.size()` then failed for any caller
    form = SettingsForm(Settings(merges=5))
    qtbot.addWidget(form)
    form.resize(300, 200)
    assert (form.size().width(), form.size().height()) == (300, 200)


def test_the_tie_rule_combo_offers_every_rule_and_says_it_in_the_engines_words(qtbot):
    from engine.algorithm.ranking import TIE_BREAKS
    from engine.readable.describe import tie_rule

    form = SettingsForm(Settings())
    qtbot.addWidget(form)
    assert [form.tie.itemData(i) for i in range(form.tie.count())] == list(TIE_BREAKS)
    # the form opens on "first": each other rule, then back to it
    for rule in (*TIE_BREAKS[1:], TIE_BREAKS[0]):
        with qtbot.waitSignal(form.settings_requested) as blocker:
            form.tie.setCurrentIndex(form.tie.findData(rule))
        assert blocker.args[0].tie_break == rule
        assert tie_rule(Settings(tie_break=rule)) in form.explain.text()
    form.show_settings(Settings(units="bytes", tie_break="greatest"))
    assert form.tie.currentData() == "greatest" and "byte by byte" in form.explain.text()
