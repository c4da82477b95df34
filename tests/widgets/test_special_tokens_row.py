"""The settings form's special tokens row: typed tokens become the lesson's, the engine's rules refuse
what it refuses with its own message."""

import pytest

from engine.errors import BpeLabError
from engine.algorithm.settings import Settings
from widgets.settings_form import SettingsForm


def type_in(qtbot, form, text):
    form.specials.setFocus()
    form.specials.selectAll()
    qtbot.keyClicks(form.specials, text)
    form.specials.editingFinished.emit()


def test_typed_tokens_are_asked_for_once_the_row_is_left(qtbot):
    form = SettingsForm(Settings())
    qtbot.addWidget(form)
    assert form.specials.text() == ""
    with qtbot.waitSignal(form.settings_requested) as blocker:
        type_in(qtbot, form, "<|endoftext|>  <|im_start|>")
    assert blocker.args[0].special_tokens == ("<|endoftext|>", "<|im_start|>")
    # every other setting stays as it was
    assert blocker.args[0].resolved() == Settings(special_tokens=("<|endoftext|>", "<|im_start|>")).resolved()


def test_the_row_shows_the_lessons_tokens_and_other_edits_keep_them(qtbot):
    form = SettingsForm(Settings(special_tokens=("<s>", "</s>")))
    qtbot.addWidget(form)
    assert form.specials.text() == "<s> </s>"
    with qtbot.waitSignal(form.settings_requested) as blocker:
        form.lowercase.setChecked(True)
    assert blocker.args[0].special_tokens == ("<s>", "</s>") and blocker.args[0].lowercase


@pytest.mark.parametrize("typed, settings", [
    ("</w>", Settings()),
    ("_", Settings(end_of_word="_")),
    ("<s> <s>", Settings()),
])
def test_what_the_engine_refuses_is_refused_with_its_message(qtbot, typed, settings):
    with pytest.raises(BpeLabError) as refused:
        Settings(end_of_word=settings.end_of_word, special_tokens=tuple(typed.split()))
    form = SettingsForm(settings)
    qtbot.addWidget(form)
    asked = []
    form.settings_requested.connect(asked.append)
    type_in(qtbot, form, typed)
    assert asked == [] and form.explain.text() == str(refused.value)


@pytest.mark.parametrize("tokens", [
    ("<|my token|>",),
    ("<s>", "a b  c", '"quoted"', "back\\slash", 'both " and \\ and space '),
    ("<|endoftext|>", "<|im_start|>"),
])
def test_a_token_with_a_space_is_typed_in_quotes_and_shown_the_same_way(qtbot, tokens):
    settings = Settings(special_tokens=tokens)
    form = SettingsForm(settings)
    qtbot.addWidget(form)
    shown = form.specials.text()
    # what the row shows reads back to the lesson's tokens: the user can edit it and keep them
    assert form.current().special_tokens == tokens
    form2 = SettingsForm(Settings())
    qtbot.addWidget(form2)
    with qtbot.waitSignal(form2.settings_requested) as blocker:
        type_in(qtbot, form2, shown)
    assert blocker.args[0].special_tokens == tokens


def test_a_quote_left_open_is_refused_and_nothing_is_asked(qtbot):
    form = SettingsForm(Settings())
    qtbot.addWidget(form)
    asked = []
    form.settings_requested.connect(asked.append)
    type_in(qtbot, form, '<s> "<|my token|>')
    assert asked == []
    assert "no closing quote" in form.explain.text()
