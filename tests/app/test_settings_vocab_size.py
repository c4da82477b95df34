"""A vocabulary size below the base vocabulary, asked for in the window, is refused with the base size."""

from dataclasses import replace

from app.session import Session


def test_a_vocab_size_below_the_base_is_reported_and_keeps_the_lesson(qtbot):
    session = Session()
    before = session.lesson.settings
    problems = []
    session.problem_reported.connect(problems.append)
    session.request_settings(replace(before, vocab_size=5))
    session.runner.wait()
    start = session.lesson.history.vocab_size(0)
    assert f"already holds {start}" in problems[-1] and f"ask for {start} or more" in problems[-1]
    assert "before this edit" in problems[-1]
    assert session.lesson.settings == before
    # the base size itself is a lesson of no merges
    session.request_settings(replace(before, vocab_size=start))
    session.runner.wait()
    assert session.lesson.settings.vocab_size == start and session.lesson.last_step == 0
