"""The main window's speed, measured offscreen; run by hand: python bench/bench_window.py

Prints these figures against the goals of the window:
- a step and a jump through one word of 2,000,000 characters (a text with no spaces), every view
  updated and painted (goal: under 100 ms a step); ``--long-word-engine 20000000``: the lesson
  state alone through a word of 20,000,000;
- one merge step with the engine, every item model and every panel updated and painted, on a
  corpus of 5,000 distinct words (goal: under 16 ms; the animated tiles are not included);
- launch to the first shown window, in a fresh process, against a trivial PySide6 + pyqtgraph
  window launched in the same run (goal: at most 1.3 times as long, and under 1 s);
- a 2 MB real text (the system's licence files, then Python's standard library sources, nothing
  repeated) opened with default settings as ``bpe-lab FILE`` opens it, in a fresh process: the
  time until the window is ready (trained, every view built and drawn, the event loop answering),
  each phase's wall time and GUI-thread CPU time, and the whole process tree's CPU time and peak
  memory, measured by ``bench.tree`` (goal: under 10 s and 1.5 GB; ``--only-big-text`` measures it alone);
- the longest stall of the event loop while a large text trains in the background (goal: under
  50 ms), for the Python documentation preset and for a 20 MB text.
Figures depend on the machine and on what else runs on it; the script prints them, it does not
judge them.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
START = time.perf_counter()
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer  # noqa: E402

from app.main import make_application  # noqa: E402


def five_thousand_words() -> str:
    """Word counts of the first 5,000 distinct words of the Python documentation."""
    from resources.presets import python_docs_text

    counts = Counter(python_docs_text()[0].split())
    return "\n".join(f"{w} {c}" for w, c in list(counts.items())[:5000])


def new_window(views=None):
    from app.window import MainWindow

    window = MainWindow(persist=False, views=views)
    window.resize(1600, 1000)
    window.show()
    return window


def bench_step(app, steps: int, bare: bool = False) -> None:
    from app.training_worker import build_lesson
    from engine.formats.lesson_file import LessonFile
    from engine.algorithm.settings import Settings

    source = LessonFile(five_thousand_words(), word_counts=True, settings=Settings(merges=steps + 50))
    lesson, state = build_lesson(source)
    window = new_window([] if bare else None)
    window.session.set_lesson(lesson, 0, state)
    # the views a window builds after its first paint (charts, quiz, explorer) are built once, shortly
    # after launch, which the launch figures count: built here first, not in a step's worst
    list(window.views.values())
    app.processEvents()
    timer = QElapsedTimer()

    def walk(move, count: int, full_repaint: bool) -> tuple[list[float], list[float]]:
        """Each step's wall time and the GUI thread's CPU time, sorted (ms)."""
        times, cpu = [], []
        for _ in range(count):
            timer.start()
            started = time.thread_time_ns()
            move()
            if full_repaint:
                window.repaint()  # the worst case: every pixel of the window drawn again
            # what changed is painted here, as it would be before the next screen refresh
            app.processEvents()
            times.append(timer.nsecsElapsed() / 1e6)
            cpu.append((time.thread_time_ns() - started) / 1e6)
        return sorted(times), sorted(cpu)

    def line(name: str, measured: tuple[list[float], list[float]]) -> str:
        times, cpu = measured
        median = statistics.median(times)
        # the CPU time leaves out the waits for a core that the machine's load adds to the wall time
        return (f"  {name}: median {median:.1f} ms, 95th percentile {times[int(len(times) * 0.95)]:.1f} ms, "
                f"worst {times[-1]:.1f} ms   (goal < 16 ms: median at {median / 16:.0%} of it)\n"
                f"      GUI thread's CPU time: median {statistics.median(cpu):.1f} ms, "
                f"95th percentile {cpu[int(len(cpu) * 0.95)]:.1f} ms")

    what = "the docked panels and timeline only, no central view" if bare else "every panel and view"
    print(f"merge step on {len(lesson.corpus):,} distinct words, engine + models + {what} updated and painted "
          f"({steps} steps; tiles animation off):", flush=True)
    tiles = window.views.get("Tiles")
    if hasattr(tiles, "motion_box"):
        tiles.motion_box.setChecked(True)  # the animation is the tile view's own budget
    print(line("forward, changed areas painted", walk(window.session.request_next, steps, False)), flush=True)
    print(line("back, changed areas painted   ", walk(window.session.request_previous, steps // 2, False)), flush=True)
    print(line("forward, whole window repainted", walk(window.session.request_next, steps // 2, True)), flush=True)
    window.close()


def no_space_text(size: int) -> str:
    """The Python documentation with its white space taken out: one word ``size`` characters long."""
    from resources.presets import python_docs_text

    text = "".join(python_docs_text()[0].split())
    return (text * (size // len(text) + 1))[:size]


def bench_long_word(app, size: int, merges: int, steps: int) -> None:
    """Steps and jumps through one word ``size`` characters long (a text with no spaces), every view
    updated and painted: the goal is under 100 ms a step, and a jump that stays interactive."""
    from app.training_worker import build_lesson
    from engine.formats.lesson_file import LessonFile
    from engine.algorithm.settings import Settings

    started = time.perf_counter()
    lesson, state = build_lesson(LessonFile(no_space_text(size), settings=Settings(merges=merges)))
    trained = time.perf_counter() - started
    # out of the cycle collector's sight, as the window puts a lesson trained in the background
    # (app.collector.release): what a step collects is then only what the step made
    gc.freeze()
    window = new_window()
    started = time.perf_counter()
    window.session.set_lesson(lesson, 0, state)
    app.processEvents()
    shown = time.perf_counter() - started
    tiles = window.views.get("Tiles")
    if hasattr(tiles, "motion_box"):
        tiles.motion_box.setChecked(True)

    # the process's own CPU time beside the wall clock: on a machine others load, it moves less
    cpu: dict[str, list[float]] = {"forward": [], "back": []}

    def timed(move, kind: str = "") -> float:
        start, used = time.perf_counter(), time.process_time()
        move()
        app.processEvents()
        if kind:
            cpu[kind].append((time.process_time() - used) * 1000)
        return (time.perf_counter() - start) * 1000

    forward = sorted(timed(window.session.request_next, "forward") for _ in range(steps))
    back = sorted(timed(window.session.request_previous, "back") for _ in range(steps // 2))
    to_end = timed(lambda: window.session.request_step(lesson.last_step))
    to_start = timed(lambda: window.session.request_step(0))
    print(f"one word of {size:,} characters ({merges} merges; trained in {trained:.1f} s, shown in {shown * 1000:.0f} ms):",
          flush=True)
    print(f"  step forward: median {statistics.median(forward):.0f} ms, worst {forward[-1]:.0f} ms; "
          f"back: median {statistics.median(back):.0f} ms   (goal < 100 ms)", flush=True)
    print(f"  CPU time a step: forward median {statistics.median(cpu['forward']):.0f} ms, "
          f"back median {statistics.median(cpu['back']):.0f} ms", flush=True)
    print(f"  jump to the end {to_end:.0f} ms, back to the start {to_start:.0f} ms", flush=True)
    window.close()


def bench_long_word_engine(size: int, merges: int, steps: int) -> None:
    """The lesson state alone through one word ``size`` characters long: steps, jumps, the top pairs
    a panel ranks, the head a row shows, and the process's peak memory (no window: for 20,000,000)."""
    import resource

    from engine.lesson.lesson import Lesson, LessonState
    from engine.algorithm.settings import Settings

    started = time.perf_counter()
    lesson = Lesson(no_space_text(size), False, Settings(merges=merges)).train()
    trained = time.perf_counter() - started
    started = time.perf_counter()
    state = LessonState(lesson)
    built = time.perf_counter() - started

    def timed(k: int) -> float:
        start = time.perf_counter()
        state.go_to(k)
        state.ranked_pairs(20)
        state.tokens_head(0, 1000)
        return (time.perf_counter() - start) * 1000

    forward = sorted(timed(k) for k in range(1, steps + 1))
    back = sorted(timed(k) for k in range(steps - 1, steps // 2 - 1, -1))
    to_end, to_start = timed(lesson.last_step), timed(0)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"one word of {size:,} characters, lesson state alone ({merges} merges; trained in {trained:.0f} s, "
          f"state built in {built * 1000:.0f} ms):", flush=True)
    print(f"  step forward: median {statistics.median(forward):.0f} ms, worst {forward[-1]:.0f} ms; "
          f"back: median {statistics.median(back):.0f} ms; jump to the end {to_end:.0f} ms, back to the start "
          f"{to_start:.0f} ms; peak memory {peak:,.0f} MB", flush=True)


def real_text(size: int) -> str:
    """``size`` characters of real text, nothing repeated: the licence files of the system, then
    Python's own standard library sources, whole files in name order."""
    import sysconfig

    paths = sorted(Path("/usr/share/common-licenses").glob("*"))
    paths += sorted(Path(sysconfig.get_paths()["stdlib"]).rglob("*.py"))
    parts, length = [], 0
    for path in paths:
        if length >= size:
            break
        try:
            part = path.read_text(encoding="utf-8") if path.is_file() else ""
        except (OSError, UnicodeDecodeError):
            continue
        parts.append(part)
        length += len(part)
    return "".join(parts)[:size]


def bench_big_text(size: int) -> None:
    """Opens ``size`` characters of real text in a fresh process as ``bpe-lab FILE`` does (default
    settings) and waits until the window is ready: trained, every view built and drawn, the event
    loop answering. Prints the time from the open and from the process's start, the phases the
    child logged, and the whole process tree's CPU time and peak memory (``bench.tree``)."""
    from bench.tree import measure

    text = real_text(size)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "real-text.txt"
        path.write_text(text, encoding="utf-8")
        run = measure([sys.executable, __file__, "--big-text-child", str(path)], cwd=ROOT, env=_launch_env())
    if run.returncode:
        print(run.stderr)
        raise SystemExit("the window did not open the text")
    print(f"open a real text of {len(text):,} characters (the system's licence files, then Python's standard "
          f"library sources) in a fresh process, default settings:", flush=True)
    print("".join(f"  {line}\n" for line in run.stdout.splitlines()), end="", flush=True)
    print(f"  process tree ({run.method}): peak memory {run.peak_bytes / 2**20:,.0f} MB, CPU time {run.cpu_s:.1f} s, "
          f"wall {run.wall_s:.1f} s to its exit   (goal: ready < 10 s, < 1,500 MB)", flush=True)
    print(f"  load average of the machine after the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)


def big_text_child(path: str) -> None:
    """The child of ``bench_big_text``: the window as ``bpe-lab FILE`` makes it (with no settings
    read or written and no autosave), opening ``path``; prints each phase's time since the open."""
    import resource

    def clock() -> tuple[float, float]:
        """The wall clock, and the CPU time of the GUI thread (the rest is the workers')."""
        return time.perf_counter(), time.thread_time()

    app = make_application()
    from app.window import MainWindow

    window = MainWindow(persist=False)
    window.show()
    app.processEvents()
    launched = clock()
    session = window.session
    marks: list[tuple[str, float]] = []
    session.training_started.connect(lambda: marks.append(("training started", clock())))
    first = [True]

    def counted(*_):
        if first[0]:
            first[0] = False
            marks.append(("words counted, merging", clock()))

    session.training_progressed.connect(counted)
    # the session ends training before it swaps the lesson in, which lesson_changed then says is done
    session.training_ended.connect(lambda: marks.append(("trained lesson received", clock())))
    session.lesson_changed.connect(lambda *_: marks.append(("every view told of the lesson", clock())))
    opened = clock()
    window.files.open_path(path)
    marks.append(("file read, training asked for", clock()))

    def settled() -> bool:
        return not (session.training or session.runner.busy or session.moving or window.views.waiting
                    or session._held_out._counting is not None)

    # the event loop runs as in the application (waiting, not polling), looked at on every
    # change of the session and every 100 ms: a wake-up of the GUI thread costs the worker a hand-over
    # of the interpreter, which on a loaded machine waits for the GUI thread to be scheduled
    loop = QEventLoop()
    tabs_built = [False]

    def look() -> None:
        if not tabs_built[0] and not window.views.waiting:
            tabs_built[0] = True
            marks.append(("tabs built after the first paint", clock()))
        if settled():
            loop.quit()

    looking = QTimer(interval=100, timeout=look)
    looking.start()
    for said in (session.training_ended, session.lesson_changed, session.held_out_counted, session.step_move_ended):
        said.connect(lambda *_: QTimer.singleShot(0, look))
    loop.exec()
    looking.stop()
    marks.append(("views built, nothing left running", clock()))
    app.processEvents()
    window.repaint()
    for title in window.views:  # every tab drawn once, as choosing it would
        window.views[title].grab()
    marks.append(("every view drawn", clock()))
    # the GUI answers: a timer due at once fires on the next turn of the event loop
    asked, answered = clock(), []
    QTimer.singleShot(0, lambda: answered.append(clock()))
    while not answered:
        app.processEvents()
    marks.append((f"event loop answered (in {(answered[0][0] - asked[0]) * 1000:.0f} ms)", answered[0]))
    print("  wall  GUI thread's CPU (both since the open)")
    for name, (at, cpu) in marks:
        print(f"{at - opened[0]:6.2f} s {cpu - opened[1]:6.2f} s  {name}")
    lesson = session.lesson
    process = resource.getrusage(resource.RUSAGE_SELF)
    ready = marks[-1][1][0]
    print(f"ready {ready - opened[0]:.1f} s after the open ({ready - START:.1f} s after the process "
          f"started, the window shown at {launched[0] - START:.1f} s): {len(lesson.corpus):,} distinct words, "
          f"{lesson.last_step:,} merges; this process's CPU time {process.ru_utime + process.ru_stime:.1f} s, "
          f"its own peak {process.ru_maxrss / 1024:,.0f} MB")
    session.mark_saved()  # closing would otherwise ask whether to save the new text
    session.close()
    window.close()


# the window as ``bpe-lab`` starts it, and the least a PySide6 + pyqtgraph window costs: the goal
# is a ratio of the two measured in the same run, so the machine's load cancels out
LAUNCH_CODE = {
    "BPE Lab": (
        "import os; os.environ['QT_QPA_PLATFORM']='offscreen';"
        "from app.main import make_application; app = make_application();"
        "from app.window import MainWindow; w = MainWindow(persist=False); w.show(); app.processEvents();"
        "print('shown')"
    ),
    # the tabs built after the first paint (charts, quiz, explorer), for what the deferral costs in all
    "BPE Lab, every tab built": (
        "import os; os.environ['QT_QPA_PLATFORM']='offscreen';"
        "from app.main import make_application; app = make_application();"
        "from app.window import MainWindow; w = MainWindow(persist=False); w.show(); app.processEvents();"
        "[w.views[t] for t in w.views]; app.processEvents(); print('shown')"
    ),
    "trivial PySide6 + pyqtgraph": (
        "import os; os.environ['QT_QPA_PLATFORM']='offscreen';"
        "from PySide6.QtWidgets import QApplication, QMainWindow; import pyqtgraph as pg;"
        "app = QApplication([]); w = QMainWindow(); w.setCentralWidget(pg.PlotWidget()); w.show();"
        "app.processEvents(); print('shown')"
    ),
}


def _launch_env() -> dict:
    """Bytecode cached, as an installed copy has it, whatever PYTHONDONTWRITEBYTECODE says: compiling
    every module afresh at each launch would be timed as start-up."""
    env = {**os.environ, "PYTHONPYCACHEPREFIX": os.path.join(tempfile.gettempdir(), "bpe-lab-bench-pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _launch_once(code: str) -> float:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env=_launch_env())
    elapsed = time.perf_counter() - start
    if "shown" not in out.stdout:
        print(out.stderr)
        raise SystemExit("the window did not start")
    return elapsed


def bench_launch(runs: int) -> None:
    times: dict[str, list[float]] = {name: [] for name in LAUNCH_CODE}
    for code in LAUNCH_CODE.values():  # untimed: fills the bytecode cache
        _launch_once(code)
    for _ in range(runs):
        for name, code in LAUNCH_CODE.items():  # interleaved: a busy moment hits both
            times[name].append(_launch_once(code))
    for name, measured in times.items():
        print(f"launch to first shown window, {name} (fresh process, {runs} runs): "
              f"median {statistics.median(measured) * 1000:.0f} ms, best {min(measured) * 1000:.0f} ms", flush=True)
    trivial = times["trivial PySide6 + pyqtgraph"]
    for name, goal in (("BPE Lab", "   (goal <= 1.3)"), ("BPE Lab, every tab built", "")):
        ratios = [ours / bare for ours, bare in zip(times[name], trivial)]
        print(f"launch ratio {name} / trivial window: median {statistics.median(ratios):.2f}{goal}", flush=True)


def bench_stalls(app, label: str, source) -> None:
    window = new_window()
    # the window's own first layout and paint, the views it builds after its first paint (the
    # charts, the quiz and the explorer: a pause of a few hundred ms once, shortly after launch,
    # which the launch figures count) and the deletion of the windows before it are not what this
    # measures: let them finish first
    list(window.views.values())
    settle = time.perf_counter() + 0.5
    while time.perf_counter() < settle:
        app.processEvents()
        time.sleep(0.005)
    gaps = []
    clock = QElapsedTimer()
    clock.start()
    last = [clock.elapsed()]

    def tick():
        now = clock.elapsed()
        gaps.append(now - last[0])
        last[0] = now

    phase = ["training"]
    worst = {"training": 0, "swapping in the trained lesson": 0}

    def tick_in_phase():
        tick()
        worst[phase[0]] = max(worst[phase[0]], gaps[-1])

    ticker = QTimer()
    ticker.setInterval(5)
    ticker.timeout.connect(tick_in_phase)
    ticker.start()
    started = time.perf_counter()
    window.session.runner.done.connect(lambda *_: phase.__setitem__(0, "swapping in the trained lesson"))
    window.session.load(source, background=True)
    while window.session.training or window.session.runner.busy:
        app.processEvents()
        time.sleep(0.001)
    trained = time.perf_counter() - started
    # the swap of the finished lesson into the panels happens on the GUI thread: count it too
    for _ in range(20):
        app.processEvents()
        time.sleep(0.005)
    ticker.stop()
    gaps.sort()
    print(f"event loop during training, {label}: worst gap {gaps[-1]} ms, 99th percentile "
          f"{gaps[int(len(gaps) * 0.99)]} ms, {len(gaps)} ticks in {trained:.1f} s   (goal < 50 ms)", flush=True)
    print("  worst gap " + ", ".join(f"while {k}: {v} ms" for k, v in worst.items()), flush=True)
    window.session.runner.wait()
    window.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--launches", type=int, default=5)
    parser.add_argument("--skip-20mb", action="store_true")
    parser.add_argument("--launch-only", action="store_true", help="only the launch figures")
    parser.add_argument("--long-word", type=int, default=2_000_000, metavar="CHARS",
                        help="length of the one-word text stepped through (0: skip)")
    parser.add_argument("--long-word-steps", type=int, default=20, metavar="N", help="steps taken through the long word")
    parser.add_argument("--big-text", type=int, default=2_000_000, metavar="CHARS",
                        help="length of the real text opened with default settings (0: skip)")
    parser.add_argument("--only-big-text", action="store_true", help="measure the big text and nothing else")
    parser.add_argument("--big-text-child", metavar="PATH", help=argparse.SUPPRESS)
    parser.add_argument("--only-long-word", action="store_true", help="measure the long word and nothing else")
    parser.add_argument("--only-step", action="store_true", help="measure the 5,000-word merge step and nothing else")
    parser.add_argument("--long-word-engine", type=int, default=0, metavar="CHARS",
                        help="measure only the lesson state through one word this long (no window), e.g. 20000000")
    args = parser.parse_args()
    if args.launch_only:
        bench_launch(args.launches)
        return
    if args.long_word_engine:
        bench_long_word_engine(args.long_word_engine, merges=300, steps=args.long_word_steps)
        return
    if args.big_text_child:
        big_text_child(args.big_text_child)
        return
    if args.big_text and not args.only_long_word:
        bench_big_text(args.big_text)  # first: its own process, before this one grows
    if args.only_big_text:
        return
    app = make_application()
    from engine.formats.lesson_file import LessonFile
    from resources.presets import preset, python_docs_text

    if args.only_step:
        bench_step(app, args.steps)
        return
    if args.long_word:
        bench_long_word(app, args.long_word, merges=300, steps=args.long_word_steps)
    if args.only_long_word:
        return
    bench_step(app, args.steps)
    bench_step(app, args.steps, bare=True)
    bench_launch(args.launches)
    docs = preset("python-docs")
    bench_stalls(app, "Python documentation preset (1,000 merges)",
                 LessonFile(docs.text(), False, docs.settings, 0, docs.held_out()))
    if not args.skip_20mb:
        text = python_docs_text()[0]
        big = (text * (20_000_000 // len(text) + 1))[:20_000_000]
        bench_stalls(app, "a 20 MB text (1,000 merges)", LessonFile(big, False, docs.settings))


if __name__ == "__main__":
    main()
