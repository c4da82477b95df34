"""Python's cycle collector, run on the GUI thread only, and held off while a lesson trains.

Left automatic, a collection can start in a training or loading thread and destroy a Qt object of
the window there while the GUI thread tears down its neighbours: the two wait on each other for
ever. pyqtgraph's GarbageCollector is the remedy: automatic collection off, a timer on the GUI
thread collecting instead.

A collection walks every container object made since the last one. While a large corpus trains,
that is the worker's whole growing lesson, walked again and again on the GUI thread (a stall of
tens of milliseconds each time). So the timer stops while a background training runs, and the
lesson that comes back is moved out of the collector's sight (``gc.freeze``) before it is swapped
in: the engine's lessons hold no reference cycles, and reference counting frees them when they go.
"""

from __future__ import annotations

import gc
import os

from PySide6.QtCore import QCoreApplication


def collect_in_gui_thread(app) -> None:
    """Install the timer-driven collector once; it lives as long as the application."""
    if getattr(app, "_bpe_lab_collector", None) is not None:
        return
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    from pyqtgraph.util.garbage_collector import GarbageCollector

    app._bpe_lab_collector = GarbageCollector(interval=0.5)
    app._bpe_lab_holds = 0


def hold() -> None:
    """A background training starts: no collection until every such training has ended."""
    app = QCoreApplication.instance()
    collector = getattr(app, "_bpe_lab_collector", None)
    if collector is None:
        return
    app._bpe_lab_holds += 1
    collector.timer.stop()


def release(trained: bool) -> None:
    """A background training ended; ``trained``: it made a lesson that is about to be shown."""
    app = QCoreApplication.instance()
    collector = getattr(app, "_bpe_lab_collector", None)
    if collector is None or app._bpe_lab_holds <= 0:
        return
    if trained:
        gc.freeze()
    app._bpe_lab_holds -= 1
    if app._bpe_lab_holds == 0:
        collector.timer.start()
