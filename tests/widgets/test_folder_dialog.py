"""The folder chooser of the GPT-2 export takes a typed new folder name, as well as an existing folder."""

from PySide6.QtWidgets import QDialogButtonBox, QLineEdit

from widgets.folder_dialog import FolderDialog


def typed(qtbot, folder, name: str) -> FolderDialog:
    dialog = FolderDialog(None, "Export vocabulary")
    qtbot.addWidget(dialog)
    dialog.setDirectory(str(folder))
    dialog.show()
    dialog.findChild(QLineEdit, "fileNameEdit").setText(name)
    choose = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Open)
    assert choose.isEnabled()
    choose.click()
    return dialog


def test_a_typed_new_folder_name_is_taken(qtbot, tmp_path):
    dialog = typed(qtbot, tmp_path, "gpt2-vocab")
    assert not dialog.isVisible()
    assert dialog.chosen_folder() == str(tmp_path / "gpt2-vocab")
    assert not (tmp_path / "gpt2-vocab").exists()  # the export makes it, the dialog does not


def test_an_existing_folder_is_taken(qtbot, tmp_path):
    (tmp_path / "old").mkdir()
    dialog = typed(qtbot, tmp_path, "old")
    assert not dialog.isVisible() and dialog.chosen_folder() == str(tmp_path / "old")


def test_a_new_name_under_a_missing_folder_cannot_be_chosen(qtbot, tmp_path):
    dialog = FolderDialog(None, "Export vocabulary")
    qtbot.addWidget(dialog)
    dialog.setDirectory(str(tmp_path))
    dialog.show()
    dialog.findChild(QLineEdit, "fileNameEdit").setText("missing/new")
    assert not dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Open).isEnabled()
    dialog.reject()
    assert dialog.chosen_folder() == ""
