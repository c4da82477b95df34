#!/usr/bin/env bash
# Sets up BPE Lab if needed, then opens the window (on the default lesson, or on the file given).
# The window needs a screen: with none, it says so before setting anything up but the virtual screen
# (xvfb-run, installed when running as root).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# the first words that run a command rather than open the window (app/cli.py: COMMANDS and OPTIONS)
NO_WINDOW="train count encode decode export quiz snapshot compare metrics compare-algorithms -h --help --version --install-desktop-entry --uninstall-desktop-entry"

needs_window() {
    local first="${1-}" word
    for word in $NO_WINDOW; do
        [ "$first" = "$word" ] && return 1
    done
    return 0
}

if [ "$(uname -s)" = "Linux" ] && needs_window "$@" \
    && [ -z "${DISPLAY-}" ] && [ -z "${WAYLAND_DISPLAY-}" ] && [ -z "${QT_QPA_PLATFORM-}" ]; then
    echo "bpe-lab: the window needs a screen, and this session has none (DISPLAY and WAYLAND_DISPLAY are not set)." >&2
    if ! command -v xvfb-run >/dev/null 2>&1; then
        # only the virtual screen's packages: the rest of the set-up waits until there is a window to open
        source "$ROOT/tools/system.sh"
        install_system_packages $X_PACKAGES
    fi
    if command -v xvfb-run >/dev/null 2>&1; then
        cat >&2 <<'TEXT'
Start it from a desktop session, or on a machine with no screen under a virtual one:
    xvfb-run -a bash tools/bpe-lab.sh
TEXT
    else
        cat >&2 <<'TEXT'
Start it from a desktop session, or on a machine with no screen under a virtual one, which Debian's
xvfb package gives (sudo apt-get install xvfb xauth):
    xvfb-run -a bash tools/bpe-lab.sh
TEXT
    fi
    echo "The commands need no screen: bash tools/bpe-lab.sh --help lists them (train, encode, export, snapshot...)." >&2
    exit 2
fi

source "$ROOT/tools/setup.sh"
exec "$ROOT/.venv/bin/bpe-lab" "$@"
