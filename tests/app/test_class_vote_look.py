"""The join screen, the live count and the reveal read from the back of a room: on a 1280x720 and a
1024x768 projector in classroom mode, every text they paint is 24 px or more at 7:1 or more, the QR
code is the address's modules on white with its quiet zone, and the right answer is marked in words."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QImage

from app.commands.snapshot import enter_classroom, settle, wait_until
from tests.app.painted_text import painted_contrast, pixel_size, window_rect
from tests.app.test_class_vote import VIEWS, free_port
from widgets.classroom import ASKING
from widgets.classroom.vote_join import QUIET_ZONE, qr_matrix
from widgets.classroom.vote_reveal import RIGHT_WORD

# a window per projector size, with a server: run by .ci/run, left out of the quick part
pytestmark = pytest.mark.slow

LEAST_PX, LEAST_CONTRAST = 24, 7.0


def unreadable(cover, image: QImage, top) -> list[str]:
    found = []
    for text, rect, font in cover.painted:
        if not text.strip():
            continue
        px = pixel_size(font)
        contrast = painted_contrast(image, window_rect(cover, top, rect))
        if px < LEAST_PX or contrast < LEAST_CONTRAST:
            found.append(f"{text!r}: {px} px, {contrast:.1f}:1")
    return found


def dark(image: QImage, x: float, y: float) -> bool:
    c = image.pixelColor(int(x), int(y))
    return c.red() + c.green() + c.blue() < 3 * 128


@pytest.fixture(params=[(1280, 720), (1024, 768)], ids=["1280x720", "1024x768"])
def projector(request, make_window, tmp_path):
    w = make_window(views=VIEWS)
    w.show()
    settle()
    enter_classroom(w, request.param)
    vote = w.classroom.class_vote
    vote.host, vote.port = "127.0.0.1", free_port()
    w.classroom.set_predict_first(True)
    wait_until(lambda: w.classroom.prompt_state == ASKING, 5_000)
    vote.start()
    settle()
    yield w, vote, request.param, tmp_path
    vote.end()


def test_the_join_screen_reads_and_its_code_is_the_address(projector):
    w, vote, size, folder = projector
    image = w.grab().toImage()
    image.save(str(folder / f"join-{size[0]}x{size[1]}.png"))
    join = vote._join
    assert join.size().width() <= size[0] and unreadable(join, image, w) == []
    assert {text for text, _r, _f in join.painted} >= {vote.address, " ".join(vote.session.room_code)}
    square = window_rect(join, w, join.qr_square)
    matrix = qr_matrix(vote.address)
    modules = len(matrix) + 2 * QUIET_ZONE
    step = square.width() / modules
    assert step >= 4  # a phone across the room needs modules of a few pixels at least
    for r in range(modules):
        for c in range(modules):
            inside = QUIET_ZONE <= r < modules - QUIET_ZONE and QUIET_ZONE <= c < modules - QUIET_ZONE
            want = inside and matrix[r - QUIET_ZONE][c - QUIET_ZONE]
            assert dark(image, square.left() + (c + 0.5) * step, square.top() + (r + 0.5) * step) == want, (r, c)


def test_the_count_and_the_reveal_read_in_both_rounds(projector, qtbot):
    w, vote, size, folder = projector
    vote.toggle_join()
    q = vote.question
    keys = [o.key for o in q.options]
    for i in range(7):
        vote.session.vote(vote.session.room_code, f"voter-{i:012d}", q.qid, keys[i % len(keys)])
    qtbot.waitUntil(lambda: vote._count is not None and vote._count.voted == 7, timeout=5000)
    settle()
    counter = vote._count
    assert pixel_size(counter.count_font()) >= LEAST_PX and "7 voted" in counter.text()
    assert counter.geometry().right() < size[0] and counter.geometry().top() >= 0

    w.classroom.next()
    settle()
    w.classroom.vote_again()
    for i in range(9):
        vote.session.vote(vote.session.room_code, f"voter-{i:012d}", q.qid, q.correct[0])
    w.classroom.next()
    settle()
    image = w.grab().toImage()
    image.save(str(folder / f"reveal-{size[0]}x{size[1]}.png"))
    chart = vote._chart
    assert unreadable(chart, image, w) == []
    texts = [text for text, _r, _f in chart.painted]
    assert "Round 1: 7 votes" in texts and "Round 2: 9 votes" in texts
    assert f"  {RIGHT_WORD}" in texts  # the right answer in a word, not a colour alone
    assert pixel_size(chart.tiles.tile_font) >= LEAST_PX
    # the chart stops above the prompt's answer band, which stays in sight
    prompt = w.classroom.prompt
    assert window_rect(chart, w).bottom() <= window_rect(prompt, w).top()
    for row, _bar in chart.rows:
        assert window_rect(chart, w, row).bottom() <= window_rect(chart, w).bottom()
