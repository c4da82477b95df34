import threading

import pytest

from engine.errors import BpeLabError
from engine.vote.ballot import (MAX_VOTERS, BadBallot, NoSuchOption, RoomFull, RoundClosed, StaleQuestion,
                                VoteRefused, VoteSession, VoteStateError, WrongRoomCode, new_room_code)

from .questions import CHOOSE, FILL, MULTI, NUMBER, ORDER, PAIR

CODE = "4821"
ALICE, BOB, CAROL = "a" * 16, "b" * 20, "C-_9" * 16


def session_on(question, code=CODE):
    session = VoteSession(code)
    session.show(question)
    session.open_round()
    return session


def test_the_room_code_is_four_random_digits():
    codes = {new_room_code() for _ in range(200)}
    assert all(len(c) == 4 and c.isdigit() for c in codes) and len(codes) > 100
    assert VoteSession().room_code.isdigit()


def test_every_refusal_is_a_vote_refused_told_apart_by_class():
    for cls in (WrongRoomCode, RoundClosed, StaleQuestion, NoSuchOption, BadBallot, RoomFull):
        assert issubclass(cls, VoteRefused) and issubclass(VoteRefused, BpeLabError)
    assert issubclass(StaleQuestion, RoundClosed)


@pytest.mark.parametrize("code", ["4820", "", None, 4821, "48210", " 4821"])
def test_a_wrong_room_code_is_refused_and_nothing_counted(code):
    session = session_on(PAIR)
    with pytest.raises(WrongRoomCode):
        session.vote(code, ALICE, "merge-1", "0")
    assert session.tally().voters == 0


@pytest.mark.parametrize("voter", ["short", "a" * 65, "a" * 15 + "!", None, 12345678901234567890, "a" * 15 + "é"])
def test_a_voter_token_outside_16_to_64_letters_digits_dash_underscore_is_refused(voter):
    session = session_on(PAIR)
    with pytest.raises(BadBallot):
        session.vote(CODE, voter, "merge-1", "0")
    assert session.tally().voters == 0


def test_pair_and_choose_take_one_offered_key():
    session = session_on(PAIR)
    session.vote(CODE, ALICE, "merge-1", "0")
    session.vote(CODE, BOB, "merge-1", "2")
    for wrong in ("3", "e + s", ""):
        with pytest.raises(NoSuchOption):
            session.vote(CODE, CAROL, "merge-1", wrong)
    for shape in (0, ["0"], None, {"key": "0"}):
        with pytest.raises(BadBallot):
            session.vote(CODE, CAROL, "merge-1", shape)
    tally = session.tally()
    assert tally.voters == 2 and tally.counts == {"0": 1, "1": 0, "2": 1}
    assert [r.correct for r in tally.rows] == [True, False, False]
    session.show(CHOOSE)
    session.open_round()
    session.vote(CODE, ALICE, "quiz-1", "1")
    assert session.tally().counts == {"0": 0, "1": 1}


def test_multi_takes_offered_keys_each_once_and_counts_each_option_chosen():
    session = session_on(MULTI)
    session.vote(CODE, ALICE, "quiz-2", ["1", "0"])
    session.vote(CODE, BOB, "quiz-2", ["1"])
    session.vote(CODE, CAROL, "quiz-2", [])  # choosing none is an answer too
    with pytest.raises(NoSuchOption):
        session.vote(CODE, CAROL, "quiz-2", ["0", "9"])
    with pytest.raises(BadBallot):
        session.vote(CODE, CAROL, "quiz-2", ["0", "0"])
    with pytest.raises(BadBallot):
        session.vote(CODE, CAROL, "quiz-2", "0")
    tally = session.tally()
    assert tally.voters == 3 and tally.counts == {"0": 1, "1": 2, "2": 0}
    assert session.phone_state(ALICE)["mine"] == ["0", "1"]  # in the options' order
    assert session.phone_state(CAROL)["mine"] == []


