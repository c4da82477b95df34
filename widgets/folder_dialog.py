"""A folder chooser that also takes the name of a folder still to be made.

Qt's folder dialog refuses a typed name that does not exist yet ("Directory not found"); an export
that writes a folder (GPT-2's vocab.json + merges.txt) makes it itself, so a new name in a folder
that exists is a fine answer.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFileDialog, QLineEdit, QWidget


class FolderDialog(QFileDialog):
    def __init__(self, parent: QWidget | None, caption: str):
        super().__init__(parent, caption)
        self.setFileMode(QFileDialog.FileMode.Directory)
        self.setOption(QFileDialog.Option.ShowDirsOnly, True)
        # a system dialog would not ask this class whether to accept
        self.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        # Qt greys out Choose for a name that does not exist; this runs after Qt's own check
        name_edit = self.findChild(QLineEdit, "fileNameEdit")
        if name_edit is not None:  # Qt's own dialog has it; without it only existing folders are chosen
            name_edit.textChanged.connect(self._on_name_typed)

    def _new_folder(self) -> Path | None:
        """The folder the typed name would make, if it is a new one in a folder that exists."""
        chosen = self.selectedFiles()
        if len(chosen) != 1:
            return None
        path = Path(chosen[0])
        return path if not path.exists() and path.parent.is_dir() else None

    def _on_name_typed(self, name: str) -> None:
        buttons = self.findChild(QDialogButtonBox)
        choose = buttons.button(QDialogButtonBox.StandardButton.Open) if buttons is not None else None
        if choose is not None and name.strip() and self._new_folder() is not None:
            choose.setEnabled(True)

    def accept(self) -> None:  # noqa: D102 (Qt's hook)
        if self._new_folder() is not None:
            QDialog.accept(self)  # Qt's own would say "Directory not found"
            return
        super().accept()

    def chosen_folder(self) -> str:
        """The folder accepted, or "" when the dialog was cancelled."""
        if self.result() != QDialog.DialogCode.Accepted:
            return ""
        chosen = self.selectedFiles()
        return chosen[0] if chosen else ""


def choose_folder(parent: QWidget | None, caption: str) -> str:
    """Ask for a folder, existing or to be made; "" when cancelled."""
    dialog = FolderDialog(parent, caption)
    dialog.exec()
    return dialog.chosen_folder()
