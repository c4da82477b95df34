"""The engine stays free of Qt: importing every engine module loads no Qt binding.

The import contracts in pyproject.toml forbid Qt in the engine's import statements; this checks what
they cannot see, such as a library the engine uses that loads Qt itself when it is imported.
"""

import pkgutil
import subprocess
import sys
from pathlib import Path

import engine


def test_engine_imports_no_qt():
    names = [m.name for m in pkgutil.walk_packages(engine.__path__, "engine.")]
    assert "engine.algorithm.trainer" in names and "engine.lesson.lesson" in names
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}: importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'PyQt5', 'PyQt6', 'pyqtgraph', 'shiboken6'))\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            cwd=Path(engine.__file__).parents[1])
    assert result.returncode == 0, result.stderr