def test_order_takes_every_key_once_and_counts_each_ordering():
    session = session_on(ORDER)
    session.vote(CODE, ALICE, "quiz-5", ["0", "1", "2"])
    session.vote(CODE, BOB, "quiz-5", ["1", "0", "2"])
    session.vote(CODE, CAROL, "quiz-5", ["0", "1", "2"])
    for shape in (["0", "1"], ["0", "1", "1"], "012", ["0", "1", "2", "2"]):
        with pytest.raises(BadBallot):
            session.vote(CODE, "d" * 16, "quiz-5", shape)
    with pytest.raises(NoSuchOption):
        session.vote(CODE, "d" * 16, "quiz-5", ["0", "1", "3"])
    rows = session.tally().rows
    assert [(r.key, r.label, r.count, r.correct) for r in rows] == [
        ("0,1,2", "e s → es t → est </w>", 2, True), ("1,0,2", "es t → e s → est </w>", 1, False)]


def test_number_takes_a_finite_number_of_at_most_20_characters_and_counts_equal_values_together():
    session = session_on(NUMBER)
    session.vote(CODE, ALICE, "quiz-3", 95)
    session.vote(CODE, BOB, "quiz-3", 95.0)
    session.vote(CODE, CAROL, "quiz-3", " 2.5 ")
    session.vote(CODE, "d" * 16, "quiz-3", "-3")
    for wrong in ("many", "nan", "inf", float("inf"), float("nan"), True, None, [95], "1" * 21, 10 ** 21, "1_000", ""):
        with pytest.raises(BadBallot):
            session.vote(CODE, "e" * 16, "quiz-3", wrong)
    rows = session.tally().rows
    assert [(r.label, r.count, r.correct) for r in rows] == [("95", 2, True), ("-3", 1, False), ("2.5", 1, False)]
    assert session.phone_state(ALICE)["mine"] == 95 and session.phone_state(CAROL)["mine"] == 2.5


def test_fill_takes_up_to_60_characters_counted_stripped_and_casefolded():
    session = session_on(FILL)
    session.vote(CODE, ALICE, "quiz-4", "</W>")
    session.vote(CODE, BOB, "quiz-4", "  </w> ")
    session.vote(CODE, CAROL, "quiz-4", "End of Word")
    session.vote(CODE, "d" * 16, "quiz-4", "x" * 60)
    for wrong in ("x" * 61, "   ", "", 5, None, ["</w>"]):
        with pytest.raises(BadBallot):
            session.vote(CODE, "e" * 16, "quiz-4", wrong)
    rows = session.tally().rows
    assert [(r.label, r.count, r.correct) for r in rows] == [
        ("</w>", 2, True), ("end of word", 1, True), ("x" * 60, 1, False)]
    assert session.phone_state(BOB)["mine"] == "</w>"


def test_a_voter_may_change_their_vote_until_the_round_closes_and_the_last_counts():
    session = session_on(PAIR)
    session.vote(CODE, ALICE, "merge-1", "0")
    session.vote(CODE, ALICE, "merge-1", "1")
    session.vote(CODE, BOB, "merge-1", "1")
    assert session.phone_state(ALICE)["mine"] == "1"
    closed = session.close_round()
    assert closed.counts == {"0": 0, "1": 2, "2": 0} and closed.voters == 2 and not closed.is_open
    with pytest.raises(RoundClosed):
        session.vote(CODE, ALICE, "merge-1", "0")
    with pytest.raises(RoundClosed):
        session.vote(CODE, CAROL, "merge-1", "0")
    assert session.tally() == closed
    assert session.phone_state(ALICE) == {"version": session.version, "status": "closed",
                                          "question": PAIR.to_json(), "round": 1, "mine": "1"}


def test_vote_again_opens_round_two_from_nothing_and_keeps_round_one():
    session = session_on(PAIR)
    session.vote(CODE, ALICE, "merge-1", "1")
    session.vote(CODE, BOB, "merge-1", "1")
    session.close_round()
    assert session.open_round() == 2
    assert session.open_round() == 2  # pressed twice: still the one round
    assert session.tally().round == 2 and session.tally().voters == 0
    assert session.phone_state(ALICE)["mine"] is None and session.phone_state(ALICE)["round"] == 2
    session.vote(CODE, ALICE, "merge-1", "0")
    session.close_round()
    first, second = session.round_tallies()
    assert (first.round, first.counts) == (1, {"0": 0, "1": 2, "2": 0})
    assert (second.round, second.counts) == (2, {"0": 1, "1": 0, "2": 0})


