"""The window offers the vocabulary export from the File menu (Ctrl+E) and the vocabulary panel."""

from widgets.export_dialog import ExportDialog


def open_dialogs(window):
    return [d for d in window.findChildren(ExportDialog) if d.isVisible()]


def test_file_menu_and_shortcut_open_the_export_dialog(make_window, qtbot):
    window = make_window(persist=False)
    assert window.export_action in window.file_menu.actions()
    assert window.export_action.shortcut().toString() == "Ctrl+E"
    window.export_action.trigger()
    dialogs = open_dialogs(window)
    assert len(dialogs) == 1 and dialogs[0].session is window.session
    dialogs[0].close()


def test_the_vocabulary_panel_button_opens_it_at_the_lesson_step(make_window, qtbot):
    window = make_window(persist=False)
    window.session.request_step(3)
    window.vocab_panel.export_button.click()
    (dialog,) = open_dialogs(window)
    assert dialog.step() == 3 and "3 of" in dialog.current_button.text()
    dialog.close()
