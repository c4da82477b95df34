"""``bpe-lab snapshot`` prints nothing of Qt's own: its warnings go to the log at debug level."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def snapshot(tmp_path, *code_before):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("QT_QPA_PLATFORM", None)
    code = "; ".join([*code_before, "from app.cli import main", f"raise SystemExit(main(['snapshot', '--out', {str(tmp_path / 's.png')!r}]))"])
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_snapshot_writes_its_png_and_nothing_on_stderr(tmp_path):
    done = snapshot(tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "s.png").stat().st_size > 0
    assert done.stderr == "" and done.stdout == ""


@pytest.mark.slow
def test_qt_warnings_are_kept_at_debug_level_in_the_log(tmp_path):
    done = snapshot(tmp_path, "import logging", "logging.basicConfig(level=logging.DEBUG, format='%(name)s:%(message)s')")
    assert done.returncode == 0, done.stderr
    assert "qt:This plugin does not support propagateSizeHints()" in done.stderr