def test_a_vote_for_a_question_no_longer_shown_is_stale():
    session = session_on(PAIR)
    session.show(CHOOSE)
    session.open_round()
    with pytest.raises(StaleQuestion):
        session.vote(CODE, ALICE, "merge-1", "0")
    session.show(None)
    with pytest.raises(StaleQuestion):
        session.vote(CODE, ALICE, "quiz-1", "0")
    with pytest.raises(BadBallot):
        session.vote(CODE, ALICE, 7, "0")


def test_before_a_round_opens_phones_wait_and_votes_are_refused():
    session = VoteSession(CODE)
    assert session.phone_state(ALICE) == {"version": 0, "status": "waiting", "question": None, "round": None,
                                          "mine": None}
    with pytest.raises(VoteStateError):
        session.open_round()
    session.show(PAIR)
    assert session.phone_state(ALICE)["status"] == "waiting"
    with pytest.raises(RoundClosed):
        session.vote(CODE, ALICE, "merge-1", "0")
    assert session.tally().round == 0 and session.tally().counts == {"0": 0, "1": 0, "2": 0}


def test_the_version_moves_on_every_change_a_phone_sees_and_not_on_votes():
    session = VoteSession(CODE)
    seen = [session.version]
    session.show(PAIR)
    seen.append(session.version)
    session.open_round()
    seen.append(session.version)
    session.vote(CODE, ALICE, "merge-1", "0")
    assert session.version == seen[-1]
    session.close_round()
    seen.append(session.version)
    session.close_round()  # nothing open: no change
    assert session.version == seen[-1]
    session.show(None)
    seen.append(session.version)
    assert seen == sorted(set(seen))


def test_showing_the_question_already_shown_keeps_its_round_open():
    session = session_on(PAIR)
    session.vote(CODE, ALICE, "merge-1", "2")
    version = session.version
    session.show(PAIR)
    assert session.version == version and session.tally().is_open and session.tally().voters == 1
    session.show(None)
    version = session.version
    session.show(None)
    assert session.version == version


def test_moving_on_closes_the_open_round_and_coming_back_continues_its_rounds():
    session = session_on(PAIR)
    session.vote(CODE, ALICE, "merge-1", "2")
    session.show(CHOOSE)
    session.show(PAIR)
    assert session.phone_state(ALICE)["status"] == "closed"
    assert session.open_round() == 2
    changed = PAIR.__class__(PAIR.qid, PAIR.kind, "Which pair now?", PAIR.options, ("1",))
    session.show(changed)  # the lesson changed under the same id: a new question
    assert session.open_round() == 1


def test_results_list_every_round_of_every_question_with_counts_only():
    session = session_on(PAIR)
    session.vote(CODE, ALICE, "merge-1", "1")
    session.close_round()
    session.open_round()
    session.vote(CODE, ALICE, "merge-1", "0")
    session.show(FILL)
    session.open_round()
    session.vote(CODE, BOB, "quiz-4", "End of word")
    rows = session.results()
    assert [(r.qid, r.round, r.option, r.count, r.correct) for r in rows] == [
        ("merge-1", 1, "e + s", 0, True), ("merge-1", 1, "s + t", 1, False), ("merge-1", 1, "t + </w>", 0, False),
        ("merge-1", 2, "e + s", 1, True), ("merge-1", 2, "s + t", 0, False), ("merge-1", 2, "t + </w>", 0, False),
        ("quiz-4", 1, "end of word", 1, True)]
    assert all(ALICE not in str(r) and BOB not in str(r) for r in rows)


def test_a_script_inventing_voters_is_stopped_at_the_bound():
    session = session_on(CHOOSE)
    for i in range(MAX_VOTERS):
        session.vote(CODE, f"voter{i:012d}", "quiz-1", "0")
    with pytest.raises(RoomFull):
        session.vote(CODE, "one-too-many-0000", "quiz-1", "0")
    session.vote(CODE, "voter000000000007", "quiz-1", "1")  # a voter already counted may still change
    assert session.tally().voters == MAX_VOTERS


def test_votes_from_many_threads_are_each_counted_once():
    session = session_on(CHOOSE)

    def cast(start):
        for i in range(start, start + 250):
            session.vote(CODE, f"voter{i:012d}", "quiz-1", str(i % 2))

    threads = [threading.Thread(target=cast, args=(k * 250,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert session.tally().counts == {"0": 500, "1": 500}
