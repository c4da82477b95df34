"""The PDF handout: the steps a teacher picks, and pages that say what the lesson did, in words."""

from __future__ import annotations

import unicodedata

import pytest
from pypdf import PdfReader
from PySide6.QtWidgets import QDialogButtonBox

from widgets.handout import choose_steps, growth_summary, merge_sentence, round_ticks, vocab_summary, write_handout
from widgets.handout_dialog import HandoutDialog, export_handout
from engine.errors import BpeLabError
from engine.lesson.lesson import Lesson
from engine.algorithm.settings import Settings

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"


@pytest.fixture(autouse=True)
def _application(qapp):
    """The handout draws with Qt fonts, which need an application object."""


@pytest.fixture(scope="module")
def classic():
    return Lesson(CLASSIC, word_counts=True).train()


def page_texts(path) -> list[str]:
    """Each page's text with whitespace collapsed and ligatures (ﬁ) spelt out."""
    reader = PdfReader(str(path))
    return [" ".join(unicodedata.normalize("NFKC", page.extract_text()).split()) for page in reader.pages]


# -- choosing steps -----------------------------------------------------------------------------


@pytest.mark.parametrize("spec, last, expected", [
    ("all", 4, [1, 2, 3, 4]),
    ("", 3, [1, 2, 3]),
    ("every 5", 12, [1, 6, 11, 12]),
    ("every 3", 7, [1, 4, 7]),
    ("1, 4, 7-9", 12, [1, 4, 7, 8, 9]),
    ("9 - 7, 2", 12, [2, 7, 8, 9]),
    ("3 5 3 2", 9, [2, 3, 5]),
    ("2 to 4", 9, [2, 3, 4]),
])
def test_choose_steps(spec, last, expected):
    assert choose_steps(spec, last) == expected


@pytest.mark.parametrize("spec, words", [
    ("every 0", "1 or more"),
    ("1, x", "'x' is not a step"),
    ("3-20", "from 1 to 15"),
    ("0", "from 1 to 15"),
])
def test_choose_steps_says_what_is_wrong(spec, words):
    with pytest.raises(BpeLabError, match=words):
        choose_steps(spec, 15)


def test_a_lesson_with_no_merges_has_no_steps():
    with pytest.raises(BpeLabError, match="no merges"):
        choose_steps("all", 0)


# -- the merge in words -------------------------------------------------------------------------


def test_merge_sentence_names_the_pair_the_count_the_ties_and_the_totals(classic):
    text = merge_sentence(classic, 1)
    assert "“e” + “s” occurs 9 times" in text
    assert "s + t and t + </w> occur just as often" in text
    assert "the tie goes to the pair met first" in text
    assert "becomes the new token “es”" in text
    assert "from 95 to 86 tokens" in text


def test_one_rival_occurs_and_the_hf_rule_is_named_as_hf():
    from engine.readable.describe import tie_rule
    from engine.algorithm.settings import Settings

    lesson = Lesson("low 3\nlower 2\nnewest 2\nwidest 1\n", word_counts=True,
                    settings=Settings(end_of_word="_", tie_break="hf")).train()
    two = next(s for s in lesson.steps if len(s.tied) == 2)
    text = merge_sentence(lesson, two.step)
    assert " occurs just as often" in text and " occur just as often" not in text
    three = lesson.steps[2]
    assert len(three.tied) > 2 and f"the tie goes to {tie_rule(lesson.settings)}" in merge_sentence(lesson, 3)
    assert "met first" not in merge_sentence(lesson, 3)


def test_an_untied_merge_says_it_beats_every_other_pair(classic):
    step = next(s for s in classic.steps if len(s.tied) == 1)
    text = merge_sentence(classic, step.step)
    assert "more often than any other pair" in text and "tie" not in text


# -- the PDF ------------------------------------------------------------------------------------


