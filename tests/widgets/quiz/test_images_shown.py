"""A pack's prompt can show its own pictures and makes the window read no other file."""

import json
import os
import re

import pytest

import engine.quiz.images as images
from engine.quiz.packs import FORMAT
from widgets.quiz_panel import QuizPanel

PNG_1X1 = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201"
    "a5f1d1e60000000049454e44ae426082"
)


@pytest.fixture
def pack_file(tmp_path):
    folder = tmp_path / "pack"
    folder.mkdir()
    (tmp_path / "secret").write_text("do not read")
    (folder / "tiles.png").write_bytes(PNG_1X1)
    os.mkfifo(folder / "pipe.png")
    prompt = ("How many tokens? ![ok](tiles.png) ![a](../secret) ![b](/etc/passwd) ![c](pipe.png) "
              "![d](/dev/zero) ![e](file:///etc/passwd)")
    path = folder / "pack.json"
    path.write_text(json.dumps({"format": FORMAT, "version": 1, "questions": [
        {"id": "n", "kind": "number", "prompt": prompt, "answer": 3}]}))
    return path


def test_a_prompt_pointing_outside_its_pack_shows_with_notes(qtbot, pack_file, monkeypatch):
    seen = []
    real = images.read_bytes
    monkeypatch.setattr(images, "read_bytes", lambda path, limit: seen.append(str(path)) or real(path, limit))
    panel = QuizPanel()
    qtbot.addWidget(panel)
    assert panel.open_pack(str(pack_file))
    text = panel.prompt.text()
    # the label is handed the pack's own picture as data and nothing it could open by itself
    assert re.findall(r"!\[[^\]]*\]\(([a-z]+):", text) == ["data"]
    assert text.count("not shown") == 5
    shown = panel.shown().prompt
    assert shown.startswith("How many tokens?")
    assert seen == [str(pack_file.parent / "tiles.png"), str(pack_file.parent / "pipe.png")]


def test_explanations_worked_examples_readings_and_gap_texts_show_the_packs_pictures(qtbot, tmp_path):
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "tiles.png").write_bytes(PNG_1X1)
    picture = "![tiles](tiles.png)"
    path = folder / "pack.json"
    path.write_text(json.dumps({"format": FORMAT, "version": 1, "questions": [
        {"id": "n", "kind": "number", "prompt": "How many?", "answer": 3, "explanation": f"See {picture}"},
        {"id": "f", "kind": "fill", "prompt": "Fill the gap.", "text": f"{picture} low + [[1]] makes lower",
         "blanks": [["er"]]}],
        "examples": [{"id": "e", "title": "Worked", "body": f"Look: {picture}", "steps": [f"First {picture}"]}],
        "readings": [{"id": "r", "title": "Why", "text": f"Read {picture}"}]}))
    panel = QuizPanel()
    qtbot.addWidget(panel)
    assert panel.open_pack(str(path))
    assert len(panel.session.pack.questions) == 2, panel.session.notice

    def pictures(text):
        return re.findall(r"!\[[^\]]*\]\(([a-z]+):", text)

    panel.editor.edit.setText("3")
    panel.check()
    assert pictures(panel.why.text()) == ["data"] and "not shown" not in panel.why.text()
    panel.go_to(1)
    fill_text = panel.findChild(type(panel.prompt), "fillText")
    assert pictures(fill_text.text()) == ["data"]
    panel.show_examples()
    view = panel.example_view
    assert pictures(view.body.text()) == ["data"] and pictures(view.text.text()) == ["data"]
    view.picker.setCurrentIndex(1)  # the reading
    assert pictures(view.text.text()) == ["data"]
