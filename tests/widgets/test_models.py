"""The item models pass Qt's own model checks and announce steps without resets."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QAbstractItemModelTester

from app.session import Session
from engine.lesson.lesson import Lesson
from widgets.models import PairsModel, VocabModel, WordsModel
from widgets.models.common import KeyRole, TokensRole, runs

Mode = QAbstractItemModelTester.FailureReportingMode


@pytest.fixture
def session(qtbot):
    return Session()


def checked(model):
    # Fatal: any broken rule of the model contract aborts the test run loudly
    model._tester = QAbstractItemModelTester(model, Mode.Fatal)
    return model


def walk(session):
    for k in (1, 2, 5, 3, 0, session.lesson.last_step, 4):
        session.request_step(k)


def test_runs_groups_neighbouring_rows():
    assert list(runs([1, 2, 3, 7, 9, 10])) == [(1, 3), (7, 7), (9, 10)]
    assert list(runs([])) == []


@pytest.mark.parametrize("kind", [WordsModel, PairsModel, VocabModel])
def test_models_pass_qt_checks_while_stepping_and_relearning(session, kind):
    model = checked(kind(session))
    walk(session)
    session.request_token_selection("es")
    session.set_lesson(Lesson("tea tea team teams steam seat").train(), 2)
    walk(session)
    session.set_lesson(Lesson("   "))  # an empty corpus: no rows, no crash
    assert model.rowCount() == 0
    session.set_lesson(Lesson("low 5\nlower 2", word_counts=True).train())
    walk(session)


def test_words_model_changes_only_the_words_a_merge_touched(session, qtbot):
    model = checked(WordsModel(session))
    resets, changed = [], []
    model.modelReset.connect(lambda: resets.append(1))
    model.dataChanged.connect(lambda a, b, roles: changed.append((a.row(), b.row())))
    session.request_step(1)  # e + s: in newest (row 2) and widest (row 3)
    assert not resets
    assert changed == [(2, 3)]
    assert model.index(2, 2).data() == "n · e · w · es · t · </w>"
    assert model.index(2, 3).data() == 6
    assert model.index(0, 1).data() == 5
    assert model.index(3, 0).data(TokensRole) == ["w", "i", "d", "es", "t", "</w>"]


def test_vocab_inserts_rows_going_forward_and_removes_them_going_back(session):
    model = checked(VocabModel(session))
    base = len(session.lesson.base_vocab)
    inserted, removed, resets = [], [], []
    model.rowsInserted.connect(lambda p, a, b: inserted.append((a, b)))
    model.rowsRemoved.connect(lambda p, a, b: removed.append((a, b)))
    model.modelReset.connect(lambda: resets.append(1))
    assert model.rowCount() == base + 1  # and <unk>
    session.request_step(3)
    assert inserted == [(base, base + 2)]
    assert [model.index(base + i, 1).data() for i in range(3)] == ["es", "est", "est</w>"]
    assert model.index(base + 1, 3).data() == "es + t"
    assert model.index(base, 4).data() == 9
    session.request_step(1)
    assert removed == [(base + 1, base + 2)]
    assert model.rowCount() == base + 2
    assert model.index(base + 1, 1).data() == "<unk>"
    assert not resets


def test_vocab_highlights_the_selected_token(session):
    model = checked(VocabModel(session))
    session.request_step(2)
    row = model.row_of("est")
    assert model.index(row, 1).data(Qt.ItemDataRole.BackgroundRole) is None
    seen = []
    model.dataChanged.connect(lambda a, b, roles: seen.append(a.row()))
    session.request_token_selection("est")
    assert row in seen
    assert model.index(row, 1).data(Qt.ItemDataRole.BackgroundRole) is not None


def test_vocab_rows_of_learned_tokens_are_those_shown_up_to_the_step(session):
    model = checked(VocabModel(session))
    session.request_step(session.last_step)
    for row in range(model.rowCount()):
        token = model.index(row, 1).data(KeyRole)
        assert model.row_of(token) == row
    learned = session.lesson.steps[-1].token
    session.request_step(session.last_step - 1)
    assert model.row_of(learned) is None  # not made yet at this step
    assert model.row_of(model.index(0, 1).data(KeyRole)) == 0


def test_pairs_show_ties_and_where_counts_come_from(session):
    model = checked(PairsModel(session))
    top = [(model.index(r, 1).data(), model.index(r, 2).data(), model.index(r, 3).data()) for r in range(3)]
    assert top == [("e + s", 9, "★ next, tie"), ("s + t", 9, "tie for 1st"), ("t + </w>", 9, "tie for 1st")]
    assert model.index(0, 4).data() == "newest ×6, widest ×3"
    resets = []
    model.modelReset.connect(lambda: resets.append(1))
    session.request_step(3)
    assert not resets
    assert model.index(0, 1).data() == "l + o"
    assert model.index(0, 2).data() == 7
    assert model.index(0, 4).data() == "low ×5, lower ×2"


def test_pair_sources_count_repeats_inside_a_word(qtbot):
    session = Session(Lesson("aaaa 3\nab 1", word_counts=True, held_out=""))
    model = checked(PairsModel(session))
    assert model.index(0, 1).data() == "a + a"
    assert model.index(0, 2).data() == 9
    assert model.index(0, 4).data() == "aaaa ×3 (3 times in it)"


def test_pairs_keep_their_sources_only_while_their_words_stay_the_same(qtbot):
    # the words share pairs, and merges touch some of them at each step: the sources kept from
    # one step to the next must read as those said afresh at every step, forward and back
    text = "lower 2\nlowest 3\nnewer 4\nwider 1\nslower 2\nnewest 5\nwidest 2\nlow 6\nnew 3\nerr 1\n"
    session = Session(Lesson(text, word_counts=True))
    model = PairsModel(session)
    for k in (1, 2, 3, 4, 6, 9, 5, 2, 7, session.lesson.last_step, 0, 3):
        session.request_step(k)
        fresh = PairsModel(session)
        assert [model.index(r, 4).data() for r in range(model.rowCount())] == \
            [fresh.index(r, 4).data() for r in range(fresh.rowCount())]


def test_vocab_lists_every_token_the_heading_counts_with_the_ids_of_the_step(session):
    """The special tokens and <unk> follow the regular tokens, their ids moving as merges are made."""
    from engine.algorithm.settings import Settings
    from engine.readable.describe import describe_vocab

    model = checked(VocabModel(session))
    session.set_lesson(Lesson("low low lower newest newest widest <|end|>",
                              settings=Settings(special_tokens=("<|end|>",))).train())
    for step in (0, 3, 1, session.lesson.last_step):
        session.request_step(step)
        rows = [[model.index(r, c).data() for c in (0, 1, 2)] for r in range(model.rowCount())]
        tokenizer = session.lesson.tokenizer_at(step)
        size = session.lesson.history.vocab(step)
        assert f"{model.rowCount()} tokens" in describe_vocab(session.lesson.settings, size)
        regular = len(session.lesson.base_vocab) + size.learned
        assert rows[-2:] == [[regular, "<|end|>", "special"], [regular + 1, "<unk>", "unknown"]]
        assert model.row_of("<unk>") == model.rowCount() - 1
        assert tokenizer.token_to_id("<unk>") == regular + 1 and tokenizer.token_to_id("<|end|>") == regular
    session.request_step(0)
    assert model.row_of("es") is None  # a merge not made yet has no row, however long the table
    assert "unknown token" in model.index(model.rowCount() - 1, 1).data(Qt.ItemDataRole.ToolTipRole)


def test_the_vocabulary_panel_says_what_the_unknown_token_is_when_it_is_clicked(session, qtbot):
    from widgets.vocab_panel import VocabPanel

    panel = VocabPanel(session)
    qtbot.addWidget(panel)
    session.request_token_selection("<unk>")
    assert panel.tree.text().startswith("<unk>: the unknown token")
    assert not panel.tree_area.isVisible()