def test_handout_pages_hold_the_merges_the_chart_and_the_vocab(classic, tmp_path):
    path = tmp_path / "classic.pdf"
    count = write_handout(classic, path, [1, 4, 15], "The four words")
    pages = page_texts(path)
    assert len(pages) == count == 5  # three merges, the chart, the vocabulary

    first, fourth, last = pages[:3]
    assert "Merge 1 of 15: e + s → es" in first
    assert "occurs 9 times" in first and "from 95 to 86 tokens" in first
    assert "9 ◀ merged" in first and "(tied)" in first  # the pair counts, the winner and its ties
    assert "×6" in first and "The words after it (86 tokens" in first
    assert "Merge 4 of 15: l + o → lo" in fourth and "7 times" in fourth
    assert "Merge 15 of 15: lower + </w> → lower</w>" in last
    assert all("The four words — BPE Lab handout" in p for p in pages)

    chart = pages[3]
    assert "The corpus shrinks as the vocabulary grows" in chart
    assert "starts as 95 tokens" in chart and "After 15 merges it is 16 tokens" in chart
    # the start counts <unk> as the end does: 11 symbols + <unk>, then 15 learned more
    assert ("from 12 tokens (11 base symbols + <unk>) to 27 tokens (11 base symbols + 15 learned + <unk>)"
            in chart)

    vocab = pages[4]
    assert "27 tokens (11 base symbols + 15 learned + <unk>)" in vocab
    for step in classic.steps:
        assert f"{step.step}. {step.pair[0]} + {step.pair[1]} → {step.token} (×{step.count})" in vocab


def test_word_rows_that_do_not_fit_are_counted(tmp_path):
    words = "".join(f"w{chr(97 + i % 26)}{chr(97 + i // 26)}x {2 + i % 3}\n" for i in range(120))
    lesson = Lesson(words, word_counts=True).train()
    path = tmp_path / "many.pdf"
    write_handout(lesson, path, [1])
    first = page_texts(path)[0]
    assert "more words" in first
    shown = first.count("×")  # one badge per word row shown
    hidden = int(first.split("... and ")[1].split()[0])  # NFKC spells the ellipsis as three dots
    assert shown > 5 and shown + hidden == 120


def test_a_text_with_no_spaces_shows_the_start_of_its_one_word(tmp_path, monkeypatch):
    import random

    import widgets.handout as handout

    rng = random.Random(2)
    text = "".join(rng.choice("abcab") for _ in range(60_000))
    lesson = Lesson(text, settings=Settings(split="none", merges=8)).train()
    measured = []
    real = handout.TilePainter.measure
    monkeypatch.setattr(handout.TilePainter, "measure", lambda self, t: measured.append(t) or real(self, t))
    path = tmp_path / "one-word.pdf"
    write_handout(lesson, path, [4])
    # the row is the word's first tokens and an ellipsis, not tens of thousands of tiles
    assert 0 < len(measured) < 2_000 and "…" in measured
    assert path.stat().st_size > 0


def test_a_long_vocab_goes_on_over_pages(tmp_path):
    text = " ".join(f"{a}{b}{c}" for a in "abcdefgh" for b in "ijklmnop" for c in "qrstu") * 2
    lesson = Lesson(text).train()
    path = tmp_path / "long.pdf"
    pages = page_texts(path) if write_handout(lesson, path, [1]) else []
    tail = " ".join(pages[2:])
    last = lesson.steps[-1]
    assert len(pages) > 3
    assert f"{last.step}. {last.pair[0]} + {last.pair[1]} → {last.token}" in tail


@pytest.mark.parametrize("steps, words", [
    ([], "no steps chosen"),
    ([0], "run from 1 to 15"),
    ([16], "run from 1 to 15"),
])
def test_bad_step_lists_are_refused(classic, tmp_path, steps, words):
    with pytest.raises(BpeLabError, match=words):
        write_handout(classic, tmp_path / "x.pdf", steps)
    assert not (tmp_path / "x.pdf").exists()


def test_too_many_pages_asks_for_every_nth(classic, tmp_path, monkeypatch):
    monkeypatch.setattr("widgets.handout.MAX_PAGES", 10)
    with pytest.raises(BpeLabError, match="every n-th"):
        write_handout(classic, tmp_path / "x.pdf", list(range(1, 12)))
    assert write_handout(classic, tmp_path / "x.pdf", list(range(1, 11))) == 12


def test_an_empty_lesson_has_no_handout(tmp_path):
    with pytest.raises(BpeLabError, match="no merges"):
        write_handout(Lesson(""), tmp_path / "x.pdf", [1])


def test_an_unwritable_place_says_so(classic, tmp_path):
    with pytest.raises(BpeLabError, match="could not write the handout"):
        write_handout(classic, tmp_path / "missing" / "x.pdf", [1])


# -- the window's menu and dialog ---------------------------------------------------------------


def test_file_menu_offers_the_handout_before_quit(make_window):
    window = make_window()
    file_menu = window.menuBar().actions()[0].menu()
    actions = file_menu.actions()
    assert window.handout_action in actions
    assert actions.index(window.handout_action) < actions.index(window.quit_action)


