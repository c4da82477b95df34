"""The class vote driven as a teacher does, on 127.0.0.1: V starts it, phones vote over HTTP, → reveals,
R votes again, leaving the mode or closing the window stops the server; a busy port says why."""

from __future__ import annotations

import csv
import json
import secrets
import socket
import urllib.error
import urllib.request

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from widgets.classroom import ASKING, REVEALED
from widgets.quiz.session_link import quiz_view
from widgets.tiles import TileView

from .vote_client import ports_held

# a real window in classroom mode with a server thread: run by .ci/run, left out of the quick part
pytestmark = pytest.mark.slow

K = Qt.Key
VIEWS = [("Tiles", TileView), ("Quiz", quiz_view)]


def free_port() -> int:
    # ten free ports in a row: a start may move up from a busy first one
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port < 65000 and all(_free(p) for p in range(port, port + 10)):
            return port


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def window(make_window, qtbot, monkeypatch):
    monkeypatch.setattr("app.classroom._screen_fit", lambda window: 1.0)
    w = make_window(views=VIEWS)
    w.show()
    qtbot.waitExposed(w)
    vote = w.classroom.class_vote
    vote.host, vote.port = "127.0.0.1", free_port()
    return w


def press(qtbot, w, key):
    qtbot.keyClick(w, key)
    QApplication.processEvents()


def predicting(qtbot, w):
    press(qtbot, w, K.Key_F5)
    press(qtbot, w, K.Key_A)
    assert w.classroom.prompt_state == ASKING
    return w.classroom.class_vote


