"""Images in quiz Markdown come only from the pack's own folder, each file read once."""

import base64
import os

import pytest

import engine.quiz.images as images
from engine.quiz.images import ImageFiles, with_images

PNG = b"\x89PNG\r\n\x1a\n a picture"


@pytest.fixture
def pack(tmp_path):
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "pic.png").write_bytes(PNG)
    (folder / "sub").mkdir()
    (folder / "sub" / "two.png").write_bytes(PNG)
    (tmp_path / "secret").write_text("do not read")
    os.mkfifo(folder / "pipe.png")
    (folder / "away.png").symlink_to(tmp_path / "secret")
    return folder


@pytest.fixture
def reads(monkeypatch):
    """Every path the images module reads."""
    seen = []
    real = images.read_bytes

    def counted(path, limit):
        seen.append(str(path))
        return real(path, limit)

    monkeypatch.setattr(images, "read_bytes", counted)
    return seen


def data_url(data: bytes) -> str:
    return f"data:image;base64,{base64.b64encode(data).decode('ascii')}"


def test_an_image_in_the_pack_folder_is_handed_over_as_data(pack, reads):
    shown = with_images("Look: ![tiles](pic.png) and ![two](sub/two.png \"title\")", pack, ImageFiles())
    assert shown == f"Look: ![tiles]({data_url(PNG)}) and ![two]({data_url(PNG)})"


@pytest.mark.parametrize("url, why", [
    ("../secret", "not paths with .."),
    ("sub/../../secret", "not paths with .."),
    ("%2e%2e/secret", "not paths with .."),
    ("/etc/passwd", "not absolute paths"),
    ("/dev/zero", "not absolute paths"),
    ("file:///etc/passwd", "not web or file: addresses"),
    ("file:pic.png", "not web or file: addresses"),
    ("https://example.com/x.png", "not web or file: addresses"),
    ("data:image/png;base64,AAAA", "not web or file: addresses"),
    ("away.png", "links outside it"),
])
def test_an_image_outside_the_pack_folder_is_a_note_and_nothing_is_read(pack, reads, url, why):
    shown = with_images(f"Before ![x]({url}) after", pack, ImageFiles())
    assert shown.startswith("Before *(image ") and shown.endswith(" after")
    assert why in shown.replace("\\", "")
    assert reads == []


def test_a_named_pipe_in_the_pack_folder_is_refused_at_once(pack):
    assert "named pipe (FIFO), not a regular file" in with_images("![p](pipe.png)", pack, ImageFiles()).replace("\\", "")


def test_an_image_over_the_limit_is_a_note(pack):
    assert "larger than 1 KB" in with_images("![p](pic.png)", pack, ImageFiles(limit=4)).replace("\\", "")


def test_each_file_is_read_once_however_often_it_is_shown(pack, reads):
    files = ImageFiles()
    prompt = " ".join(["![a](pic.png)"] * 70)
    for _ in range(3):
        with_images(prompt, pack, files)
    with_images("![b](missing.png) ![b](missing.png)", pack, files)
    assert reads == [str(pack / "pic.png"), str(pack / "missing.png")]


def test_a_reference_style_image_is_checked_like_an_inline_one(pack, reads):
    shown = with_images("![x][ref] and ![ref]\n\n[ref]: /etc/passwd\n", pack, ImageFiles())
    assert shown.count("not shown") == 2
    assert reads == []


def test_markdown_that_the_patterns_do_not_take_can_no_longer_be_an_image(pack):
    # an undefined reference, an unusual shape: escaped, so Markdown shows them as text
    shown = with_images("![x][nowhere] ![y](/etc/passwd\\)", pack, ImageFiles())
    assert "![" not in shown.replace("!\\[", "")


def test_code_spans_are_left_alone(pack, reads):
    assert with_images("`![c](/etc/passwd)`", pack, ImageFiles()) == "`![c](/etc/passwd)`"
    assert reads == []


def test_without_a_pack_folder_no_image_is_read(pack, reads):
    assert "only from a quiz pack's own folder" in with_images("![a](pic.png)", None, ImageFiles()).replace("\\", "")
    assert reads == []
