"""An edit that trains the lesson again leaves every tile it keeps in the colour it had."""

from engine.readable.display import for_settings
from engine.readable.tile_colours import FILLED_KINDS, colouring_of
from app.session import DEFAULT_TEXT, Session


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
