"""The tokenize panel's switch for typed special-token text: spelled out by default, the special token
when switched; the chips and their ids follow it."""

from app.session import Session
from engine.readable.describe import special_text_sentence
from engine.lesson.lesson import Lesson
from engine.algorithm.settings import Settings
from widgets.tokenize_panel import TokenizePanel

TEXT = "lowest<|endoftext|>newer"


def panel_for(qtbot, settings):
    session = Session(Lesson("low 5\nlower 2\nnewest 6\nwidest 3\n", word_counts=True, settings=settings))
    panel = TokenizePanel(session)
    qtbot.addWidget(panel)
    session.request_step(session.last_step)
    panel.input.setText(TEXT)
    panel.refresh()
    return session, panel


def ids_in_chips(panel) -> list[int]:
    import re

    return [int(i) for i in re.findall(r">(\d+)</sub>", panel.chips.text())]


def test_special_text_is_spelled_out_until_switched(qtbot):
    session, panel = panel_for(qtbot, Settings(special_tokens=("<|endoftext|>",)))
    tokenizer = session.lesson.tokenizer_at(session.step)
    special = tokenizer.special_ids["<|endoftext|>"]
    switch = panel.special_switch
    assert switch.choice.isEnabled() and not switch.allow_special
    assert switch.hint.toolTip() == special_text_sentence()  # the whole reason; one line shows
    spelled = tokenizer.encode(TEXT, False)
    assert ids_in_chips(panel) == list(spelled.ids) and special not in spelled.ids
    assert "<|endoftext|>" not in [token for token, _ in panel.chips_shown()]
    # spelled out, the marker text is part of the word the replay shows
    assert panel.replay.toPlainText().startswith("lowest<|endoftext|>newer: ")
    switch.set_allow_special(True)
    whole = tokenizer.encode(TEXT, True)
    assert panel.allow_special and ids_in_chips(panel) == list(whole.ids)
    assert whole.ids.count(special) == 1 and len(whole) < len(spelled)
    assert "<|endoftext|>" in [token for token, _ in panel.chips_shown()]
    # the special token stands apart: the replay shows the words on either side of it
    assert panel.replay.toPlainText().startswith("lowest: ") and "\nnewer: " in panel.replay.toPlainText()
    switch.set_allow_special(False)
    assert ids_in_chips(panel) == list(spelled.ids)


def test_with_no_special_tokens_the_switch_has_nothing_to_switch(qtbot):
    _session, panel = panel_for(qtbot, Settings())
    assert not panel.special_switch.choice.isEnabled()
    assert "no special tokens" in panel.special_switch.choice.toolTip()


def test_the_switch_says_why_in_one_line_and_the_whole_reason_on_hover(qtbot):
    from engine.readable.describe import special_text_sentence
    from widgets.special_switch import SpecialTextSwitch

    switch = SpecialTextSwitch()
    qtbot.addWidget(switch)
    assert switch.hint.text().startswith("Spelled out is the safe default")
    assert len(switch.hint.text()) < len(special_text_sentence())
    assert switch.hint.toolTip() == special_text_sentence()
    assert not switch.allow_special  # the safe default
