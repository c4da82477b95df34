"""Each panel on its own, fed by a session: what it shows and what intent it sends back."""

import pytest

from app.session import Session
from engine.readable.display import for_tokenizer
from engine.lesson.lesson import Lesson
from engine.algorithm.settings import Settings
from widgets.corpus_panel import EDITOR_LIMIT, CorpusPanel
from widgets.pairs_panel import PairsPanel
from widgets.settings_form import SettingsForm
from widgets.timeline import Timeline
from widgets.tokenize_panel import TokenizePanel
from widgets.vocab_panel import VocabPanel


@pytest.fixture
def session(qtbot):
    return Session()


def test_timeline_buttons_and_stop_reason(session, qtbot):
    timeline = Timeline(session)
    qtbot.addWidget(timeline)
    assert not timeline.back_button.isEnabled()
    timeline.forward_button.click()
    assert session.step == 1
    timeline.end_button.click()
    assert session.step == session.last_step
    assert not timeline.forward_button.isEnabled()
    assert "Training stopped" in timeline.status.text()
    timeline.home_button.click()
    assert session.step == 0 and "Press →" in timeline.status.text()


def test_timeline_shows_training_progress_until_it_ends(session, qtbot):
    timeline = Timeline(session)
    qtbot.addWidget(timeline)
    session.training_started.emit()
    session.training_progressed.emit(40, 200)
    assert timeline.progress_row.isVisibleTo(timeline)
    assert timeline.progress.value() == 40 and timeline.progress.text() == "40 of 200 merges"
    session.training_ended.emit()
    assert not timeline.progress_row.isVisibleTo(timeline)


def test_pairs_panel_explains_the_count_of_the_picked_pair(session, qtbot):
    panel = PairsPanel(session)
    qtbot.addWidget(panel)
    assert panel.heading.text() == "Next: e + s, 9 times (tie of 3)"
    panel.table.selectRow(0)
    assert panel.details.text() == "e + s = 1×6 (newest) + 1×3 (widest) = 9"
    session.request_step(3)
    assert panel.heading.text().startswith("Next: l + o, 7 times")


@pytest.mark.parametrize("rule, words", [("first", "met first"), ("hf", "smaller token ids")])
def test_pairs_panel_states_the_lessons_own_tie_rule(qtbot, rule, words):
    from engine.readable.describe import tie_rule_sentence

    lesson = Lesson("low 3\nlower 2\nnewest 2\nwidest 1\n", word_counts=True,
                    settings=Settings(end_of_word="_", tie_break=rule)).train()
    session = Session(lesson)
    panel = PairsPanel(session)
    qtbot.addWidget(panel)
    session.request_step(2)
    shown = panel.shown()
    winner = lesson.steps[2].pair
    assert shown.heading.startswith(f"Next: {winner[0]} + {winner[1]}, 3 times (tie of ")
    assert shown.count_line.endswith(tie_rule_sentence(lesson.settings)) and words in shown.count_line


def test_pairs_panel_marks_only_ties_for_first_place(session, qtbot):
    panel = PairsPanel(session)
    qtbot.addWidget(panel)
    rows = panel.shown().rows
    top = rows[0][2]
    below = [row for row in rows if row[2] != top]
    # equal counts further down (o + w and l + o at 7, many at 2) decide nothing now
    assert len({row[2] for row in below}) < len(below)
    assert all(row[3] == "" for row in below)
    assert [row[3] for row in rows if row[2] == top] == ["★ next, tie", "tie for 1st", "tie for 1st"]


def test_vocab_panel_selects_and_explains_a_token(session, qtbot):
    panel = VocabPanel(session)
    qtbot.addWidget(panel)
    session.request_step(3)
    # the headline's count of ids is the engine's vocabulary size at that step, the unknown token included
    assert panel.heading.text() == "15 tokens (11 base symbols + 3 learned + <unk>)"
    assert session.lesson.steps[2].vocab_size == 15
    row = panel.model.row_of("est</w>")
    panel.table.clicked.emit(panel.model.index(row, 1))
    assert session.selected_token == "est</w>"
    assert panel.tree.text() == "est</w> = ((e + s) + t) + </w>"


