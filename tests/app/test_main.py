"""Starting the window: the platform check says in one line what is wrong and how to fix it, Qt's
own fatal start-up errors end the same way (never an abort), and the application carries its icon."""

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from app.about import app_icon
from app.main import platform_problem, window_arguments

# fresh processes that start the window: .ci/run runs them, the quick part leaves them out
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def run_python(args, env_changes, tmp_path, drop=("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"), timeout=120):
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(PYTHONPATH=str(ROOT), HOME=str(tmp_path), **env_changes)
    for key in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        env.pop(key, None)
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, cwd=tmp_path, timeout=timeout)


def test_no_display_at_all_names_the_fix():
    problem = platform_problem({})
    assert "DISPLAY is not set" in problem and "xvfb-run -a bpe-lab" in problem


def test_a_display_that_cannot_be_opened_names_the_fix():
    problem = platform_problem({"DISPLAY": ":987"})
    assert problem.startswith("cannot open the display :987") and "xvfb-run -a bpe-lab" in problem
    assert "not a display name" in platform_problem({"DISPLAY": "nonsense"})


def test_a_display_that_listens_is_accepted(tmp_path):
    path = tmp_path / "X0"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        server.listen(1)
        assert platform_problem({"DISPLAY": f"{path}:0"}) is None


def test_a_platform_named_wrong_or_missing_says_which():
    assert platform_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
    assert platform_problem({"QT_QPA_PLATFORM": "offscreen:fontengine=freetype"}) is None
    assert "QT_QPA_PLATFORM=nosuch names no Qt platform plugin" in platform_problem({"QT_QPA_PLATFORM": "nosuch"})


def test_a_plugin_gone_from_the_installation_says_to_reinstall(monkeypatch):
    import app.main

    monkeypatch.setattr(app.main, "_plugin_present", lambda name: False)
    for env in ({"DISPLAY": ":0"}, {"QT_QPA_PLATFORM": "offscreen"}):
        problem = platform_problem(env)
        assert "is missing: the installation is damaged" in problem and "install.sh" in problem


def test_the_window_command_gives_one_line_and_status_2_without_a_display(tmp_path):
    result = run_python(["-m", "app"], {"DISPLAY": ":987"}, tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("bpe-lab: cannot open the display :987")


def test_a_fatal_qt_start_ends_with_one_line_not_an_abort(tmp_path):
    # past the platform check (as when a plugin's own libraries are missing): Qt's fatal message
    code = "from app.main import _FatalQtStart, make_application\nwith _FatalQtStart():\n    make_application()\n"
    result = run_python(["-c", code], {"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":987"}, tmp_path)
    assert result.returncode == 2 != -signal.SIGABRT
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bpe-lab: Qt could not start the window (")
    assert "QT_DEBUG_PLUGINS=1" in lines[0]


def test_the_window_opens_and_closes_itself_and_keeps_its_settings_in_the_users_folders(tmp_path):
    result = run_python(["-m", "app", "--close-after", "0.5"], {"QT_QPA_PLATFORM": "offscreen"}, tmp_path)
    assert result.returncode == 0, result.stderr
    # QSettings under the user's config folder; nothing in the folder it was started from
    assert (tmp_path / ".config" / "BPE Lab" / "BPE Lab.conf").is_file()
    assert {p.name for p in tmp_path.iterdir()} <= {".config", ".local", ".cache"}


@pytest.mark.parametrize("name, content, status, words", [
    # the message box saying why the lesson did not open: said on stderr, and the run fails
    ("bad.bpelab", '{"format": "nope"', 2, "not valid JSON"),
    ("pipe.bpelab", None, 2, "named pipe"),
    # a text opens as an unsaved lesson: closing asks whether to save it, and that question goes too
    ("words.txt", "low low lower newest\n", 0, None),
])
def test_close_after_ends_the_run_whatever_dialog_is_open(tmp_path, name, content, status, words):
    path = tmp_path / name
    if content is None:
        os.mkfifo(path)
    else:
        path.write_text(content, encoding="utf-8")
    # a dialog that held the run open would end the test at the timeout, not hang it
    result = run_python(["-m", "app", "--close-after", "0.5", str(path)], {"QT_QPA_PLATFORM": "offscreen"}, tmp_path,
                        timeout=60)
    assert result.returncode == status, result.stderr
    ours = [line for line in result.stderr.splitlines() if line.startswith("bpe-lab: ")]
    if words is None:
        assert ours == []
    else:
        assert len(ours) == 1 and str(path) in ours[0] and words in ours[0], result.stderr
    assert "Traceback" not in result.stderr and "did not close" not in result.stderr


def test_window_arguments_take_a_file_and_a_close_time():
    args, rest = window_arguments(["lesson.bpelab", "--close-after", "2.5", "-style", "fusion"])
    assert args.path == "lesson.bpelab" and args.close_after == 2.5
    assert rest == ["-style", "fusion"]


def test_the_application_is_named_for_the_desktop_entry_and_carries_the_icon(tmp_path):
    # in a process of its own: restyling the test run's shared application would repolish every widget
    code = ("from app.main import make_application\n"
            "app = make_application()\n"
            "print(app.desktopFileName(), app.windowIcon().isNull())\n")
    result = run_python(["-c", code], {"QT_QPA_PLATFORM": "offscreen"}, tmp_path)
    assert result.stdout.split() == ["bpe-lab", "False"], result.stderr


def test_the_icon_draws_in_several_colours(qapp):
    image = app_icon().pixmap(64, 64).toImage().convertToFormat(QImage.Format.Format_RGB32)
    colours = {image.pixel(x, y) for x in range(64) for y in range(64)}
    assert len(colours) >= 4  # the SVG renders: not a blank or missing-icon square
