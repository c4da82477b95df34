"""The engine stays free of Qt: importing every engine module loads no Qt binding."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import engine


def test_engine_imports_no_qt():
    names = [m.name for m in pkgutil.walk_packages(engine.__path__, "engine.")]
    assert "engine.trainer" in names and "engine.lesson" in names
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}: importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'PyQt5', 'PyQt6', 'pyqtgraph', 'shiboken6'))\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            cwd=Path(engine.__file__).parents[1])
    assert result.returncode == 0, result.stderr


def test_no_qt_import_statement_in_engine_sources():
    root = Path(engine.__file__).parent
    offenders = [
        str(p) for p in root.rglob("*.py")
        if any(word in p.read_text(encoding="utf-8") for word in ("import PySide6", "from PySide6", "import pyqtgraph", "from pyqtgraph"))
    ]
    assert offenders == []
