"""Every view that shows a number or a token agrees with the engine, at every step of every move.

The real window is driven through the session's intents (step forward and back, jumps, Play, undo
and redo of an edit, a preset, a cancelled training) on the classic words, the tea words, the
bytes-level code preset and the Python documentation. After each move, what each view shows (read
through its ``shown()`` accessor: label texts, the models' displayed cells, the chart read-outs)
is held against the lesson's history index, the one answer to every "at step k" question:
``total_tokens(k)``, ``vocab(k)`` in ``describe_vocab``'s wording, ``next_merge(k)`` with its
count and ties (none once training stopped), ``word_tokens(w, k)``. Hidden tabs are shown before
they are read: they catch up when shown. The handout's summary lines are held against the views.
"""

from __future__ import annotations

import random
import re

import pytest

from widgets.handout import growth_summary, merge_sentence, vocab_summary
from engine.algorithm.bytelevel import symbols_to_bytes
from engine.readable.describe import describe_position, describe_stop, describe_vocab, tie_rule_sentence, times
from engine.readable.display import for_settings

# every view of whole real corpora compared: run by .ci/run, left out of the quick part (-m "not slow")
pytestmark = pytest.mark.slow

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"
# what the corpus panel says in place of its summary after a cancelled training
STOPPED = "Training stopped: the panels still show the lesson before this change."
# a fast Play: the merge film still runs (two thirds of a step), the test stays short
PLAY_MS = 30


@pytest.fixture
def window(make_window, qtbot):
    w = make_window()
    w.show()
    qtbot.waitExposed(w)
    quiz = w.views["Quiz"]
    quiz.set_source("lesson")
    return w


# -- the engine's one answer ----------------------------------------------------------------------


class Answer:
    """What every view must say at the session's step, from the history index alone."""

    def __init__(self, session):
        self.lesson = lesson = session.lesson
        self.history = history = lesson.history
        self.settings = lesson.settings
        self.display = for_settings(lesson.settings)
        self.step = session.step
        self.last = history.last_step
        self.total = history.total_tokens(self.step)
        self.start = history.total_tokens(0)
        self.vocab = describe_vocab(lesson.settings, history.vocab(self.step))
        self.vocab_size = history.vocab_size(self.step)
        self.next = history.next_merge(self.step)
        # counting every pair afresh at each check is quick for a small corpus only
        self.small = history.distinct_symbols() < 5_000

    def pair(self, pair) -> str:
        return f"{self.display.token(pair[0])} + {self.display.token(pair[1])}"

    def tiles(self, w: int) -> tuple[str, ...]:
        return tuple(self.display.token(t) for t in self.history.word_tokens(w, self.step))


# -- each view against it -------------------------------------------------------------------------


def check_timeline(window, a: Answer) -> None:
    shown = window.timeline.shown()
    assert shown.step_label == f"Step {a.step} of {a.last}"
    assert (shown.slider, shown.slider_last) == (a.step, a.last)
    assert not shown.training
    assert shown.status == describe_position(a.lesson, a.step)
    if a.step:
        assert f"it appeared {times(a.history.steps[a.step - 1].count)}" in shown.status
    if a.next is None:
        assert describe_stop(a.lesson.stop_reason, a.settings.min_frequency) in shown.status


def check_tiles(window, a: Answer) -> None:
    view = window.views["Tiles"]
    window.tabs.setCurrentWidget(view)
    canvas = view.canvas
    shown = view.shown()
    first = re.fullmatch(r"Step (\d+) of (\d+) · ([\d,]+) tokens in the corpus \(from ([\d,]+)\)(?: · selected: .*)?",
                         shown.caption[0])
    assert first, shown.caption
    step, last, total, start = (int(g.replace(",", "")) for g in first.groups())
    assert (step, last, start) == (a.step, a.last, a.start)
    t = canvas.transition
    if t is None:
        assert total == a.total
    else:
        # mid-merge the number follows the film: it changes when the tiles fuse
        film = t.step.step if t.fused else t.step.step - 1
        assert total == a.history.total_tokens(film)
        assert a.step in (t.step.step, t.step.step - 1)
    second = shown.caption[1] if len(shown.caption) > 1 else ""
    if t is not None:
        assert "Next merge" not in second
    elif a.next is None:
        assert "Next merge" not in second and "Done" in second
    else:
        head = f"Next merge: {a.pair(a.next.pair)} ×{a.next.count:,} (framed)"
        assert second.startswith(head), second
        others = a.history.ties(a.step)[1:]
        if others:
            listed = ", ".join(f"({n}) {a.pair(p)}" for n, p in enumerate(others[:4], 1))
            more = f" and {len(others) - 4} more" if len(others) > 4 else ""
            assert f"tied with {listed}{more} (numbered brackets below the tiles)" in second
        else:
            assert "tied" not in second
    assert shown.rows, "some rows are in view"
    for w, tiles in shown.rows:
        assert tiles == a.tiles(w), (w, tiles)


