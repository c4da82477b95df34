"""The desktop entry: what it writes under a temporary XDG data folder, how it quotes, and that a
folder it cannot write is left exactly as it was."""

import configparser
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from app.cli import main
from app.desktop_entry import (
    MIME_TYPE, DesktopEntryError, Places, data_home, desktop_entry_text, install, launch_command, uninstall,
)
from resources.icons import ICON_FILE

ROOT = Path(__file__).resolve().parents[2]


def read_entry(path: Path) -> dict:
    parser = configparser.RawConfigParser(interpolation=None)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(path, encoding="utf-8")
    return dict(parser["Desktop Entry"])


def tree(folder: Path) -> set:
    return {p.relative_to(folder) for p in folder.rglob("*")}


def validate(path: Path) -> None:
    """desktop-file-validate (desktop-file-utils, which tools/setup.sh installs) prints nothing for a clean file."""
    assert shutil.which("desktop-file-validate"), "desktop-file-validate (desktop-file-utils) is needed to check the entry"
    result = subprocess.run(["desktop-file-validate", str(path)], capture_output=True, text=True)
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout


def test_install_writes_the_entry_the_icon_and_the_lesson_type(tmp_path):
    places = Places(tmp_path / "share")
    written = install(places, ["/opt/bpe-lab/bpe-lab"])

    assert written == [places.desktop_file, places.icon_file, places.mime_file]
    entry = read_entry(places.desktop_file)
    assert entry["Exec"] == "/opt/bpe-lab/bpe-lab %f"
    assert entry["TryExec"] == "/opt/bpe-lab/bpe-lab"
    assert entry["Icon"] == "bpe-lab"
    assert entry["MimeType"] == f"{MIME_TYPE};"
    assert entry["Type"] == "Application" and entry["Name"] == "BPE Lab"
    assert places.icon_file.read_bytes() == ICON_FILE.read_bytes()
    mime = ET.parse(places.mime_file).getroot()
    ns = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}
    kind = mime.find("m:mime-type", ns)
    assert kind.get("type") == MIME_TYPE
    assert kind.find("m:glob", ns).get("pattern") == "*.bpelab"
    validate(places.desktop_file)


def test_the_mime_database_learns_the_bpelab_glob(tmp_path):
    if not shutil.which("update-mime-database"):
        # the XML is still checked above; here only what the database tool makes of it
        pytest.fail("update-mime-database (shared-mime-info) is needed to check the .bpelab type")
    places = Places(tmp_path / "share")
    install(places, ["/opt/bpe-lab/bpe-lab"])
    globs = (tmp_path / "share" / "mime" / "globs2").read_text()
    assert f"{MIME_TYPE}:*.bpelab" in globs


def test_exec_quotes_a_path_with_spaces_dollars_and_percents(tmp_path):
    text = desktop_entry_text(["/home/a teacher/BPE $Lab/100%/bpe-lab"])
    path = tmp_path / "bpe-lab.desktop"
    path.write_text(text, encoding="utf-8")
    # the spec's two layers: quoting for the argument ($ escaped), then the string's own backslash and %
    assert read_entry(path)["Exec"] == '"/home/a teacher/BPE \\\\$Lab/100%%/bpe-lab" %f'
    validate(path)


def test_uninstall_removes_what_install_wrote_and_says_when_there_was_nothing(tmp_path):
    places = Places(tmp_path / "share")
    install(places, ["/opt/bpe-lab/bpe-lab"])
    assert uninstall(places) == [places.desktop_file, places.icon_file, places.mime_file]
    assert not any(p.exists() for p in places.files())
    assert uninstall(places) == []


def test_a_folder_that_cannot_be_written_fails_before_anything_changes(tmp_path):
    (tmp_path / "share").mkdir()
    (tmp_path / "share" / "applications").write_text("a file where a folder should be")
    before = tree(tmp_path)
    with pytest.raises(DesktopEntryError, match="nothing was changed"):
        install(Places(tmp_path / "share"), ["/opt/bpe-lab/bpe-lab"])
    assert tree(tmp_path) == before


def test_install_into_a_read_only_home_says_why_and_changes_nothing(tmp_path):
    home = tmp_path / "home"
    (home / ".local").mkdir(parents=True)
    before = tree(home)
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(HOME=str(home), PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "app", "--install-desktop-entry"]
    if os.geteuid() == 0:
        # root writes through permission bits: a read-only mount in a mount namespace of its own
        script = 'mount --bind "$HOME" "$HOME" && mount -o remount,bind,ro "$HOME" && exec "$@"'
        command = ["unshare", "-m", "sh", "-c", script, "sh", *command]
    else:
        home.chmod(0o555)
        (home / ".local").chmod(0o555)
    try:
        result = subprocess.run(command, env=env, capture_output=True, text=True, cwd=tmp_path)
    finally:
        home.chmod(0o755)
        (home / ".local").chmod(0o755)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "nothing was changed" in lines[0]
    assert "Read-only file system" in lines[0] or "Permission denied" in lines[0]
    assert tree(home) == before


def test_the_command_line_installs_and_removes_under_xdg_data_home(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert main(["--install-desktop-entry"]) == 0
    desktop = tmp_path / "data" / "applications" / "bpe-lab.desktop"
    assert desktop.is_file()
    assert f"wrote {desktop}" in capsys.readouterr().out
    assert main(["--uninstall-desktop-entry"]) == 0
    assert f"removed {desktop}" in capsys.readouterr().out
    assert not desktop.exists()


def test_data_home_follows_xdg_and_ignores_a_relative_value(tmp_path):
    assert data_home({"XDG_DATA_HOME": str(tmp_path), "HOME": "/home/t"}) == tmp_path
    assert data_home({"XDG_DATA_HOME": "relative/share", "HOME": "/home/t"}) == Path("/home/t/.local/share")
    assert data_home({"HOME": "/home/t"}) == Path("/home/t/.local/share")


def test_the_entry_starts_the_bundle_the_script_or_python(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "bundle" / "bpe-lab"))
    assert launch_command() == [str((tmp_path / "bundle" / "bpe-lab").resolve())]
    monkeypatch.delattr(sys, "frozen")
    script = tmp_path / "bin" / "bpe-lab"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n")
    monkeypatch.setattr(sys, "argv", [str(script)])
    assert launch_command() == [str(script.resolve())]
    monkeypatch.setattr(sys, "argv", [str(ROOT / "app" / "__main__.py")])
    assert launch_command()[1:] == ["-m", "app"]

