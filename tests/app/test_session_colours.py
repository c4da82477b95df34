"""An edit that trains the lesson again leaves every tile it keeps in the colour it had; an opened
text is coloured once, by the worker that trained it."""

from engine.readable.display import for_settings
from engine.readable.tile_colours import FILLED_KINDS, Colouring, colouring_of, colours_shown
from app.session import DEFAULT_TEXT, Session
from resources.presets import python_docs_text


def colours(session: Session) -> dict[str, int]:
    lesson = session.lesson
    display, ids = for_settings(lesson.settings), lesson.tokenizer.token_to_id
    return {t: colouring_of(lesson).colour(ids(t)) for tokens in lesson.history.tokens_at(session.step)
            for t in tokens if display.kind(t) in FILLED_KINDS}


def test_adding_an_unrelated_word_keeps_every_tiles_colour(qtbot):
    session = Session()
    session.request_step(session.last_step)
    before = colours(session)
    session.request_corpus(DEFAULT_TEXT + "quiz 1\n", True)
    qtbot.waitUntil(lambda: "quiz" in session.lesson.text and not session.training)
    session.request_step(session.last_step)
    after = colours(session)
    assert "q" in after and {t: after[t] for t in before} == before


def test_an_opened_text_arrives_coloured_with_the_colours_shown_before(qtbot, monkeypatch):
    session = Session()
    session.request_step(session.last_step)
    colours(session)  # as the tiles show them
    shown = colours_shown(session.lesson)
    merged = []
    monkeypatch.setattr(Colouring, "_merge", lambda self, step, merge=Colouring._merge: (merged.append(step), merge(self, step)))
    text = python_docs_text()[0][:30_000]  # large enough to train in the background
    session.open_text(text)
    qtbot.waitUntil(lambda: session.lesson.text == text and not session.training, timeout=20_000)
    worked_out = len(merged)
    session.request_step(session.last_step)
    lesson = session.lesson
    assert colouring_of(lesson).complete and worked_out == lesson.last_step
    assert len(merged) == worked_out  # the swap and the step coloured nothing again
    afresh = Colouring(lesson.history, for_settings(lesson.settings), shown)
    tokens = range(len(lesson.history.base) + lesson.last_step)
    assert [colouring_of(lesson).colour(i) for i in tokens] == [afresh.colour(i) for i in tokens]