def test_tokenize_panel_shows_tokens_ids_replay_and_unknowns(session, qtbot):
    panel = TokenizePanel(session)
    qtbot.addWidget(panel)
    session.request_step(5)
    panel.input.setText("lowest")
    panel.refresh()
    assert panel.summary.text().startswith("2 tokens after 5 merges")
    assert "after e + s: l | o | w | es | t | </w>" in panel.replay.toPlainText()
    assert "after lo + w: low | est</w>" in panel.replay.toPlainText()
    ids = session.lesson.tokenizer
    assert f">{ids.token_to_id('low')}</sub>" in panel.chips.text()
    panel.input.setText("lowéz")
    panel.refresh()
    assert "2 characters never seen in training" in panel.summary.text()
    assert panel.summary.text().endswith("became the unknown token <unk>: é, z.")
    assert "&nbsp;&lt;unk&gt;&nbsp;" in panel.chips.text()


def test_tokenize_panel_reads_bytes_as_text(qtbot):
    session = Session(Lesson("hello world hello world", settings=Settings(split="gpt2", units="bytes")))
    panel = TokenizePanel(session)
    qtbot.addWidget(panel)
    session.request_step(session.last_step)
    panel.input.setText("hello world")
    panel.refresh()
    assert "␣world" in panel.chips.text() and "Ġ" not in panel.chips.text()
    assert "never seen" not in panel.summary.text()


def test_tokenize_panel_replays_the_words_encoding_cuts(qtbot):
    # lowercase and a special token: the replay must cut the text exactly as encoding does
    settings = Settings(special_tokens=("<|endoftext|>",), lowercase=True, min_frequency=1)
    session = Session(Lesson("low lower<|endoftext|>lowest newer", settings=settings))
    panel = TokenizePanel(session)
    qtbot.addWidget(panel)
    session.request_step(session.last_step)
    text = "Lower<|endoftext|>NEWEST"
    panel.input.setText(text)
    panel.refresh()
    tokenizer = session.lesson.tokenizer_at(session.step)
    display = for_tokenizer(tokenizer)
    words = tokenizer.pre_tokenize(text)
    replayed = [line.split(": ", 1)[0] for line in panel.replay.toPlainText().splitlines() if not line.startswith(" ")]
    assert replayed == [display.token(w) for w in words]

    def replay_ends_in(word):
        base, trace = tokenizer.encode_steps(word)
        return list(trace[-1].tokens) if trace else list(base)

    # each word's replay ends in the tokens encoding gives it
    encoding = tokenizer.encode(text)
    special = set(tokenizer.special_ids.values())
    regular = [t for i, t in zip(encoding.ids, encoding.tokens) if i not in special]
    assert [t for w in words for t in replay_ends_in(w)] == regular


def test_corpus_panel_announces_typing_once_it_pauses(session, qtbot):
    panel = CorpusPanel(session)
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.corpus_requested, timeout=3000) as blocker:
        panel.editor.setPlainText("hug 10\npug 5")
    assert blocker.args == ["hug 10\npug 5", True]


def test_corpus_panel_shows_a_huge_text_read_only(session, qtbot):
    from engine.formats.lesson_file import LessonFile

    panel = CorpusPanel(session)
    qtbot.addWidget(panel)
    huge = "word " * (EDITOR_LIMIT // 4)
    panel.show_source(LessonFile(huge))
    assert panel.editor.isReadOnly()
    assert len(panel.editor.toPlainText()) < len(huge)
    assert panel.text() == huge


def test_corpus_panel_presets_and_open_are_requests(session, qtbot):
    panel = CorpusPanel(session)
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.preset_requested) as blocker:
        panel.presets.activated.emit(2)
    assert blocker.args == [panel.presets.itemData(2)]
    assert panel.presets.currentIndex() == 0
    with qtbot.waitSignal(panel.open_requested):
        panel.open_button.click()


def test_settings_form_round_trips_and_announces_changes(qtbot):
    s = Settings(split="gpt2", units="bytes", merges=30, tie_break="hf", lowercase=True)
    form = SettingsForm(s)
    qtbot.addWidget(form)
    assert form.current().resolved() == s.resolved()
    assert not form.marker.isEnabled()
    with qtbot.waitSignal(form.settings_requested) as blocker:
        form.units.setCurrentIndex(form.units.findData("chars"))
    assert blocker.args[0].units == "chars"
    with qtbot.waitSignal(form.settings_requested) as blocker:
        form.stop.setCurrentIndex(2)
    assert blocker.args[0].vocab_size and blocker.args[0].merges is None


