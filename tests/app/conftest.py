import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from app.autosave import Autosave


@pytest.fixture
def make_window(qtbot, tmp_path):
    """A main window with its settings and autosave in a temporary folder and scripted dialogs.

    ``window.answers`` is a list of buttons the next questions get (Discard when it runs out);
    ``window.asked`` and ``window.told`` record what the user would have seen.
    """
    from app.window import MainWindow

    def make(**kwargs):
        kwargs.setdefault("app_settings", QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
        kwargs.setdefault("autosave", Autosave(tmp_path / "appdata"))
        window = MainWindow(**kwargs)
        qtbot.addWidget(window)
        window.asked, window.told, window.answers = [], [], []

        def ask(title, text, buttons, default):
            window.asked.append(text)
            return window.answers.pop(0) if window.answers else QMessageBox.StandardButton.Discard

        window.ask = ask
        window.tell = window.told.append
        return window

    return make
