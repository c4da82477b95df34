#!/usr/bin/env bash
# Sourced by tools/build-app.sh and tools/wheelhouse.sh: a virtual environment in .venv-build, kept
# apart from the developer's .venv, holding BPE Lab's dependencies and the build tools of the
# optional group "bundle" (PyInstaller). The project itself is not installed there: PyInstaller reads
# it from the source tree, so the bundle is always what the checkout holds.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_VENV="$ROOT/.venv-build"
source "$ROOT/tools/venv.sh"

requirements() {
    # the project's dependencies and its "bundle" group, read from pyproject.toml: one list to keep
    "$BUILD_VENV/bin/python" - "$ROOT/pyproject.toml" <<'PY'
import sys, tomllib
project = tomllib.load(open(sys.argv[1], "rb"))["project"]
print("\n".join(project["dependencies"] + project["optional-dependencies"]["bundle"]))
PY
}

install_build_tools() {
    echo "installing the build tools into $BUILD_VENV" >&2
    local reqs
    reqs="$(mktemp)"
    requirements > "$reqs"
    "$1" -m pip install --quiet -r "$reqs" >&2
    rm -f "$reqs"
}

ensure_venv "$BUILD_VENV" install_build_tools