def check_pairs_panel(window, a: Answer) -> None:
    shown = window.pairs_panel.shown(rows=12)
    marked = [row for row in shown.rows if row[3].startswith("★")]
    if a.next is None:
        assert shown.heading == describe_stop(a.lesson.stop_reason, a.settings.min_frequency)
        assert "Next" not in shown.heading
        assert "none of them merges" in shown.count_line if shown.rows else shown.count_line == "No pairs left."
        assert not marked
        assert not any("tie for 1st" in row[3] for row in shown.rows)
        return
    head = f"Next: {a.pair(a.next.pair)}, {times(a.next.count)}"
    tied = len(a.history.ties(a.step))
    assert shown.heading == head + (f" (tie of {tied})" if tied > 1 else "")
    assert marked == [shown.rows[0]]
    assert shown.rows[0][1:3] == (a.pair(a.next.pair), str(a.next.count))
    listed_ties = [row for row in shown.rows if row[2] == str(a.next.count)]
    assert [row[1] for row in listed_ties] == [a.pair(p) for p in a.next.tied][:len(listed_ties)]
    assert [row[3].startswith(("★", "tie for 1st")) for row in shown.rows] == [row in listed_ties for row in shown.rows]
    if a.small:
        top = sorted(a.history.pair_counts(a.step).values(), reverse=True)[:len(shown.rows)]
        assert [int(row[2]) for row in shown.rows] == top


def check_vocab(window, a: Answer) -> None:
    shown = window.vocab_panel.shown()
    assert shown.heading == a.vocab
    assert shown.heading.startswith(f"{a.vocab_size:,} tokens")
    settings = a.lesson.settings
    extras = len(settings.special_tokens) + (settings.units == "chars")
    # a row for every merge made, and one for each token no merge makes, after them
    assert shown.rows == len(a.history.base) + a.step + extras
    if a.history.vocab(a.step).learned == a.step:
        assert shown.rows == a.vocab_size  # every token the heading counts
    if a.step:
        step = a.history.steps[a.step - 1]
        newest = shown.last_rows[-1 - extras]
        assert newest[1:] == (a.display.token(step.token), str(step.step), a.pair(step.pair), str(step.count))


def check_corpus(window, a: Answer, words) -> None:
    shown = window.corpus_panel.shown()
    if not shown.hint.startswith(STOPPED):
        assert f"{a.start:,} symbols to start" in shown.hint
    rows = shown.rows + window.corpus_panel.shown(words).rows
    assert shown.rows, "some word rows are in view"
    for w, (word, count, tokens, n) in rows:
        tiles = a.tiles(w)
        assert (word, count) == (a.display.token(a.lesson.corpus.words[w]), str(a.lesson.corpus.counts[w]))
        assert (tokens, n) == (" · ".join(tiles), str(len(tiles)))


def check_charts(window, a: Answer) -> None:
    view = window.views["Charts"]
    window.tabs.setCurrentWidget(view)
    growth = view.growth.shown()
    expected = f"Step {a.step} of {a.last}  ·  vocabulary {a.vocab_size:,}  ·  tokens {a.total:,}"
    assert growth.readout.startswith(expected), growth.readout
    assert growth.step_label == f"step {a.step:,}"
    assert growth.step_x == view.growth.x_of(a.step)
    view.pairs.finish_animation()
    bars = view.pairs.shown()
    marked = [bar for bar in bars.bars if "◀ next" in bar[1]]
    if a.next is None:
        assert bars.caption.startswith(f"Step {a.step:,}: training stopped here")
        assert not marked and not any("tie" in bar[1] for bar in bars.bars)
    else:
        assert bars.caption.startswith(f"Step {a.step:,}: next merge {a.pair(a.next.pair)} ({a.next.count:,})")
        assert marked == [bars.bars[0]]
        assert bars.bars[0] == (a.pair(a.next.pair), f"{a.next.count:,}  ◀ next")
        tied = [bar for bar in bars.bars if bar[1].endswith("tie")]
        assert [bar[0] for bar in tied] == [a.pair(p) for p in a.next.tied[1:]][:len(tied)]
    # the same pairs, counts and order as the pairs panel lists
    listed = window.pairs_panel.shown(rows=len(bars.bars)).rows
    assert [(bar[0], bar[1].split()[0].replace(",", "")) for bar in bars.bars] == [row[1:3] for row in listed]


