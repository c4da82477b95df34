#!/usr/bin/env bash
# Writes dist/wheelhouse/: BPE Lab's wheel and a wheel of every dependency, for this platform and
# this Python version, so a machine with no network installs it from a folder (a USB stick):
#   python3 -m venv bpe-lab-env && bpe-lab-env/bin/pip install --no-index --find-links wheelhouse bpe-lab
#   (or: pipx install --pip-args="--no-index --find-links wheelhouse" bpe-lab)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/packaging/build-venv.sh"
OUT="$ROOT/dist/wheelhouse"

# the wheel is built from a clean copy of the sources: never from an old build/ folder's leftovers
SRC="$(mktemp -d)"
trap 'rm -rf "$SRC"' EXIT
tar -C "$ROOT" --exclude=./.git --exclude='./.venv*' --exclude=./dist --exclude=./build --exclude=./bench/out \
    --exclude='__pycache__' --exclude='*.egg-info' --exclude=.pytest_cache --exclude=.hypothesis -cf - . | tar -C "$SRC" -xf -

rm -rf "$OUT"
mkdir -p "$OUT"
"$BUILD_VENV/bin/python" -m pip wheel --quiet --wheel-dir "$OUT" "$SRC"
echo "wrote $OUT: $(ls "$OUT" | wc -l) wheels, $(du -sh "$OUT" | cut -f1), for $("$BUILD_VENV/bin/python" -c 'import sys, platform; print(f"Python {sys.version_info[0]}.{sys.version_info[1]} on {platform.system()} {platform.machine()}")')"
ls "$OUT"