def test_the_handout_entry_goes_where_it_is_told(qtbot):
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QMainWindow, QMenu

    from widgets.handout_dialog import add_handout_action

    window = QMainWindow()
    qtbot.addWidget(window)
    menu = QMenu("File", window)
    first, last = menu.addAction("Open"), menu.addAction("Quit")
    action = add_handout_action(window, menu, last)
    assert isinstance(action, QAction)
    actions = menu.actions()
    assert actions[0] is first and actions[1] is action and actions[2].isSeparator() and actions[3] is last


def test_export_from_the_window_writes_the_pdf(make_window, tmp_path):
    window = make_window()
    written = export_handout(window, tmp_path / "lesson", [2])
    assert written == tmp_path / "lesson.pdf"
    pages = page_texts(written)
    assert "Merge 2 of" in pages[0] and "Untitled lesson" in pages[0]
    assert window.told == []


def test_export_with_bad_steps_tells_the_teacher(make_window, tmp_path):
    window = make_window()
    assert export_handout(window, tmp_path / "x.pdf", [999]) is None
    assert "not written" in window.told[0]


def test_dialog_turns_choices_into_steps(qtbot):
    dialog = HandoutDialog(15)
    qtbot.addWidget(dialog)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert dialog.steps() == list(range(1, 16)) and "15 merge pages" in dialog.summary.text()
    dialog.every.setValue(7)
    assert dialog.every_button.isChecked() and dialog.steps() == [1, 8, 15]
    qtbot.keyClicks(dialog.list, "2, 5-6")
    assert dialog.list_button.isChecked() and dialog.steps() == [2, 5, 6] and ok.isEnabled()
    qtbot.keyClicks(dialog.list, ", 40")
    assert not ok.isEnabled() and "from 1 to 15" in dialog.summary.text()


# -- the summary numbers are the engine's ------------------------------------------------------


def test_summary_numbers_are_the_engines_for_a_chars_lesson_with_unk(classic, qtbot):
    from app.session import Session
    from engine.readable.describe import describe_vocab
    from widgets.vocab_panel import VocabPanel

    history = classic.history
    last = history.last_step
    summary = growth_summary(classic)
    corpus = classic.corpus
    markers = sum(corpus.counts)
    chars = history.total_tokens(0) - markers
    assert chars == sum(len(w) * c for w, c in zip(corpus.words, corpus.counts))
    assert f"starts as {history.total_tokens(0)} tokens: {chars} characters and {markers} end-of-word markers" in summary
    assert f"After {last} merges it is {history.total_tokens(last)} tokens" in summary
    start, end = (describe_vocab(classic.settings, history.vocab(k)) for k in (0, last))
    assert f"grown from {start} to {end}" in summary
    assert start.startswith(f"{history.vocab_size(0)} tokens") and history.vocab_size(0) == 12  # 11 + <unk>
    assert vocab_summary(classic).startswith(f"{history.vocab_size(last)} tokens")
    # each merge's page says the size the vocabulary panel shows at that step, in the same words
    session = Session(classic)
    panel = VocabPanel(session)
    qtbot.addWidget(panel)
    for k in (1, 4, last):
        session.request_step(k)
        text = merge_sentence(classic, k)
        assert f"the vocabulary now holds {panel.heading.text()}." in text
        assert f"from {history.total_tokens(k - 1)} to {history.total_tokens(k)} tokens" in text


def test_summary_numbers_are_the_engines_for_a_bytes_lesson(tmp_path):
    from engine.algorithm.settings import Settings

    text = "naïve café naïve café naïve"  # 23 letters, 28 bytes
    lesson = Lesson(text, settings=Settings(units="bytes")).train()
    history = lesson.history
    last = history.last_step
    assert history.total_tokens(0) == len(text.replace(" ", "").encode("utf-8")) != len(text.replace(" ", ""))
    summary = growth_summary(lesson)
    letters = text.replace(" ", "")
    assert f"starts as {history.total_tokens(0)} tokens: the UTF-8 bytes of its {len(letters)} characters" in summary
    assert "one per character" not in summary and "<unk>" not in summary
    assert f"from {history.vocab_size(0)} tokens (256 base symbols)" in summary
    assert f"to {history.vocab_size(last)} tokens (256 base symbols + {last} learned)" in summary
    path = tmp_path / "bytes.pdf"
    write_handout(lesson, path, [1])
    chart = " ".join(page_texts(path))
    assert f"starts as {history.total_tokens(0)} tokens: the UTF-8 bytes" in chart