def check_quiz(window, qtbot, a: Answer) -> None:
    view = window.views["Quiz"]
    window.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: "Building" not in view.shown().message, timeout=20_000)
    shown = view.shown()
    prompt, k = shown.prompt, a.step
    if shown.title == "Which pair merges next?":
        assert a.next is not None, "no question about the next merge once training stopped"
        asked = f"The lesson is at step {k}. Which pair of neighbouring tokens is merged at step {k + 1}?"
        # options at equal counts bring the lesson's tie rule along
        assert prompt in (asked, f"{asked} {tie_rule_sentence(a.settings)}")
    elif shown.title == "How often does this pair occur?":
        assert prompt.startswith(f"At step {k}, how many times does the pair ")
    elif shown.title == "How big is the vocabulary?":
        assert prompt.startswith(f"At step {k} the vocabulary holds {a.vocab}. ")
    elif shown.title == "How many tokens?":
        target = int(re.search(r"after step (\d+)\?", prompt).group(1))
        assert k <= target <= a.last
    elif shown.title in ("Which word is still in pieces, and why?", "Which chunk is still in pieces, and why?"):
        at = int(re.search(r"After step (\d+),", prompt).group(1))
        assert k <= at <= a.last
    elif shown.title == "How many characters per token?":
        assert prompt.startswith(f"At step {k}, the corpus (each word counted as often as it occurs) is "
                                 f"{a.total:,} tokens. ")
    elif shown.title == "How many words are kept whole?":
        target = int(re.search(r"After step (\d+),", prompt).group(1))
        assert k <= target <= a.last
    else:
        assert shown.message == "No question can be asked at this step.", shown


def check_tokenize(window, a: Answer, w: int) -> None:
    panel = window.tokenize_panel
    tiles = a.tiles(w)
    assert tuple(text for text, _fill in panel.chips_shown()) == tiles
    n = len(tiles)
    assert panel.summary.text().startswith(
        f"{n} token{'s' if n != 1 else ''} after {a.step} merge{'s' if a.step != 1 else ''}")


def check_all(window, qtbot, words=()) -> Answer:
    """Hold every view against the engine at the session's step; the tiles tab is current after."""
    a = Answer(window.session)
    check_timeline(window, a)
    check_pairs_panel(window, a)
    check_vocab(window, a)
    check_corpus(window, a, words)
    check_tokenize(window, a, window.probe_word)
    check_charts(window, a)
    check_quiz(window, qtbot, a)
    check_tiles(window, a)
    return a


def tiles_at(window, k: int) -> tuple[str, str, str]:
    """At step k, at rest: the tile caption's corpus total and starting total, and the vocabulary heading."""
    window.session.request_step(k)
    tiles = window.views["Tiles"]
    window.tabs.setCurrentWidget(tiles)
    tiles.finish_animation()
    total, start = re.search(r"· ([\d,]+) tokens in the corpus \(from ([\d,]+)\)", tiles.shown().caption[0]).groups()
    return total, start, window.vocab_panel.shown().heading


