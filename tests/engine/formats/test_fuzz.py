"""Every reader, fed 1,350 mutated files per format: a file loads and works, or is refused with a
``BpeLabError``, which the CLI turns into exit 2 and one line on stderr. Never another exception,
never a traceback. Seeded, so a failure names a file that can be made again."""

import random
import subprocess
import sys

import pytest

from tests.engine.formats.mutations import FORMATS, Mutator, check, make_seeds, run_cli, use

# thousands of mutated files per format: run by .ci/run, left out of the quick part (-m "not slow")
pytestmark = pytest.mark.slow

# the formats share the quick run's budget of about 16,000 files (bench/fuzz_readers.py runs more)
COUNT = 1350


@pytest.fixture(scope="module")
def seeds(tmp_path_factory):
    return make_seeds(tmp_path_factory.mktemp("seeds"))


@pytest.mark.parametrize("kind", sorted(FORMATS))
def test_every_seed_loads_and_works(seeds, kind):
    for seed in seeds[kind]:
        assert use(kind, seed) == "ok"
        if FORMATS[kind][1] is not None:
            assert run_cli(kind, seed) == (0, "")


@pytest.mark.parametrize("kind", sorted(FORMATS))
def test_mutated_files_are_refused_with_one_clear_line(seeds, kind, tmp_path):
    rng = random.Random(f"readers-{kind}")
    mutator = Mutator(seeds[kind], tmp_path)
    refused = 0
    for n in range(COUNT):
        path = mutator.next(rng)
        try:
            outcome, problem = check(kind, path)
        except Exception as exc:  # noqa: BLE001 (any other exception is what this test looks for)
            outcome, problem = "", f"{type(exc).__name__}: {exc}"
        assert problem is None, f"{kind}, mutation {n}: {problem}"
        refused += outcome == "refused"
    # the mutations reach the readers' checks (a Markdown pack mostly drops one question, not the file)
    assert refused >= COUNT // 10


@pytest.mark.parametrize("kind", ["bpelab", "hf", "tiktoken", "quiz-json"])
def test_a_real_process_prints_the_same_one_line(seeds, kind, tmp_path):
    rng = random.Random(f"process-{kind}")
    mutator = Mutator(seeds[kind], tmp_path)
    for _ in range(200):
        path = mutator.next(rng)
        status, err = run_cli(kind, path)
        if status == 2:
            break
    else:
        pytest.fail("no mutation was refused")
    argv = [a.format(path=path) for a in FORMATS[kind][1]]
    result = subprocess.run([sys.executable, "-m", "app", *argv], capture_output=True, text=True, timeout=120)
    assert (result.returncode, result.stderr) == (2, err)
