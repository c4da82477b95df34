"""``bpe-lab snapshot``: the window rendered to PNG at a step, with no display."""

import pytest
from PySide6.QtGui import QImage

from app.cli import main
from engine.formats.lesson_file import LessonFile, save_lesson


def colours(image: QImage) -> int:
    step = 23
    return len({image.pixel(x, y) for x in range(0, image.width(), step) for y in range(0, image.height(), step)})


def test_default_lesson_renders_at_the_size_asked(tmp_path, qtbot):
    out = tmp_path / "step3.png"
    assert main(["snapshot", "--step", "3", "--out", str(out), "--size", "1200x800"]) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1200, 800)
    assert colours(image) > 8  # panels, tiles and text, not a blank frame


def test_dark_theme_is_darker(tmp_path, qtbot):
    light, dark = tmp_path / "light.png", tmp_path / "dark.png"
    assert main(["snapshot", "--step", "1", "--out", str(light), "--size", "800x600"]) == 0
    assert main(["snapshot", "--step", "1", "--out", str(dark), "--size", "800x600", "--theme", "dark"]) == 0

    def brightness(path):
        image = QImage(str(path))
        pixels = [image.pixelColor(x, y).lightness() for x in range(0, 800, 17) for y in range(0, 600, 17)]
        return sum(pixels) / len(pixels)

    assert brightness(dark) < brightness(light) - 60


def test_a_lesson_file_renders_at_its_saved_step_and_a_text_file_too(tmp_path, qtbot):
    lesson = tmp_path / "tea.bpelab"
    save_lesson(LessonFile("tea tea team teams steam seat", step=2), lesson)
    out = tmp_path / "tea.png"
    assert main(["snapshot", str(lesson), "--out", str(out), "--size", "900x600"]) == 0
    assert not QImage(str(out)).isNull()
    text = tmp_path / "words.txt"
    text.write_text("a b a b c", encoding="utf-8")
    assert main(["snapshot", str(text), "--step", "0", "--out", str(tmp_path / "t.png"), "--size", "900x600"]) == 0


@pytest.mark.parametrize("args, message", [
    (["--step", "999"], "past the end"),
    (["--size", "big"], "not a size"),
    (["--size", "10x10"], "out of range"),
    (["--theme", "pink"], "invalid choice"),
])
def test_bad_arguments_say_what_to_do(tmp_path, capsys, qtbot, args, message):
    assert main(["snapshot", "--out", str(tmp_path / "x.png"), *args]) == 2
    assert message in capsys.readouterr().err


def test_bad_files_are_one_line_messages(tmp_path, capsys, qtbot):
    empty = tmp_path / "empty.txt"
    empty.write_text("   ", encoding="utf-8")
    assert main(["snapshot", str(empty), "--out", str(tmp_path / "x.png")]) == 2
    assert "empty" in capsys.readouterr().err
    assert main(["snapshot", "--out", str(tmp_path / "no" / "x.png")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["snapshot", "--out", str(tmp_path / "x.jpg")]) == 2
    assert ".png" in capsys.readouterr().err


def test_a_snapshot_leaves_no_window_behind_and_keeps_the_style(tmp_path, qtbot):
    # every window left alive, and every change of style, made each later snapshot slower
    from PySide6.QtWidgets import QApplication

    from app.window import MainWindow

    def windows() -> int:
        return sum(isinstance(w, MainWindow) for w in QApplication.topLevelWidgets())

    assert main(["snapshot", "--step", "1", "--out", str(tmp_path / "a.png"), "--size", "800x600"]) == 0
    before, style = windows(), QApplication.style()
    assert main(["snapshot", "--step", "1", "--out", str(tmp_path / "b.png"), "--size", "800x600"]) == 0
    assert windows() == before
    assert QApplication.style() is style
