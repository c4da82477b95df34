"""A tokenizer read from a file has no corpus: the tiles show a typed text cut by its merges,
stepping with them, the next merge framed where it applies and the caption saying what is shown."""

from __future__ import annotations

import base64

import pytest
from PySide6.QtCore import QPointF

from app.session import Session
from engine.algorithm.settings import Settings
from engine.drain import drain
from engine.formats.hf import save_hf
from engine.lesson.lesson import Lesson
from engine.lesson_io.from_tokenizer import read_imported
from widgets.tiles import TileView
from widgets.tiles.canvas import SAMPLE_TEXT

TEXT = "low lower newest widest lowest newer " * 3


@pytest.fixture
def file_lesson(tmp_path) -> Lesson:
    from tokenizers import Tokenizer as HfTokenizer, models, pre_tokenizers, trainers

    hf = HfTokenizer(models.BPE(unk_token="[UNK]"))
    hf.pre_tokenizer = pre_tokenizers.Whitespace()
    hf.train_from_iterator([TEXT], trainers.BpeTrainer(vocab_size=40, special_tokens=["[UNK]"]))
    hf.save(str(tmp_path / "tokenizer.json"))
    return drain(read_imported(tmp_path / "tokenizer.json"))


def make_view(qtbot, lesson: Lesson) -> TileView:
    view = TileView(Session(lesson))
    qtbot.addWidget(view)
    view.resize(1000, 600)
    view.show()
    qtbot.waitExposed(view)
    view.set_merge_duration(30)
    return view


def rows_shown(view: TileView) -> list[tuple[str, ...]]:
    canvas = view.canvas
    return [tuple(f.token for f in canvas.frame_tiles(w)) for w in canvas.row_order()]


def words_cut(lesson: Lesson, text: str, k: int) -> list[tuple[str, ...]]:
    """Each distinct word of the text, in order of first appearance, as the tokenizer at step k cuts it."""
    tokenizer = lesson.tokenizer_at(k)
    return [tokenizer.encode(word).tokens for word in dict.fromkeys(tokenizer.pre_tokenize(text))]


def test_a_tokenizer_file_tiles_the_tokenize_text_at_every_step(file_lesson, qtbot):
    view = make_view(qtbot, file_lesson)
    session = view.session
    assert view.text_group.isVisibleTo(view) and view.text_box.text() == SAMPLE_TEXT
    for k in range(file_lesson.last_step + 1):
        session.request_step(k)
        view.finish_animation()
        assert rows_shown(view) == words_cut(file_lesson, SAMPLE_TEXT, k), k
        caption = view.caption_text()
        assert caption.startswith(f"No training text: the file's merges applied to this text, step {k} of "
                                  f"{file_lesson.last_step}"), caption
        tokens = len(file_lesson.tokenizer_at(k).encode(SAMPLE_TEXT))
        assert f"· {tokens} tokens (from {len(file_lesson.tokenizer_at(0).encode(SAMPLE_TEXT))})" in caption


def test_the_next_merge_is_framed_where_it_applies_and_said_when_it_applies_nowhere(file_lesson, qtbot):
    view = make_view(qtbot, file_lesson)
    session, canvas = view.session, view.canvas
    framed_somewhere = nowhere = 0
    for k in range(file_lesson.last_step):
        session.request_step(k)
        view.finish_animation()
        nxt = file_lesson.steps[k]
        framed = 0
        for w in canvas.row_order():
            tokens = canvas.row_tiles(w)
            winners, ties = canvas.highlights(w)
            assert ties == []  # a typed text counts no pairs: nothing is tied in it
            assert all((tokens[i], tokens[i + 1]) == nxt.pair for i in winners)
            framed += len(winners)
        after = sum(len(canvas.row_tiles(w)) for w in canvas.row_order())
        session.request_step(k + 1)
        view.finish_animation()
        # what is framed is exactly what the merge joins
        assert framed == after - sum(len(canvas.row_tiles(w)) for w in canvas.row_order())
        session.request_step(k)
        view.finish_animation()
        caption = view.caption_text().split("\n")[1]
        if framed:
            framed_somewhere += 1
            assert f"framed where it applies ({framed} time" in caption
        else:
            nowhere += 1
            assert caption.endswith("(in no word of this text)")
    assert framed_somewhere and nowhere


def test_a_merge_plays_on_the_typed_text_as_on_a_corpus(file_lesson, qtbot):
    view = make_view(qtbot, file_lesson)
    view.set_text("lowest lowest newer")
    session, canvas = view.session, view.canvas
    before = rows_shown(view)
    with qtbot.waitSignal(view.animation_finished, timeout=3000):
        session.request_next()
        assert canvas.animating
        canvas.seek(0.0)
        assert rows_shown(view) == before
        assert view.caption_text().split("\n")[1].startswith("Merging ")
        canvas.seek(0.999)
        assert rows_shown(view) == words_cut(file_lesson, "lowest lowest newer", 1)
        canvas.finish_animation()
    assert [view.canvas.rows.counts[w] for w in canvas.row_order()] == [2, 1]


