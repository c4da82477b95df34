"""``bpe-lab snapshot``: the window rendered to PNG at a step, with no display."""

import pytest
from PySide6.QtGui import QImage

from app.cli import main
from engine.formats.lesson_file import LessonFile, save_lesson

# among the heaviest files of the suite: run by .ci/run, left out of the quick part (-m "not slow")
pytestmark = pytest.mark.slow


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


# each view and mode against the default picture (the whole window on the tiles) at the same size
# (the explorer's two wait for GPT-4's tokenizer to load: run by .ci/run, left out of the quick part)
VIEW_OPTIONS = [
    ["--view", "charts"], ["--view", "pairs"], ["--view", "vocab"], ["--view", "tokenize"], ["--view", "quiz"],
    pytest.param(["--view", "explorer"], marks=pytest.mark.slow),
    pytest.param(["--view", "languages"], marks=pytest.mark.slow),
    ["--classroom"], ["--classroom", "--view", "pairs"], ["--classroom", "--predict"], ["--reveal"],
    ["--classroom", "--reveal"],
]


@pytest.fixture(scope="module")
def default_picture(tmp_path_factory):
    out = tmp_path_factory.mktemp("default") / "default.png"
    assert main(["snapshot", "--step", "2", "--out", str(out), "--size", "1024x768"]) == 0
    return QImage(str(out))


def differing_pixels(a: QImage, b: QImage) -> int:
    return sum(a.pixel(x, y) != b.pixel(x, y) for x in range(0, a.width(), 9) for y in range(0, a.height(), 9))


@pytest.mark.parametrize("options", VIEW_OPTIONS, ids=" ".join)
def test_each_view_and_mode_renders_at_the_size_asked_and_differs_from_the_default(
        tmp_path, qtbot, default_picture, options):
    out = tmp_path / "view.png"
    assert main(["snapshot", "--step", "2", "--out", str(out), "--size", "1024x768", *options]) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1024, 768)
    assert colours(image) > 8
    assert differing_pixels(image, default_picture) > 900  # of 9,800 sampled: another picture, not a shifted one


def test_the_predict_question_and_the_revealed_quiz_differ_from_their_mode_without_them(tmp_path, qtbot):
    def picture(*options) -> QImage:
        out = tmp_path / f"{len(list(tmp_path.iterdir()))}.png"
        assert main(["snapshot", "--step", "2", "--out", str(out), "--size", "1024x768", *options]) == 0
        return QImage(str(out))

    assert differing_pixels(picture("--classroom", "--predict"), picture("--classroom")) > 300
    assert differing_pixels(picture("--view", "quiz", "--reveal"), picture("--view", "quiz")) > 100


@pytest.mark.parametrize("options, message", [
    (["--predict"], "add --classroom"),
    (["--classroom", "--predict", "--view", "charts"], "asks over the tiles"),
    (["--reveal", "--view", "tiles"], "answers a quiz question"),
    (["--classroom", "--predict", "--reveal"], "two pictures"),
    (["--view", "timeline"], "invalid choice"),
])
def test_options_that_exclude_each_other_say_what_to_do(tmp_path, capsys, qtbot, options, message):
    out = tmp_path / "x.png"
    assert main(["snapshot", "--out", str(out), *options]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_a_bad_combination_is_its_own_error_class():
    from app.commands.snapshot import BadCombination, check_combination

    with pytest.raises(BadCombination):
        check_combination("quiz", classroom=True, predict=True, reveal=False)
    assert check_combination(None, classroom=True, predict=True, reveal=False) == "tiles"
    assert check_combination(None, classroom=False, predict=False, reveal=True) == "quiz"
