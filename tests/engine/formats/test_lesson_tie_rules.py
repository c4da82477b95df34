"""A lesson saved with any tie rule reopens with it; files written before the new rules read as before."""

import json

import pytest

from engine.drain import drain
from engine.algorithm.ranking import TIE_BREAKS
from engine.algorithm.settings import Settings
from engine.formats import proof
from engine.formats.lesson_file import LessonFile, load_lesson, save_lesson
from engine.formats.load import Source
from tests.engine.formats.samples import trained


@pytest.mark.parametrize("rule", TIE_BREAKS)
def test_a_lesson_saved_with_a_rule_reopens_with_it(rule, tmp_path):
    path = tmp_path / "l.bpelab"
    save_lesson(LessonFile("low 5\nlower 2", word_counts=True, settings=Settings(tie_break=rule, merges=3)), path)
    assert load_lesson(path).settings.tie_break == rule


def test_a_lesson_file_without_a_rule_or_with_an_old_one_reads_as_before(tmp_path):
    path = tmp_path / "l.bpelab"
    save_lesson(LessonFile("low 5", word_counts=True, settings=Settings(tie_break="hf")), path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["settings"]["tie_break"] == "hf" and load_lesson(path).settings.tie_break == "hf"
    del data["settings"]["tie_break"]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_lesson(path).settings.tie_break == "first"


@pytest.mark.parametrize("rule", ["greatest", "smallest", "last"])
@pytest.mark.parametrize("fmt", ["hf", "gpt2"])
def test_an_export_of_a_lesson_trained_under_another_rule_is_proven(rule, fmt, tmp_path):
    # the merge list is what it is; the ids come from the merges, whichever rule chose them
    tok, steps = trained(tie_break=rule, specials=())
    out = tmp_path / ("t.json" if fmt == "hf" else "gpt2")
    report = drain(proof.export_and_prove(Source(tok, steps, "lesson"), fmt, out, {"your text": "low lower newest widest"}))
    assert report.proven