def check_handout(window) -> None:
    """The handout's summary lines say what the views say, at the start, the end and merges between."""
    lesson = window.session.lesson
    last = lesson.last_step
    merges = sorted({1, last // 2, last})
    # visited in order: a long jump back and forth on a large corpus costs the engine a moment
    seen = {k: tiles_at(window, k) for k in sorted({0, last, *merges, *(k - 1 for k in merges)})}
    total, start, heading = seen[last]
    assert vocab_summary(lesson).startswith(heading + ". ")
    summary = growth_summary(lesson)
    assert f"starts as {start} tokens" in summary
    assert f"After {last:,} merges it is {total} tokens" in summary
    assert summary.endswith(f"the vocabulary has grown from {seen[0][2]} to {heading}.")
    for k in merges:
        sentence = merge_sentence(lesson, k)
        assert f"goes from {seen[k - 1][0]} to {seen[k][0]} tokens" in sentence
        assert sentence.endswith(f"the vocabulary now holds {seen[k][2]}.")


# -- driving the window ---------------------------------------------------------------------------


def probe(window) -> None:
    """Type into the tokenize panel the corpus word most merges touch: its chips must be its tiles."""
    lesson = window.session.lesson
    history, corpus = lesson.history, lesson.corpus
    bytes_units = lesson.settings.units == "bytes"

    def text(i: int) -> str:
        return symbols_to_bytes(corpus.words[i]).decode("utf-8") if bytes_units else corpus.words[i]

    # a line of input holds no line break: the word is one a person can type
    typed = [i for i in range(len(corpus)) if text(i).isprintable()]
    w = max(typed, key=lambda i: (len(history.merge_steps(i)), corpus.counts[i], -i))
    window.probe_word = w
    panel = window.tokenize_panel
    panel.input.setText(text(w))
    panel.refresh()


def load_preset(window, qtbot, key: str) -> None:
    session = window.session
    with qtbot.waitSignal(session.lesson_changed, timeout=60_000):
        session.request_preset(key)
    assert not session.training
    probe(window)


def step_through(window, qtbot, steps) -> None:
    session = window.session
    for k in steps:
        before = session.step
        session.request_step(k)
        check_all(window, qtbot, session.lesson.history.words_changed(before, k)[:20])


def forward_and_back(window, qtbot) -> None:
    session = window.session
    session.request_step(0)
    check_all(window, qtbot)
    while session.step < session.last_step:
        before = session.step
        window.next_action.trigger()
        assert session.step == before + 1
        check_all(window, qtbot, session.lesson.history.words_changed(before, session.step))
    window.next_action.trigger()  # at the end: nothing moves, nothing says "next"
    assert session.step == session.last_step
    check_all(window, qtbot)
    while session.step > 0:
        before = session.step
        window.previous_action.trigger()
        check_all(window, qtbot, session.lesson.history.words_changed(before, session.step))


def random_jumps(window, qtbot, n: int, seed: str) -> None:
    rng = random.Random(seed)
    session = window.session
    for _ in range(n):
        before = session.step
        session.request_step(rng.randint(0, session.last_step))
        check_all(window, qtbot, session.lesson.history.words_changed(before, session.step)[:20])


def play(window, qtbot, start: int = 0, stop: int | None = None) -> None:
    """Play from ``start`` with a fast pace, checking each step it lands on while it plays."""
    session = window.session
    stop = session.last_step if stop is None else stop
    session.request_play_interval(PLAY_MS)
    session.request_step(start)
    window.tabs.setCurrentWidget(window.views["Tiles"])
    window.timeline.play()
    seen = set()
    while window.timeline.playing and session.step < stop:
        k = session.step
        qtbot.waitUntil(lambda: session.step != k or not window.timeline.playing, timeout=5_000)  # noqa: B023 (waited for here)
        # mid-merge first: the caption follows the film, the other views the step
        check_tiles(window, Answer(session))
        seen.add(session.step)
        if session.step < stop:
            # reading a tab that builds in a thread lets events run: Play waits meanwhile
            window.timeline.pause()
            check_all(window, qtbot)
            window.timeline.play()
    window.timeline.pause()
    check_all(window, qtbot)
    assert len(seen) > 1


def undo_redo_an_edit(window, qtbot) -> None:
    session = window.session
    before = session.lesson
    with qtbot.waitSignal(session.lesson_changed, timeout=60_000):
        session.request_corpus(session.source.text + "\nlowest 4\n" if session.source.word_counts
                               else session.source.text + " lowest lowest", session.source.word_counts)
    probe(window)
    session.request_step(session.last_step)
    check_all(window, qtbot)
    with qtbot.waitSignal(session.lesson_changed, timeout=60_000):
        window.undo_action.trigger()
    assert session.lesson.text == before.text
    probe(window)
    check_all(window, qtbot)
    session.request_step(session.last_step)
    check_all(window, qtbot)
    with qtbot.waitSignal(session.lesson_changed, timeout=60_000):
        window.redo_action.trigger()
    probe(window)
    check_all(window, qtbot)


def cancelled_training(window, qtbot) -> None:
    """A large training started and cancelled: every view still shows the lesson before it."""
    session = window.session
    lesson = session.lesson
    session.request_step(session.last_step // 2)
    window.views["Tiles"].finish_animation()
    before = snapshot(window, qtbot)
    ended = []
    session.training_ended.connect(lambda: ended.append(True))
    session.request_preset("python-docs")
    assert window.timeline.shown().training
    window.timeline.cancel_button.click()
    qtbot.waitUntil(lambda: bool(ended), timeout=60_000)
    assert session.lesson is lesson
    assert not window.timeline.shown().training
    check_all(window, qtbot)
    after = snapshot(window, qtbot)
    assert after[3].hint.startswith(STOPPED)
    assert after[:3] + after[4:] == before[:3] + before[4:]
    assert after[3].rows == before[3].rows


def snapshot(window, qtbot):
    """Everything the views show, as one value."""
    window.tabs.setCurrentWidget(window.views["Charts"])
    window.views["Charts"].pairs.finish_animation()
    charts = (window.views["Charts"].growth.shown(), window.views["Charts"].pairs.shown())
    window.tabs.setCurrentWidget(window.views["Quiz"])
    qtbot.waitUntil(lambda: "Building" not in window.views["Quiz"].shown().message, timeout=20_000)
    quiz = window.views["Quiz"].shown()
    window.tabs.setCurrentWidget(window.views["Tiles"])
    return (window.timeline.shown(), window.pairs_panel.shown(), window.vocab_panel.shown(),
            window.corpus_panel.shown(), window.tokenize_panel.chips_shown(), window.tokenize_panel.summary.text(),
            window.views["Tiles"].shown(), charts, quiz)


# -- the lessons ----------------------------------------------------------------------------------


def test_the_classic_words_agree_everywhere(window, qtbot):
    assert window.session.lesson.text == CLASSIC
    probe(window)
    forward_and_back(window, qtbot)
    random_jumps(window, qtbot, 12, "classic")
    play(window, qtbot)
    undo_redo_an_edit(window, qtbot)
    check_handout(window)
    cancelled_training(window, qtbot)


def test_the_tea_words_agree_everywhere(window, qtbot):
    load_preset(window, qtbot, "tea")
    check_all(window, qtbot)
    forward_and_back(window, qtbot)
    random_jumps(window, qtbot, 8, "tea")
    play(window, qtbot)
    check_handout(window)
    cancelled_training(window, qtbot)


def test_the_bytes_code_agrees_everywhere(window, qtbot):
    load_preset(window, qtbot, "code")
    assert window.session.lesson.settings.units == "bytes"
    check_all(window, qtbot)
    forward_and_back(window, qtbot)
    random_jumps(window, qtbot, 10, "code")
    play(window, qtbot, start=window.session.last_step - 8)
    undo_redo_an_edit(window, qtbot)
    check_handout(window)


def test_the_python_documentation_agrees_everywhere(window, qtbot):
    load_preset(window, qtbot, "python-docs")
    session = window.session
    last = session.last_step
    assert last > 500
    rng = random.Random("python-docs")
    # jumps forward and back, short ones: a long jump on this corpus costs the engine a moment
    sample = sorted(rng.sample(range(1, last), 30))
    zigzag = [k for two in zip(sample[1::2], sample[::2]) for k in two]
    step_through(window, qtbot, [0, last] + zigzag)
    for _ in range(3):
        window.previous_action.trigger()
        check_all(window, qtbot)
    session.request_step(0)
    for _ in range(3):
        window.next_action.trigger()
        check_all(window, qtbot)
    play(window, qtbot, start=last - 4)
    check_handout(window)


def test_mid_merge_the_caption_follows_the_film_and_every_other_view_the_step(window, qtbot):
    probe(window)
    session = window.session
    tiles = window.views["Tiles"]
    history = session.lesson.history
    session.request_step(3)
    tiles.finish_animation()
    tiles.set_merge_duration(60_000)
    for target in (4, 3):  # a merge played forward, then undone
        session.request_step(target)
        assert tiles.canvas.animating
        totals = set()
        for fraction in (0.05, 0.95):
            tiles.canvas.seek(fraction)
            a = Answer(session)
            check_timeline(window, a)
            check_pairs_panel(window, a)
            check_vocab(window, a)
            check_corpus(window, a, history.words_changed(3, 4))
            check_tokenize(window, a, window.probe_word)
            check_tiles(window, a)
            totals.add(int(re.search(r"· ([\d,]+) tokens", tiles.shown().caption[0]).group(1).replace(",", "")))
        assert totals == {history.total_tokens(3), history.total_tokens(4)}
        tiles.finish_animation()
        check_all(window, qtbot)