def test_tokenize_chips_take_each_tokens_tile_colour(session, qtbot):
    from engine.readable.display import for_tokenizer
    from widgets.tiles.palette import tile_look

    panel = TokenizePanel(session)
    qtbot.addWidget(panel)
    session.request_step(5)
    panel.input.setText("lowest")
    qtbot.waitUntil(lambda: "low" in panel.chips.text(), timeout=3000)
    tokenizer = session.lesson.tokenizer_at(5)
    for token in ("low", "est</w>"):
        fill = tile_look(for_tokenizer(tokenizer), token, tokenizer.token_to_id(token)).fill.name()
        assert f"background:{fill}" in panel.chips.text()


def test_corpus_panel_warns_when_the_marker_is_also_a_letter_of_the_text(qtbot):
    session = Session(Lesson("snake_case snake_case low", settings=Settings(end_of_word="_")).train())
    panel = CorpusPanel(session)
    qtbot.addWidget(panel)
    assert "marker _ also appears inside words" in panel.hint.text()
    assert panel.hint.property("problem") is True
    session.set_lesson(Lesson("snake case snake case").train())
    assert "marker" not in panel.hint.text() and panel.hint.property("problem") is False


def test_after_training_stops_no_pair_is_next_anywhere(qtbot):
    from widgets.charts.pair_data import step_caption, top_pairs
    from widgets.classroom.predict import question_for
    from widgets.models.pairs import TIE

    session = Session(Lesson("tea tea team teams steam seat", settings=Settings(end_of_word=None)).train())
    panel = PairsPanel(session)
    qtbot.addWidget(panel)
    model = panel.model
    session.request_step(2)
    # before the end the pair that merges next is starred and named
    assert panel.heading.text() == "Next: tea + m, 3 times"
    assert model.index(0, TIE).data() == "★ next"
    for step in (session.last_step, session.last_step + 5):
        session.request_step(step)
        assert session.state.next_step() is None
        # pairs are left (each occurs once), but training stopped: the panel says why, not what is next
        assert model.rowCount() > 0 and model.count_at(0) == 1
        assert panel.heading.text() == "Training stopped: no pair repeats (every pair left occurs only once)."
        assert "Next" not in panel.heading.text() + panel.count_label.text()
        assert not any("next" in model.index(r, TIE).data() or "1st" in model.index(r, TIE).data()
                       for r in range(model.rowCount()))
        assert not any(bar.winner for bar in top_pairs(session.state, 10))
        assert "training stopped here" in step_caption(session.state, top_pairs(session.state, 10))
        assert question_for(session) is None
    session.request_step(0)
    assert panel.heading.text().startswith("Next: e + a, 6 times")
    assert model.index(0, TIE).data() == "★ next"


def test_the_vocab_headline_is_the_engine_size_at_every_step(qtbot):
    from engine.readable.describe import describe_vocab

    lesson = Lesson("low 5\nlower 2\nnewest 6\nwidest 3\n", word_counts=True,
                    settings=Settings(special_tokens=("<|endoftext|>",))).train()
    session = Session(lesson)
    panel = VocabPanel(session)
    qtbot.addWidget(panel)
    for k in (0, 1, 7, lesson.last_step, 3):
        session.request_step(k)
        size = lesson.history.vocab(k)
        assert panel.heading.text() == describe_vocab(lesson.settings, size)
        assert panel.heading.text().startswith(f"{lesson.history.vocab_size(k)} tokens (")
        assert size.total == 11 + k + 2  # base symbols, one per merge here, <|endoftext|> and <unk>


def test_the_pairs_heading_counts_every_tied_pair_not_only_those_listed(qtbot):
    # 150 two-letter words, each once: all 150 pairs tie at the first merge, past the 100 rows listed
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = " ".join(a + b for a in letters for b in letters)[: 150 * 3 - 1]
    session = Session(Lesson(words, settings=Settings(end_of_word=None, min_frequency=1, merges=3)))
    panel = PairsPanel(session)
    qtbot.addWidget(panel)
    following = session.state.next_step()
    assert following.tie_count == 150 > panel.model.rowCount()
    assert panel.shown().heading == "Next: a + a, once (tie of 150)"
