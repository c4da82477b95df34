"""Every Python and shell snippet of README.md and of the user guide (docs/*.md) runs as written, and tools/bpe-lab.sh asks for a screen
before it installs anything.

Python snippets run in a fresh interpreter of the test environment. Shell snippets run with
``bpe-lab`` being this checkout, in a folder holding the files they name (``corpus.txt``,
``lesson.bpelab``, ``mine.tiktoken``); those that install, build or open the window are listed in
``NOT_RUN`` with the reason, and every other one runs. A snippet written as a session (``$ `` before
each command) must print what the README shows.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import COMMANDS, OPTIONS

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
# the README and the guide's pages: a snippet moved between them runs all the same
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^(`{3,})(\w*)\n(.*?)^\1$", re.S | re.M)

# the first line of each shell snippet a test must not run, and why
NOT_RUN = {
    "bash bpe-lab/install.sh": "installs the bundle into the home folder",
    "python3 -m venv ~/bpe-lab-env": "installs from a wheelhouse into the home folder",
    "bash tools/bpe-lab.sh        # opens the window on the default lesson": "sets up a venv and opens the window",
    "bash tools/build-app.sh              # dist/bpe-lab/, in a few minutes": "builds the bundle (minutes)",
    "bpe-lab count CORPUS... --out COUNTS.tsv [--lowercase] [--special TOKEN]... [--workers N] [--progress]":
        "the commands' synopsis, not a script",
    "$ bpe-lab count part-*.txt --out counts.tsv --progress      # one machine, every core":
        "names the user's own corpus parts; tests/app/test_cli_count.py runs count and train on counts",
}


def snippets(language: str) -> list[str]:
    """The fenced blocks of the README and the guide in ``language`` ("" for blocks without one)."""
    found = []
    for page in PAGES:
        for match in FENCE.finditer(page.read_text(encoding="utf-8")):
            # a ````markdown block is matched whole: its inner fences are an example file, not snippets
            if match.group(2) == language:
                found.append(match.group(3))
    return found


def shell_snippets() -> list[str]:
    return snippets("") + snippets("bash") + snippets("sh") + snippets("console")


def to_run() -> list[str]:
    return [s for s in shell_snippets() if s.splitlines()[0].strip() not in NOT_RUN]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A folder with the files the snippets name, and ``bpe-lab`` on PATH meaning this checkout."""
    where = tmp_path_factory.mktemp("readme")
    bin_dir = where / "bin"
    bin_dir.mkdir()
    command = bin_dir / "bpe-lab"
    command.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m app "$@"\n', encoding="utf-8")
    command.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}", PYTHONPATH=str(ROOT),
               QT_QPA_PLATFORM="offscreen")
    corpus = " ".join(["the lowest newer widest tokens, and the newest lower tokens."] * 40)
    (where / "corpus.txt").write_text(corpus, encoding="utf-8")
    work = where / "work"
    work.mkdir()
    setup = (
        "from engine.formats.lesson_file import LessonFile, save_lesson; "
        f"save_lesson(LessonFile({corpus!r}, step=12), 'lesson.bpelab')"
    )
    subprocess.run([sys.executable, "-c", setup], cwd=where, env=env, check=True)
    subprocess.run([str(command), "train", "corpus.txt", "--out", "mine.tiktoken", "--format", "tiktoken",
                    "--units", "bytes", "--split", "gpt4", "--merges", "60"], cwd=where, env=env, check=True)
    return where, env


def fresh_copy(folder, tmp_path) -> Path:
    where, _env = folder
    run_in = tmp_path / "here"
    shutil.copytree(where, run_in, ignore=shutil.ignore_patterns("bin", "work"))
    return run_in


def test_every_shell_snippet_is_run_or_said_why_not():
    firsts = {s.splitlines()[0].strip() for s in shell_snippets()}
    assert set(NOT_RUN) <= firsts, "a snippet NOT_RUN names is gone from the README and the guide: update the list"
    assert to_run(), "no shell snippet runs"


def test_the_guide_has_its_pages():
    assert len(PAGES) > 2 and (ROOT / "docs" / "index.md") in PAGES


def test_the_readme_has_python_snippets():
    assert snippets("python")


@pytest.mark.parametrize("snippet", to_run(), ids=lambda s: s.splitlines()[0][:40])
def test_shell_snippet_runs(snippet, folder, tmp_path):
    _where, env = folder
    run_in = fresh_copy(folder, tmp_path)
    lines = snippet.splitlines()
    if lines[0].startswith("$ "):
        # a session: each command's output must be what the README shows after it
        commands = []
        for line in lines:
            if line.startswith("$ "):
                commands.append([line[2:], []])
            else:
                commands[-1][1].append(line)
        for command, expected in commands:
            done = subprocess.run(["bash", "-euo", "pipefail", "-c", command], cwd=run_in, env=env,
                                  capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, f"{command}\n{done.stderr}"
            assert done.stdout.splitlines() == expected, command
        return
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", snippet], cwd=run_in, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("snippet", snippets("python"), ids=lambda s: s.splitlines()[0][:40])
def test_python_snippet_runs(snippet, folder, tmp_path):
    _where, env = folder
    run_in = fresh_copy(folder, tmp_path)
    done = subprocess.run([sys.executable, "-c", snippet], cwd=run_in, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr


# -- tools/bpe-lab.sh with no screen --------------------------------------------------------------


def script_copy(tmp_path) -> tuple[Path, Path]:
    """tools/bpe-lab.sh in a copy of the tools folder whose setup only leaves a mark (and stops)."""
    tools = tmp_path / "tools"
    tools.mkdir()
    shutil.copy(ROOT / "tools" / "bpe-lab.sh", tools / "bpe-lab.sh")
    shutil.copy(ROOT / "tools" / "system.sh", tools / "system.sh")
    mark = tmp_path / "set-up"
    (tools / "setup.sh").write_text(f'touch "{mark}"\nexit 0\n', encoding="utf-8")
    return tools / "bpe-lab.sh", mark


def no_screen() -> dict:
    return {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}


@pytest.mark.skipif(sys.platform != "linux", reason="the check is for Linux desktops")
def test_no_screen_is_said_before_anything_is_installed(tmp_path):
    script, mark = script_copy(tmp_path)
    done = subprocess.run(["bash", str(script)], env=no_screen(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "needs a screen" in done.stderr and "xvfb-run -a bash tools/bpe-lab.sh" in done.stderr
    assert not mark.exists()


@pytest.mark.parametrize("env", [{"DISPLAY": ":0"}, {"WAYLAND_DISPLAY": "wayland-0"}, {"QT_QPA_PLATFORM": "offscreen"}])
def test_with_a_screen_it_sets_up_and_goes_on(tmp_path, env):
    script, mark = script_copy(tmp_path)
    subprocess.run(["bash", str(script)], env={**no_screen(), **env}, capture_output=True, text=True, timeout=60)
    assert mark.exists()


@pytest.mark.parametrize("first", sorted(set(COMMANDS) | set(OPTIONS)))
def test_commands_need_no_screen(tmp_path, first):
    # every command and option the CLI has must pass the check (the script lists them by name)
    script, mark = script_copy(tmp_path)
    subprocess.run(["bash", str(script), first], env=no_screen(), capture_output=True, text=True, timeout=60)
    assert mark.exists()
