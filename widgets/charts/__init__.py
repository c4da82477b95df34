"""Charts over the whole training run (pyqtgraph): tokens against vocabulary size, pair counts.

PySide6 is imported first so pyqtgraph binds to it even where PyQt is installed too.
"""

import os

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
import PySide6.QtCore  # noqa: E402,F401

from widgets.charts.theme import ChartTheme  # noqa: E402
from widgets.charts.view import GROWTH, PAIRS, ChartsView  # noqa: E402

__all__ = ["ChartTheme", "ChartsView", "GROWTH", "PAIRS"]
