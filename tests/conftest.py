import os
import sys
from pathlib import Path

import pytest

# Qt aborts the whole process when it finds no platform: pick the offscreen one before any import
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture(autouse=True)
def _collector_on_the_gui_thread(request):
    """As in the app, once Qt is in play the cycle collector runs on the GUI thread only (app.collector)."""
    if "qtbot" in request.fixturenames or "qapp" in request.fixturenames:
        from app.collector import collect_in_gui_thread

        request.getfixturevalue("qapp")  # the collector's timer needs the application
        collect_in_gui_thread()
    yield


@pytest.fixture(autouse=True)
def _no_worker_outlives_its_test(request):
    """A worker a test left running is stopped and waited for, so it reports into no later test."""
    yield
    if "qtbot" in request.fixturenames or "qapp" in request.fixturenames:
        from widgets.worker import wait_for_workers

        wait_for_workers(60_000, stop=True)