def test_no_counting_is_shown_over_a_typed_text(file_lesson, qtbot):
    view = make_view(qtbot, file_lesson)
    view.set_show_counting(True)
    assert not view.counting_box.isEnabled()
    view.session.request_next()
    assert view.canvas.animating and not view.canvas.transition.sweeping
    view.finish_animation()


def test_a_text_typed_in_the_box_replaces_the_rows_and_an_empty_one_says_what_to_do(file_lesson, qtbot):
    view = make_view(qtbot, file_lesson)
    view.session.request_step(4)
    view.text_box.setText("newest widest")
    qtbot.waitUntil(lambda: view.canvas.text == "newest widest")
    assert rows_shown(view) == words_cut(file_lesson, "newest widest", 4)
    view.set_text("")
    assert view.canvas.row_order() == [] and view.canvas.text_tiles is None
    assert view.caption_text().startswith("No training text: type a text above to see the file's merges cut it (step 4")


def test_a_lesson_with_a_corpus_shows_its_words_and_no_text_box(qtbot):
    view = make_view(qtbot, Lesson("low 5\nlower 2", word_counts=True).train())
    assert not view.text_group.isVisibleTo(view) and view.counting_box.isEnabled()
    view.set_text("something else entirely")
    assert rows_shown(view) == [("l", "o", "w", "</w>"), ("l", "o", "w", "e", "r", "</w>")]


def test_the_tooltip_of_a_files_token_says_its_count_is_not_known(file_lesson, qtbot):
    view = make_view(qtbot, file_lesson)
    view.session.request_step(file_lesson.last_step)
    canvas = view.canvas
    word = canvas.row_order()[0]
    token = canvas.row_tiles(word)[0]
    assert canvas.token_at(QPointF(canvas.tile_rect(word, 0).center())) == (word, token)
    said = canvas.describe(token)
    assert "count then: not known" in said and "made by merge" in said


def test_ranks_that_stay_ranks_tile_with_tiktokens_rule(tmp_path, qtbot):
    ranks = {bytes([b]): b for b in range(256)}
    # gaps between the ranks: no merge list gives these ids, so the file stays ranks
    ranks.update({b"ab": 300, b"bc": 302, b"abc": 304, b"abcabc": 306})
    path = tmp_path / "t.tiktoken"
    path.write_text("".join(f"{base64.b64encode(t).decode()} {r}\n" for t, r in ranks.items()), encoding="utf-8")
    view = make_view(qtbot, drain(read_imported(path)))
    view.set_text("abc abcabc")
    expected = {0: [("a", "b", "c"), ("Ġ", "a", "b", "c", "a", "b", "c")],
                3: [("abc",), ("Ġ", "abc", "abc")], 4: [("abc",), ("Ġ", "abcabc")]}
    for k, rows in expected.items():
        view.session.request_step(k)
        view.finish_animation()
        assert rows_shown(view) == rows, k


def test_a_lesson_of_a_bytes_tokenizer_file_reads_its_text_as_the_panel_does(tmp_path, qtbot):
    trained = Lesson(TEXT, settings=Settings(units="bytes", split="gpt2", min_frequency=1, merges=12)).train()
    save_hf(trained.tokenizer, tmp_path / "tokenizer.json")
    view = make_view(qtbot, drain(read_imported(tmp_path / "tokenizer.json")))
    view.set_text("lowest newer")
    view.session.request_step(12)
    view.finish_animation()
    assert view.shown().rows[1][1][0].startswith("␣")  # a space at the front of a word reads as ␣


def test_a_typed_word_of_thousands_of_symbols_shows_its_head_and_counts_the_rest(tmp_path, qtbot):
    from engine.formats.bpelab import save_tokenizer
    from widgets.tiles.layout import HEAD_SYMBOLS

    trained = Lesson("abcab" * 20, settings=Settings(split="none", end_of_word=None, min_frequency=2)).train()
    save_tokenizer(trained.tokenizer, tmp_path / "tok.json")
    lesson = drain(read_imported(tmp_path / "tok.json"))
    view = make_view(qtbot, lesson)
    typed = "abcab" * 1000
    view.set_text(typed)
    for k in (0, 2, lesson.last_step):
        view.session.request_step(k)
        view.finish_animation()
        layout = view.canvas.rows.layout(0)
        tokens = lesson.tokenizer_at(k).encode(typed).tokens
        assert sum(map(len, layout.tokens)) <= HEAD_SYMBOLS + max(map(len, tokens))
        assert layout.tokens == tokens[:len(layout.tokens)] and layout.more == len(tokens) - len(layout.tokens)
        assert f"· {len(tokens):,} tokens" in view.caption_text()
