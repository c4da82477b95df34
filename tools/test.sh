#!/usr/bin/env bash
# Sets up BPE Lab if needed (as root also the browser the class-vote test drives), checks the code
# with ruff, mypy and import-linter (configured in pyproject.toml), then runs the whole test suite
# (extra arguments go to pytest).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/tools/setup.sh"
install_system_packages $TEST_PACKAGES
cd "$ROOT"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
# each tool runs even when one before it failed, so one run names every broken rule
failed=()
check() {
    local name="$1" what="$2"
    shift 2
    echo "== $name: $what" >&2
    "$@" || failed+=("$name")
}
check ruff "lint rules" "$ROOT/.venv/bin/ruff" check --quiet .
check mypy "types, strict for engine/" "$ROOT/.venv/bin/mypy"
check lint-imports "import contracts" "$ROOT/.venv/bin/lint-imports" --no-cache
if [ "${#failed[@]}" -gt 0 ]; then
    echo "the checks failed (${failed[*]}): fix what they print above; the tests were not run" >&2
    exit 1
fi
echo "== pytest" >&2
set +e
# one worker per core, unless the caller chose (-n 0 runs everything in this process)
workers=(-n auto)
for arg in "$@"; do
    case "$arg" in -n|-n*|--numprocesses*|no:xdist) workers=() ;; esac
done
"$ROOT/.venv/bin/python" -m pytest "${workers[@]}" "$@"
status=$?
set -e
# pytest says 5 when it collected nothing: that is a broken suite, not a pass, so say it plainly
if [ "$status" -eq 5 ]; then
    echo "no tests were collected: the test suite is missing or broken" >&2
fi
exit "$status"