def test_the_every_box_says_merge_or_merges_with_its_number(qtbot):
    from widgets.handout_dialog import HandoutDialog

    dialog = HandoutDialog(15)
    qtbot.addWidget(dialog)
    assert dialog.every.value() == 1 and dialog.every.suffix() == " merge"
    dialog.every.setValue(3)
    assert dialog.every.suffix() == " merges"


def test_the_handout_says_where_overlapping_pairs_merge_fewer_times():
    from engine.readable.describe import describe_overlap

    lesson = Lesson("aaa aaa ab", settings=Settings(end_of_word=None)).train()
    text = merge_sentence(lesson, 1)
    assert describe_overlap(lesson.settings, lesson.steps[0]) in text and "Every “a”" not in text
    assert "from 8 to 6 tokens" in text
    classic = Lesson("low 5\nlower 2\nnewest 6\nwidest 3\n", word_counts=True).train()
    assert "Every “e” followed by “s”" in merge_sentence(classic, 1) and "overlap" not in merge_sentence(classic, 1)


def test_a_pair_met_once_and_a_single_merge_read_as_english():
    lesson = Lesson("ab", settings=Settings(end_of_word=None, min_frequency=1)).train()
    assert lesson.last_step == 1
    assert "occurs once" in merge_sentence(lesson, 1) and "1 times" not in merge_sentence(lesson, 1)
    assert "After 1 merge it is" in growth_summary(lesson)


@pytest.mark.parametrize("top, ticks", [
    (95, [0, 20, 40, 60, 80, 100]),
    (16, [0, 5, 10, 15, 20]),
    (5, [0, 1, 2, 3, 4, 5]),
    (1, [0, 1]),
    (465, [0, 100, 200, 300, 400, 500]),
    (506, [0, 200, 400, 600]),
    (1000, [0, 200, 400, 600, 800, 1000]),
    (422_682, [0, 100_000, 200_000, 300_000, 400_000, 500_000]),
])
def test_the_charts_ticks_are_round_and_reach_the_top(top, ticks):
    assert round_ticks(top) == ticks


def test_the_growth_charts_axes_read_in_round_steps(classic, tmp_path):
    path = tmp_path / "classic.pdf"
    write_handout(classic, path, [1], "The four words")
    chart = page_texts(path)[1]
    # 95 tokens at the start: the tokens axis goes 0, 20 … 100; 15 merges: 0, 5, 10, 15
    labels = chart[:chart.index("merges made")]
    for tick in ("100", "80", "60", "40", "20", "0 5 10 15"):
        assert tick in labels, labels
    for odd in ("71", "48", "24"):
        assert odd not in labels


# -- the metrics table --------------------------------------------------------------------------


def test_the_metrics_table_reads_the_engines_measures_at_the_start_middle_and_end(tmp_path):
    from engine.readable.metrics import measure
    from widgets.handout import METRICS_HEADER, metrics_table

    held_out = "lowest newer wider"
    lesson = Lesson(CLASSIC, word_counts=True, held_out=held_out).train()
    rows = metrics_table(lesson)
    assert [r[:2] for r in rows] == [(t, k) for t in ("corpus", "held-out") for k in ("0", "7", "15")]
    assert all(len(r) == len(METRICS_HEADER) for r in rows)
    for row in rows[3:]:
        m = measure(lesson.tokenizer.truncated(int(row[1])), held_out)
        assert row[2:] == (f"{m.characters_per_token:.2f}", f"{m.tokens_per_word:.2f}", f"{m.whole_share:.0%}",
                           f"{m.unknown_share:.1%}", f"{m.renyi_efficiency:.3f}")
    # the corpus at the end: 79 characters in 16 tokens, every one of its 16 words one token
    assert rows[2][2:5] == ("4.94", "1.00", "100%")

    path = tmp_path / "metrics.pdf"
    write_handout(lesson, path, [1], "Measured")
    chart = page_texts(path)[1]
    assert "How good is the vocabulary?" in chart and "Rényi efficiency" in chart
    assert "Zouhar et al. (ACL 2023)" in chart
    assert f"held-out 15 {' '.join(rows[-1][2:])}" in chart


def test_a_lesson_with_no_held_out_text_measures_its_corpus_and_says_so(classic):
    from widgets.handout import metrics_summary, metrics_table

    assert [r[0] for r in metrics_table(classic)] == ["corpus"] * 3
    assert "the lesson has no held-out text" in metrics_summary(classic)
