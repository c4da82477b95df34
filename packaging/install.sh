#!/usr/bin/env bash
# Installs this BPE Lab bundle for the current user, with no network and no administrator rights:
# copies the folder to ~/.local/share/bpe-lab/bundle (so a USB stick can be taken out afterwards)
# and adds BPE Lab to the application menu, with its icon and the .bpelab lesson type.
#
#   bash install.sh              install or update
#   bash install.sh --uninstall  remove the menu entry and the installed copy
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DATA_HOME="${XDG_DATA_HOME:-$HOME/.local/share}"
case "$DATA_HOME" in /*) ;; *) DATA_HOME="$HOME/.local/share" ;; esac
DEST="$DATA_HOME/bpe-lab/bundle"
LINK="$HOME/.local/bin/bpe-lab"

fail() { echo "install.sh: $*" >&2; exit 1; }

uninstall() {
    if [ -x "$DEST/bpe-lab" ]; then
        "$DEST/bpe-lab" --uninstall-desktop-entry
    fi
    if [ -L "$LINK" ] && [ "$(readlink "$LINK")" = "$DEST/bpe-lab" ]; then
        rm -f "$LINK"
    fi
    rm -rf "$DEST"
    rmdir "$(dirname "$DEST")" 2>/dev/null || true
    echo "BPE Lab removed (your lessons, settings and autosave stay where they are)"
}

install() {
    [ -x "$HERE/bpe-lab" ] || fail "no bpe-lab executable beside this script: run the install.sh inside the bpe-lab folder"
    # a bundle that cannot even say its version is damaged: stop before anything changes
    version="$("$HERE/bpe-lab" --version 2>&1)" || fail "this copy of BPE Lab does not start ($version): copy the bpe-lab folder again"
    if [ "$HERE" != "$DEST" ]; then
        mkdir -p "$(dirname "$DEST")" 2>/dev/null || fail "cannot create $(dirname "$DEST"): is your home folder writable? nothing was changed"
        staging="$(mktemp -d "$(dirname "$DEST")/.bundle.XXXXXX" 2>/dev/null)" || fail "cannot write in $(dirname "$DEST"): nothing was changed"
        if ! cp -a "$HERE/." "$staging/"; then
            rm -rf "$staging"
            fail "copying the bundle to $DEST failed (is the disk full?): nothing was changed"
        fi
        rm -rf "$DEST"
        mv "$staging" "$DEST"
    fi
    "$DEST/bpe-lab" --install-desktop-entry
    if [ -d "$HOME/.local/bin" ]; then
        ln -sfn "$DEST/bpe-lab" "$LINK" && echo "the bpe-lab command is $LINK"
    fi
    echo "installed $version in $DEST: find BPE Lab in the application menu"
}

case "${1:-}" in
    --uninstall) uninstall ;;
    "") install ;;
    *) fail "unknown option $1 (use no option to install, or --uninstall)" ;;
esac
