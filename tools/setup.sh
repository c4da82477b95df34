#!/usr/bin/env bash
# Sets up everything BPE Lab needs, once: Qt's system libraries (when running as root on
# Debian and they are missing) and a virtual environment in .venv with the project installed.
# Sourced by tools/bpe-lab.sh and tools/test.sh; safe to run again, it only does what is missing.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
source "$ROOT/tools/venv.sh"

QT_PACKAGES="libgl1 libegl1 libxkbcommon0 libfontconfig1 libdbus-1-3 libglib2.0-0 fonts-dejavu-core"
# scripts the explorer and the multilingual presets show: Devanagari, Tamil, Chinese and Japanese, emoji
FONT_PACKAGES="fonts-lohit-deva fonts-lohit-taml fonts-wqy-microhei fonts-noto-color-emoji"
# what the tests use to check the menu entry and the .bpelab file type the app installs
DESKTOP_PACKAGES="desktop-file-utils shared-mime-info"
X_PACKAGES="xvfb xauth libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-render-util0 libxcb-shape0 libxkbcommon-x11-0"

install_system_packages() {
    command -v dpkg-query >/dev/null 2>&1 || return 0
    local missing=()
    for pkg in $QT_PACKAGES $FONT_PACKAGES $X_PACKAGES $DESKTOP_PACKAGES; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "BPE Lab needs these Debian packages: ${missing[*]}" >&2
        echo "install them with: sudo apt-get install ${missing[*]}" >&2
        return 0
    fi
    echo "installing system packages: ${missing[*]}" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

install_project() {
    "$1" -m pip install --quiet -e "$ROOT[test]" >&2
}

install_system_packages
ensure_venv "$VENV" install_project
