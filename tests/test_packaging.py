"""The project's wheel carries everything the app reads at run time, and runs once installed.

How it stays quick and honest: the wheel is built the way tools/wheelhouse.sh builds it (pip, from a
clean copy of the sources, with the build backend pyproject.toml names), but with ``--no-deps``;
it is installed with pip ``--no-deps --no-index`` into a brand-new virtual environment that sees
this test run's own site-packages (which hold the dependencies) through a path file. Path files in
that folder are not run, so the developer's editable install of BPE Lab is not seen: the test
checks that ``app`` is imported from the new environment, i.e. from the wheel. Downloading and
installing every dependency's wheel (PySide6 alone is over 100 MB) is what tools/wheelhouse.sh
does, not this test.
"""

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from app.about import VERSION

ROOT = Path(__file__).resolve().parents[1]
# what a fresh checkout holds; anything else in the worktree (virtual environments, builds) stays out
IGNORED = shutil.ignore_patterns(".git", ".venv*", "dist", "build", "__pycache__", "*.egg-info", ".pytest_cache",
                                 ".hypothesis", "out")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    source = work / "src"
    shutil.copytree(ROOT, source, ignore=IGNORED)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(work / "wheels"),
                    str(source)], check=True, timeout=600)
    (built,) = (work / "wheels").glob("bpe_lab-*.whl")
    return built


@pytest.mark.slow
def test_the_wheel_carries_the_resources_and_the_command(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("presets", "quiz", "styles", "languages", "icons", "vote"):
        expected = {str(p.relative_to(ROOT)) for p in (ROOT / "resources" / folder).iterdir()
                    if p.is_file() and p.suffix != ".pyc"}
        assert expected and expected <= names, f"resources/{folder}: {sorted(expected - names)} missing"
    assert "resources/icons/bpe-lab.svg" in names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert not [n for n in names if n.startswith(("tests/", "tools/", "packaging/"))]
    meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
    assert f"Version: {VERSION}\n" in zipfile.ZipFile(wheel).read(meta).decode()
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "bpe-lab = app.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_the_wheel_carries_the_user_guide_page_for_page(wheel):
    # written once in docs/, the pages travel as package data for Help > User guide
    archive = zipfile.ZipFile(wheel)
    pages = sorted((ROOT / "docs").glob("*.md"))
    assert len(pages) > 2
    for page in pages:
        assert archive.read(f"resources/guide/{page.name}") == page.read_bytes(), page.name
    assert not [n for n in archive.namelist() if n.startswith("docs/")]


@pytest.mark.slow
def test_installed_from_the_wheel_it_says_its_version_and_trains(wheel, tmp_path):
    env_dir = tmp_path / "env"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                    "--no-index", str(wheel)], check=True, timeout=300)
    new_site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                   capture_output=True, text=True, check=True).stdout.strip())
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (new_site / "bpe_lab_test_dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")

    run_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    run_env["HOME"] = str(tmp_path)

    def run(*args):
        return subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, env=run_env, timeout=300)

    where = run(str(python), "-c", "import app, resources.presets; print(app.__file__); print(resources.presets.HERE)")
    assert where.returncode == 0, where.stderr
    assert all(line.startswith(str(new_site)) for line in where.stdout.split()), where.stdout

    guide = run(str(python), "-c", "from app.help_pages import guide_folder, page_names, page_text, QUICK_START; "
                "print(guide_folder()); print(len(page_names())); print(page_text(QUICK_START).splitlines()[0])")
    assert guide.returncode == 0, guide.stderr
    folder, count, title = guide.stdout.splitlines()
    assert folder.startswith(str(new_site)) and int(count) == len(list((ROOT / "docs").glob("*.md")))
    assert title == (ROOT / "docs" / "quick-start.md").read_text(encoding="utf-8").splitlines()[0]

    bpe_lab = env_dir / "bin" / "bpe-lab"
    version = run(str(bpe_lab), "--version")
    assert (version.returncode, version.stdout.strip()) == (0, f"bpe-lab {VERSION}")

    (tmp_path / "corpus.txt").write_text("low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3)
    trained = run(str(bpe_lab), "train", "corpus.txt", "--merges", "5", "--out", "tokenizer.bpelab.json")
    assert trained.returncode == 0, trained.stderr
    encoded = run(str(bpe_lab), "encode", "--tokenizer", "tokenizer.bpelab.json", "lowest")
    assert encoded.returncode == 0, encoded.stderr
    # the worked example: after e s, es t, est </w>, l o, lo w: "lowest" is low + est</w>
    assert encoded.stdout.startswith("low | est</w>") and "(2 tokens)" in encoded.stdout


def test_the_bundle_spec_puts_the_guide_where_the_wheel_has_it():
    # PyInstaller is not in the test environment: the spec's own function is read out of it and run
    import ast

    spec = (ROOT / "packaging" / "bpe-lab.spec").read_text(encoding="utf-8")
    (function,) = [node for node in ast.parse(spec).body if isinstance(node, ast.FunctionDef) and node.name == "guide_pages"]
    names: dict = {"ROOT": ROOT, "Path": Path}
    exec(compile(ast.Module([function], type_ignores=[]), "bpe-lab.spec", "exec"), names)
    datas = names["guide_pages"]()
    assert sorted(Path(source).name for source, _folder in datas) == sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    assert {folder for _source, folder in datas} == {"resources/guide"}
    assert "guide_pages()" in spec.split("datas=", 1)[1].split("\n", 1)[0]


def test_the_bundle_leaves_out_no_module_the_program_imports():
    """Every module of the program imported in a fresh process (the class vote's server and QR code
    with them): none of the modules the spec keeps out of the bundle may be among what they load."""
    import ast

    spec = (ROOT / "packaging" / "bpe-lab.spec").read_text(encoding="utf-8")
    (assign,) = [node for node in ast.parse(spec).body if isinstance(node, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == "EXCLUDES" for t in node.targets)]
    excludes = ast.literal_eval(assign.value)
    # the dependencies too: some are imported only inside the functions that need them
    probe = (
        "import importlib, pkgutil, sys\n"
        "for m in ('aiohttp', 'segno', 'tokenizers', 'tiktoken', 'regex', 'pyqtgraph', 'numpy'):\n"
        "    importlib.import_module(m)\n"
        "for package in ('engine', 'app', 'widgets'):\n"
        "    root = importlib.import_module(package)\n"
        "    for info in pkgutil.walk_packages(root.__path__, package + '.'):\n"
        "        importlib.import_module(info.name)\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    assert {"aiohttp", "segno", "app.vote_server"} <= loaded
    # pyqtgraph tries QtTest and goes on without it (its test helpers alone use it)
    optional = {"PySide6.QtTest"}
    left_out = sorted(m for m in loaded - optional for x in excludes if m == x or m.startswith(x + "."))
    assert not left_out, f"the bundle would lack {left_out}: take them out of the spec's EXCLUDES"
