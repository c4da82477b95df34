#!/usr/bin/env bash
# Sets up BPE Lab if needed, then opens the window (on the default lesson, or on the file given).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/tools/setup.sh"
exec "$ROOT/.venv/bin/bpe-lab" "$@"
