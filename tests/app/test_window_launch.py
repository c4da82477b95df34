"""The window's first paint waits only for what it shows: the charts, the quiz and the explorer come
after, the classroom's covers when the mode is first entered."""

import os
import subprocess
import sys
from pathlib import Path

from app.window import LATER

ROOT = Path(__file__).resolve().parents[2]


# The window's later build runs on a timer LATER_MS after it shows; under load that timer can fire
# within the first turn of the event loop, the one that paints. So the build is held here until the
# first paint has been measured (it must not be asked for while the window shows, only from the event
# loop), then run by hand.
OVERLAYS = ("widgets.classroom.cover", "widgets.classroom.keys_overlay", "widgets.classroom.predict",
            "widgets.classroom.why_band")
FIRST_PAINT = """
import sys
from PySide6.QtCore import QEvent, QObject
from app.central_views import Views
from app.main import make_application
from app.window import MainWindow

# numpy comes with pyqtgraph, regex with tiktoken; the classroom's overlays wait for the mode, not
# for the later build (its look, which the views read when built, may come with them)
OVERLAYS = %r
LATE = ("engine.quiz", "numpy", "pyqtgraph", "regex", "tiktoken", "widgets.charts", *OVERLAYS,
        "widgets.explorer", "widgets.quiz_panel")
build_later, asked = Views.build_later, []


class Paints(QObject):
    count = 0

    def eventFilter(self, watched, event):
        if watched is window and event.type() == QEvent.Type.Paint:
            Paints.count += 1
        return False


Views.build_later = lambda views: asked.append(views)
app = make_application()
window = MainWindow(persist=False)
paints = Paints()
window.installEventFilter(paints)
window.show()
print(len(asked))
while not Paints.count:
    app.processEvents()
print(sorted(m for m in LATE if m in sys.modules))
app.processEvents()  # the rest of that turn, the later build still held
print(sorted(m for m in LATE if m in sys.modules))
while not asked:  # the window's timer asks for the build
    app.processEvents()
Views.build_later = build_later
build_later(window.views)
while window.views.waiting:
    app.processEvents()
print(sorted(m for m in LATE if m in sys.modules))
""" % (OVERLAYS,)


def test_the_first_window_imports_only_what_it_shows():
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", FIRST_PAINT], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    asked_while_showing, at_paint, after_turn, built = out.stdout.strip().splitlines()
    assert asked_while_showing == "0"
    assert at_paint == "[]" and after_turn == "[]"
    # what the first paint leaves out is what the later build brings in
    assert "'pyqtgraph', " in built and "'widgets.charts', 'widgets.explorer', 'widgets.quiz_panel'" in built
    assert "'engine.quiz', " in built and not any(overlay in built for overlay in OVERLAYS)


def test_later_views_have_their_tabs_from_the_start_and_are_built_once_shown(make_window, qtbot):
    from widgets.charts import ChartsView
    from widgets.explorer import ExplorerView
    from widgets.quiz_panel import QuizPanel

    window = make_window(persist=False, build_later=True)
    titles = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert titles == ["Tiles", "Charts", "Quiz", "Explorer"] and list(window.views) == titles
    assert set(LATER) <= set(titles) and not any(window.views.built(t) for t in LATER)
    window.show()
    qtbot.waitUntil(lambda: all(window.views.built(t) for t in LATER), timeout=30_000)
    assert isinstance(window.tabs.widget(1), ChartsView) and isinstance(window.tabs.widget(3), ExplorerView)
    assert isinstance(window.tabs.widget(2), QuizPanel)
    assert window.tabs.currentIndex() == 0


def test_choosing_a_later_tab_builds_its_view_there(make_window):
    from widgets.charts import ChartsView

    window = make_window(persist=False)
    chosen = []
    window.tabs.currentChanged.connect(lambda i: chosen.append(window.tabs.widget(i)))
    window.tabs.setCurrentIndex(1)
    view = window.tabs.currentWidget()
    assert isinstance(view, ChartsView) and window.views["Charts"] is view
    assert chosen == [view]  # the tab's other listeners see the view, never its stand-in
    assert window.tabs.count() == 4 and window.tabs.tabText(1) == "Charts"


def test_asking_for_a_later_view_builds_it_in_its_tab(make_window):
    window = make_window(persist=False)
    explorer = window.views["Explorer"]
    assert window.tabs.indexOf(explorer) == 3 and window.tabs.currentIndex() == 0
    assert "Explorer" in window.views and "Nothing" not in window.views
