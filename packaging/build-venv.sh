#!/usr/bin/env bash
# Sourced by tools/build-app.sh and tools/wheelhouse.sh: a virtual environment in .venv-build, kept
# apart from the developer's .venv, holding BPE Lab's dependencies and the build tools of the
# optional group "bundle" (PyInstaller). The project itself is not installed there: PyInstaller reads
# it from the source tree, so the bundle is always what the checkout holds.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_VENV="$ROOT/.venv-build"
PYTHON="${PYTHON:-python3}"

requirements() {
    # the project's dependencies and its "bundle" group, read from pyproject.toml: one list to keep
    "$BUILD_VENV/bin/python" - "$ROOT/pyproject.toml" <<'PY'
import sys, tomllib
project = tomllib.load(open(sys.argv[1], "rb"))["project"]
print("\n".join(project["dependencies"] + project["optional-dependencies"]["bundle"]))
PY
}

make_build_venv() {
    if [ ! -x "$BUILD_VENV/bin/python" ]; then
        "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
            echo "building BPE Lab needs Python 3.11 or newer ($PYTHON is $("$PYTHON" --version 2>&1))" >&2; exit 1; }
        "$PYTHON" -m venv "$BUILD_VENV"
    fi
    local stamp="$BUILD_VENV/.bpe-lab-build-installed"
    local want
    want="$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1)"
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        echo "installing the build tools into $BUILD_VENV" >&2
        "$BUILD_VENV/bin/python" -m pip install --quiet --upgrade pip >&2
        local reqs
        reqs="$(mktemp)"
        requirements > "$reqs"
        "$BUILD_VENV/bin/python" -m pip install --quiet -r "$reqs" >&2
        rm -f "$reqs"
        echo "$want" > "$stamp"
    fi
}

make_build_venv
