"""BPE Lab in the application menu: a freedesktop entry, its icon, and ``.bpelab`` lessons opening in it.

``bpe-lab --install-desktop-entry`` writes three files under the user's XDG data folder
(``$XDG_DATA_HOME``, by default ``~/.local/share``), never anywhere else:

- ``applications/bpe-lab.desktop``: the menu entry, starting this very ``bpe-lab`` (the bundle's
  executable, or the ``bpe-lab`` script of the environment it was installed into);
- ``icons/hicolor/scalable/apps/bpe-lab.svg``: the icon;
- ``mime/packages/bpe-lab.xml``: the ``.bpelab`` file type, so a double-click opens a lesson.

Either all three are written or none: every folder is tried before anything is written, and the
files are written beside their places first and moved in only when all of them could be.
``--uninstall-desktop-entry`` removes the three. The desktop's caches are refreshed with
``update-mime-database`` and ``update-desktop-database`` where those exist (menus pick the entry up
without them too, a little later).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from engine.errors import BpeLabError
from engine.files.writing import write_files
from resources.icons import ICON_FILE, ICON_NAME

APP_ID = "bpe-lab"
MIME_TYPE = "application/x-bpelab"

MIME_XML = f"""<?xml version="1.0" encoding="UTF-8"?>
<mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
  <mime-type type="{MIME_TYPE}">
    <comment>BPE Lab lesson</comment>
    <sub-class-of type="application/json"/>
    <generic-icon name="{ICON_NAME}"/>
    <glob pattern="*.bpelab"/>
  </mime-type>
</mime-info>
"""

# characters that make a desktop entry's Exec argument need quotes (the Desktop Entry spec's list)
_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


class DesktopEntryError(BpeLabError):
    """The desktop entry could not be written or removed; nothing was changed."""


@dataclass(frozen=True)
class Places:
    """Where the three files go under one XDG data folder."""

    data_home: Path

    @property
    def desktop_file(self) -> Path:
        return self.data_home / "applications" / f"{APP_ID}.desktop"

    @property
    def icon_file(self) -> Path:
        return self.data_home / "icons" / "hicolor" / "scalable" / "apps" / f"{ICON_NAME}.svg"

    @property
    def mime_file(self) -> Path:
        return self.data_home / "mime" / "packages" / f"{APP_ID}.xml"

    def files(self) -> tuple[Path, Path, Path]:
        return self.desktop_file, self.icon_file, self.mime_file


def data_home(environ: Mapping[str, str] = os.environ) -> Path:
    """``$XDG_DATA_HOME`` when it is an absolute path (the spec ignores a relative one), else ``~/.local/share``."""
    value = environ.get("XDG_DATA_HOME", "")
    if value and os.path.isabs(value):
        return Path(value)
    return Path(environ.get("HOME") or Path.home()) / ".local" / "share"


def launch_command() -> list[str]:
    """The command that starts this BPE Lab: the bundle's executable, the ``bpe-lab`` script, or Python."""
    if getattr(sys, "frozen", False):
        return [str(Path(sys.executable).resolve())]
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if script is not None and script.name == APP_ID and script.is_file():
        return [str(script.resolve())]
    return [str(Path(sys.executable).absolute()), "-m", "app"]


def _exec_argument(arg: str) -> str:
    if any(c in _RESERVED for c in arg):
        arg = '"' + "".join("\\" + c if c in '"`$\\' else c for c in arg) + '"'
    # the Exec value is a string too: its own backslashes are escaped once more, and % is doubled
    return arg.replace("\\", "\\\\").replace("%", "%%")


def desktop_entry_text(command: Sequence[str]) -> str:
    exec_line = " ".join(_exec_argument(a) for a in command) + " %f"
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.0",
        "Name=BPE Lab",
        "GenericName=Tokenizer lab",
        "Comment=Watch a tokenizer learn its vocabulary with byte pair encoding",
        f"Exec={exec_line}",
        f"TryExec={command[0].replace(chr(92), chr(92) * 2)}",
        f"Icon={ICON_NAME}",
        "Terminal=false",
        "Categories=Education;ComputerScience;",
        f"MimeType={MIME_TYPE};",
        "Keywords=tokenizer;BPE;byte pair encoding;GPT;vocabulary;",
        "StartupNotify=true",
        f"StartupWMClass={APP_ID}",
        "",
    ])


def _nearest_existing(folder: Path) -> Path:
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def _check_writable(folders: Sequence[Path]) -> None:
    """Try every folder (or the nearest one that exists) before anything is written."""
    for folder in folders:
        probe_in = _nearest_existing(folder)
        try:
            if not probe_in.is_dir():
                raise NotADirectoryError(20, "not a folder", str(probe_in))
            fd, probe = tempfile.mkstemp(dir=probe_in, prefix=".bpe-lab-probe-")
            os.close(fd)
            os.unlink(probe)
        except OSError as exc:
            raise DesktopEntryError(
                f"cannot write in {probe_in} ({exc.strerror or exc}), so nothing was changed: "
                "make that folder writable, or set XDG_DATA_HOME to a folder you can write"
            ) from None


def _make_folders(folder: Path, made: list[Path]) -> None:
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for f in reversed(missing):
        f.mkdir()
        made.append(f)


def install(places: Places, command: Sequence[str]) -> list[Path]:
    """Write the entry, the icon and the file type; all three or none. Returns the files written."""
    contents = {
        places.desktop_file: desktop_entry_text(command).encode("utf-8"),
        places.icon_file: ICON_FILE.read_bytes(),
        places.mime_file: MIME_XML.encode("utf-8"),
    }
    _check_writable([p.parent for p in contents])
    made_folders: list[Path] = []
    try:
        for target in contents:
            _make_folders(target.parent, made_folders)
        write_files(contents)
    except (OSError, BpeLabError) as exc:
        for folder in reversed(made_folders):
            folder.rmdir()
        reason = exc.strerror if isinstance(exc, OSError) else str(exc)
        raise DesktopEntryError(f"cannot write the desktop entry ({reason}), so nothing was changed") from None
    _refresh_caches(places)
    return list(contents)


def uninstall(places: Places) -> list[Path]:
    """Remove the entry, the icon and the file type. Returns the files that were there."""
    removed = []
    for path in places.files():
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise DesktopEntryError(f"cannot remove {path} ({exc.strerror or exc})") from None
        removed.append(path)
    if removed:
        _refresh_caches(places)
    return removed


def _refresh_caches(places: Places) -> None:
    """Tell the desktop at once; where the tools are missing, menus notice the files on their own."""
    for tool, folder in (("update-mime-database", places.data_home / "mime"),
                         ("update-desktop-database", places.data_home / "applications")):
        if shutil.which(tool) and folder.is_dir():
            subprocess.run([tool, str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=60, check=False)


def run(install_entry: bool) -> int:
    """``bpe-lab --install-desktop-entry`` / ``--uninstall-desktop-entry``."""
    places = Places(data_home())
    if install_entry:
        for path in install(places, launch_command()):
            print(f"wrote {path}")
        print("BPE Lab is in the application menu (under Education); .bpelab lessons open in it")
        return 0
    removed = uninstall(places)
    for path in removed:
        print(f"removed {path}")
    if not removed:
        print(f"no BPE Lab desktop entry under {places.data_home}: nothing to remove")
    return 0
