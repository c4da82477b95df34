"""tools/bpe-lab.sh and tools/system.sh on a machine with no screen and no xvfb-run, as root or not,
with apt-get, dpkg-query, id and pgrep replaced by stand-ins that log how they were called."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the scripts are for Debian")


def fake_machine(tmp_path, *, uid: int, busy: bool = False) -> tuple[Path, dict, Path]:
    """A copy of tools/ whose setup.sh only leaves a mark, and a PATH holding only what the scripts
    call: the real bash, uname, dirname, cat and grep, and logging stand-ins for the rest."""
    tools = tmp_path / "tools"
    tools.mkdir()
    for name in ("bpe-lab.sh", "system.sh"):
        shutil.copy(ROOT / "tools" / name, tools / name)
    (tools / "setup.sh").write_text(f'touch "{tmp_path / "set-up"}"\nexit 0\n', encoding="utf-8")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for real in ("bash", "uname", "dirname", "cat", "grep"):
        (bin_dir / real).symlink_to(shutil.which(real))
    log = tmp_path / "calls"
    stand_ins = {
        "id": f"echo {uid}",
        "dpkg-query": "exit 1",  # nothing is installed
        "apt-get": f'echo "apt-get $*" >> "{log}"',
        "pgrep": "exit 0" if busy else "exit 1",
    }
    for name, body in stand_ins.items():
        (bin_dir / name).write_text(f"#!{shutil.which('bash')}\n{body}\n", encoding="utf-8")
        (bin_dir / name).chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["PATH"] = str(bin_dir)
    return tools / "bpe-lab.sh", env, log


def run(script: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([shutil.which("bash"), str(script)], env=env, capture_output=True, text=True, timeout=60)


def test_as_root_with_no_screen_it_installs_the_virtual_screen_and_waits_for_the_package_lock(tmp_path):
    script, env, log = fake_machine(tmp_path, uid=0)
    done = run(script, env)
    assert done.returncode == 2
    calls = log.read_text().splitlines()
    assert len(calls) == 2 and "update" in calls[0] and " install " in calls[1]
    assert all("DPkg::Lock::Timeout=" in call for call in calls)
    assert {"xvfb", "xauth", "libxcb-cursor0"} <= set(calls[1].split())
    # only the virtual screen: Qt's libraries and the venv wait until there is a window to open
    assert "libgl1" not in calls[1].split() and not (tmp_path / "set-up").exists()
    assert "xvfb-run -a bash tools/bpe-lab.sh" in done.stderr


def test_a_busy_package_manager_is_said_before_waiting_for_it(tmp_path):
    script, env, _log = fake_machine(tmp_path, uid=0, busy=True)
    assert "another package manager is running" in run(script, env).stderr


def test_not_root_with_no_xvfb_run_it_names_the_package(tmp_path):
    script, env, log = fake_machine(tmp_path, uid=1000)
    done = run(script, env)
    assert done.returncode == 2 and not log.exists()
    assert "sudo apt-get install xvfb xauth" in done.stderr
    assert "xvfb-run -a bash tools/bpe-lab.sh" in done.stderr


def test_the_scripts_parse():
    for script in sorted((ROOT / "tools").glob("*.sh")):
        done = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
        assert done.returncode == 0, f"{script.name}: {done.stderr}"


def fake_checkout_for_tests(tmp_path, *, uid: int) -> tuple[Path, dict, Path]:
    """tools/test.sh beside a setup.sh that only reads the package groups, and a .venv whose tools
    succeed without doing anything: what is left is the packages test.sh asks for."""
    script, env, log = fake_machine(tmp_path, uid=uid)
    shutil.copy(ROOT / "tools" / "test.sh", script.parent / "test.sh")
    (script.parent / "setup.sh").write_text('source "$ROOT/tools/system.sh"\n', encoding="utf-8")
    venv_bin = tmp_path / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    for tool in ("ruff", "mypy", "lint-imports", "python"):
        (venv_bin / tool).write_text(f"#!{shutil.which('bash')}\nexit 0\n", encoding="utf-8")
        (venv_bin / tool).chmod(0o755)
    return script.parent / "test.sh", env, log


def installed(log: Path) -> list[str]:
    return [word for call in log.read_text().splitlines() if " install " in call for word in call.split()]


def test_as_root_the_test_command_installs_the_browser_the_vote_test_drives(tmp_path):
    script, env, log = fake_checkout_for_tests(tmp_path, uid=0)
    done = run(script, env)
    assert done.returncode == 0, done.stderr
    assert {"chromium", "chromium-driver"} <= set(installed(log))


def test_not_root_the_test_command_names_the_browser_packages(tmp_path):
    script, env, log = fake_checkout_for_tests(tmp_path, uid=1000)
    done = run(script, env)
    assert done.returncode == 0 and not log.exists()
    assert "sudo apt-get install chromium chromium-driver" in done.stderr


def test_the_launchers_set_up_leaves_the_browser_out(tmp_path):
    _script, env, log = fake_machine(tmp_path, uid=0)
    system = tmp_path / "tools" / "system.sh"
    done = subprocess.run([shutil.which("bash"), "-c", f'source "{system}" && install_system_packages'],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    words = installed(log)
    assert "libgl1" in words and "chromium" not in words and "chromium-driver" not in words
