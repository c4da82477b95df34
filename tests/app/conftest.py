import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from app.autosave import Autosave


@pytest.fixture
def make_window(qtbot, tmp_path, monkeypatch):
    """A main window with its settings and autosave in a temporary folder and scripted dialogs.

    The views the window builds after its first paint (charts, quiz, explorer) are built only when a test
    asks for one (``window.views[title]``, choosing its tab) or passes ``build_later=True``: most tests never look at them, and
    building them for every window was a large part of the suite's time. The launch test
    (test_window_launch.py) runs a real window in its own process, timer and all.

    ``window.answers`` is a list of buttons the next questions get (Discard when it runs out);
    ``window.asked`` and ``window.told`` record what the user would have seen; ``window.crash()``
    ends the window's run as a kill would, for the next window to find its autosave.
    """
    from app.central_views import Views
    from app.window import MainWindow

    real_build_later = Views.build_later
    monkeypatch.setattr(Views, "build_later", lambda views: None)

    def make(build_later=False, **kwargs):
        kwargs.setdefault("app_settings", QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
        kwargs.setdefault("autosave", Autosave(tmp_path / "appdata"))
        window = MainWindow(**kwargs)
        if build_later:  # as the application does: built one by one once the window shows
            window.views.build_later = lambda: real_build_later(window.views)
        qtbot.addWidget(window)
        window.asked, window.told, window.answers = [], [], []

        def ask(title, text, buttons, default):
            window.asked.append(text)
            return window.answers.pop(0) if window.answers else QMessageBox.StandardButton.Discard

        window.ask = ask
        window.tell = window.told.append

        def crash() -> None:
            """What a killed run leaves: its files as they are, its locks let go."""
            window.files.autosave_timer.stop()
            if window.files.autosave is not None:
                window.files.autosave.release()

        window.crash = crash
        return window

    return make