def cast(vote, answer, voter=None):
    """One phone's vote over HTTP, as the page sends it."""
    body = json.dumps({"code": vote.session.room_code, "voter": voter or secrets.token_urlsafe(16),
                       "qid": vote.question.qid, "answer": answer}).encode()
    request = urllib.request.Request(f"{vote.address}/api/vote", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as reply:
        assert reply.status == 200


def test_v_starts_the_vote_and_v_again_ends_it(window, qtbot):
    vote = predicting(qtbot, window)
    assert not listening(vote.port)  # nothing listens before the teacher asks
    press(qtbot, window, K.Key_V)
    assert vote.running and listening(int(vote.address.rsplit(":", 1)[1]))
    assert vote.join_shown and vote.session.room_code in vote._join.text().replace(" ", "")
    assert vote.question is not None and vote.question.kind == "pair" and vote.round_open
    press(qtbot, window, K.Key_J)
    assert not vote.join_shown
    press(qtbot, window, K.Key_V)
    assert not vote.running and not listening(vote.port)
    assert window.classroom.active and window.classroom.prompt_state == ASKING  # the lesson goes on


def test_votes_count_live_then_reveal_and_vote_again(window, qtbot):
    vote = predicting(qtbot, window)
    press(qtbot, window, K.Key_V)
    press(qtbot, window, K.Key_J)
    winner = vote.question.correct[0]
    wrong = next(o.key for o in vote.question.options if o.key != winner)
    voters = [secrets.token_urlsafe(16) for _ in range(5)]
    for voter, answer in zip(voters, [winner, winner, wrong, wrong, wrong]):
        cast(vote, answer, voter)
    qtbot.waitUntil(lambda: vote._count is not None and vote._count.voted == 5, timeout=5000)
    assert "5 voted" in vote._count.text() and not vote._count.isHidden()

    press(qtbot, window, K.Key_Right)  # the reveal: the prompt's answer and the class's bars
    assert window.classroom.prompt_state == REVEALED and vote.reveal_shown and not vote.round_open
    chart = vote._chart.text()
    labels = {o.key: o.label for o in vote.question.options}
    assert f"{labels[winner]}  ✔ right:  2 (40%)" in chart and f"{labels[wrong]}:  3 (60%)" in chart
    assert vote._count.isHidden()
    with pytest.raises(urllib.error.HTTPError) as refused:
        cast(vote, winner)  # the round is closed
    assert refused.value.code == 409

    press(qtbot, window, K.Key_R)  # after discussion: round 2 on the same question
    assert vote.round_open and not vote.reveal_shown and window.classroom.prompt_state == ASKING
    for voter in voters:
        cast(vote, winner, voter)
    press(qtbot, window, K.Key_Right)
    chart = vote._chart.text()
    assert "Round 1: 5 votes   Round 2: 5 votes" in chart
    assert f"{labels[winner]}  ✔ right:  2 (40%)   5 (100%)" in chart
    press(qtbot, window, K.Key_R)  # a third round: the reveal sets the last two side by side
    cast(vote, wrong, voters[0])
    press(qtbot, window, K.Key_Right)
    chart = vote._chart.text()
    assert "Round 2: 5 votes   Round 3: 1 vote" in chart and "Round 1" not in chart

    merged = window.session.step
    press(qtbot, window, K.Key_Right)  # → merges as today; phones get the next question
    assert window.session.step == merged + 1
    qtbot.waitUntil(lambda: window.classroom.prompt_state == ASKING, timeout=5000)  # once the merge has played
    assert vote.question is not None and vote.question.qid == f"merge-{merged + 2}" and vote.round_open
    assert not vote.reveal_shown
    rows = vote.results()
    assert {(r.round, r.option, r.count) for r in rows if r.qid == f"merge-{merged + 1}"} >= {
        (1, labels[winner], 2), (2, labels[winner], 5), (3, labels[wrong], 1)}


def test_leaving_the_mode_stops_the_server_and_keeps_the_results(window, qtbot, tmp_path):
    vote = predicting(qtbot, window)
    press(qtbot, window, K.Key_V)
    port = int(vote.address.rsplit(":", 1)[1])
    cast(vote, vote.question.correct[0])
    press(qtbot, window, K.Key_Right)
    assert not window.vote_export_action.isEnabled() or vote.results()
    press(qtbot, window, K.Key_Escape)
    assert not window.classroom.active and not vote.running and not listening(port)
    assert window.vote_export_action.isEnabled()

    from app.vote_export import export_vote_results

    path = export_vote_results(window, tmp_path / "votes")
    assert path == tmp_path / "votes.csv"
    table = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    assert table[0] == ["question", "question_id", "round", "option", "count", "correct"]
    right = [row for row in table[1:] if row[5] == "yes"]
    assert len(right) == 1 and right[0][1:5] == ["merge-1", "1", right[0][3], "1"]
    assert sum(int(row[4]) for row in table[1:]) == 1
    assert "voter" not in path.read_text(encoding="utf-8")


def test_closing_the_window_stops_the_server(window, qtbot):
    vote = predicting(qtbot, window)
    press(qtbot, window, K.Key_V)
    port = int(vote.address.rsplit(":", 1)[1])
    assert listening(port)
    window.close()
    assert not vote.running and not listening(port)


def test_quitting_the_application_stops_the_server(window, qtbot, qapp):
    vote = predicting(qtbot, window)
    press(qtbot, window, K.Key_V)
    port = int(vote.address.rsplit(":", 1)[1])
    server = vote.server
    with qtbot.waitSignal(server.stopped):
        qapp.aboutToQuit.emit()
    assert not listening(port) and not server.running


def test_a_busy_port_says_why_in_one_line_and_predict_first_goes_on(window, qtbot):
    vote = window.classroom.class_vote
    vote.port, blockers = ports_held(10)
    try:
        predicting(qtbot, window)
        press(qtbot, window, K.Key_V)
        assert not vote.running
        notice = window.classroom.band.notice
        assert notice.startswith("Class vote not started:") and "\n" not in notice
        assert str(vote.port) in notice
        assert notice in window.classroom.band.text()
        press(qtbot, window, K.Key_Right)
        assert window.classroom.prompt_state == REVEALED
        press(qtbot, window, K.Key_Right)
        qtbot.waitUntil(lambda: window.classroom.prompt_state == ASKING, timeout=5000)  # the next merge's question
    finally:
        for s in blockers:
            s.close()


def test_the_quiz_on_screen_is_the_question_phones_get(window, qtbot):
    vote = window.classroom.class_vote
    press(qtbot, window, K.Key_F5)
    press(qtbot, window, K.Key_V)
    assert vote.question is None  # the tiles ask nothing without predict first: phones wait
    quiz = window.views["Quiz"]
    window.tabs.setCurrentWidget(quiz)
    QApplication.processEvents()
    asked = quiz.current_question()
    assert asked is not None and vote.question is not None and vote.question.qid == f"quiz-{asked.id}"
    assert vote.round_open
    if vote.question.options:
        cast(vote, vote.question.options[0].key if vote.question.kind != "multi" else [vote.question.options[0].key])
    press(qtbot, window, K.Key_Right)  # → is the vote's while its round is open on the quiz
    assert vote.reveal_shown and not vote.round_open
    press(qtbot, window, K.Key_Right)
    assert not vote.reveal_shown
    quiz.next_question()
    QApplication.processEvents()
    assert vote.question is not None and vote.question.qid == f"quiz-{quiz.current_question().id}" and vote.round_open


def phone_state(vote) -> dict:
    query = f"code={vote.session.room_code}&voter={'p' * 16}"
    with urllib.request.urlopen(f"{vote.address}/api/state?{query}", timeout=5) as reply:
        return json.loads(reply.read())


def test_phones_follow_the_lesson(window, qtbot):
    vote = predicting(qtbot, window)
    press(qtbot, window, K.Key_V)
    state = phone_state(vote)
    assert (state["status"], state["question"]["qid"], state["round"]) == ("open", "merge-1", 1)
    assert "correct" not in state["question"]
    assert vote.join_shown
    press(qtbot, window, K.Key_Right)
    assert phone_state(vote)["status"] == "closed" and vote.reveal_shown and not vote.join_shown
    press(qtbot, window, K.Key_R)
    assert (phone_state(vote)["status"], phone_state(vote)["round"]) == ("open", 2)
    press(qtbot, window, K.Key_A)  # predict first off: nothing is asked, phones wait
    assert phone_state(vote)["status"] == "waiting" and phone_state(vote)["question"] is None


def test_the_menu_entry_enters_the_mode_and_starts_the_vote(window, qtbot):
    vote = window.classroom.class_vote
    view_menu = next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "View")
    assert vote.action in view_menu.actions()
    vote.action.trigger()
    assert window.classroom.active and vote.running and vote.action.isChecked()
    vote.action.trigger()
    assert not vote.running and not vote.action.isChecked() and window.classroom.active
