#!/usr/bin/env bash
# Sets up everything BPE Lab needs, once: Qt's system libraries (when running as root on
# Debian and they are missing) and a virtual environment in .venv with the project installed.
# Sourced by tools/bpe-lab.sh and tools/test.sh; safe to run again, it only does what is missing.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
source "$ROOT/tools/venv.sh"
source "$ROOT/tools/system.sh"

install_project() {
    echo "bpe-lab set-up: installing BPE Lab and its dependencies into .venv (about 2 minutes, once)" >&2
    # pip's own lines (one per package collected and installed) are the progress of the longest step
    "$1" -m pip install -e "$ROOT[test]" >&2
}

install_system_packages
ensure_venv "$VENV" install_project
