"""Special tokens added in the window's settings row: the lesson gets them, Edit > Undo takes them
back."""

from engine.algorithm.settings import Settings


def test_special_tokens_typed_in_settings_are_an_undo_step(make_window, qtbot):
    window = make_window()
    session, form = window.session, window.corpus_panel.settings_form
    form.specials.setText("<|endoftext|> <|im_end|>")
    form.specials.editingFinished.emit()
    lesson = session.lesson
    assert lesson.settings.special_tokens == ("<|endoftext|>", "<|im_end|>")
    assert set(lesson.tokenizer.special_ids) == {"<|endoftext|>", "<|im_end|>"}
    assert session.undo_stack.undoText() == "Change the special tokens"
    session.undo_stack.undo()
    assert session.lesson.settings.special_tokens == () and session.lesson.tokenizer.special_ids == {}
    # the form follows the undo, as for every other setting
    assert form.specials.text() == ""
    session.undo_stack.redo()
    assert form.specials.text() == "<|endoftext|> <|im_end|>"


def test_another_setting_changed_with_them_is_named_as_a_settings_change(make_window):
    window = make_window()
    session = window.session
    session.request_settings(Settings(lowercase=True, special_tokens=("<s>",)))
    assert session.undo_stack.undoText() == "Change the settings"
