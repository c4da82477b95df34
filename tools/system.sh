#!/usr/bin/env bash
# Sourced by tools/setup.sh and tools/bpe-lab.sh: the Debian packages BPE Lab needs, installed with
# apt-get when the script runs as root (otherwise named, with the command that installs them).

QT_PACKAGES="libgl1 libegl1 libxkbcommon0 libfontconfig1 libdbus-1-3 libglib2.0-0 fonts-dejavu-core"
# scripts the explorer and the multilingual presets show: Devanagari, Tamil, Chinese and Japanese, emoji
FONT_PACKAGES="fonts-lohit-deva fonts-lohit-taml fonts-wqy-microhei fonts-noto-color-emoji"
# what the tests use to check the menu entry and the .bpelab file type the app installs
DESKTOP_PACKAGES="desktop-file-utils shared-mime-info"
# xvfb-run (a virtual screen, for a machine with none) and the X libraries Qt's xcb platform loads
X_PACKAGES="xvfb xauth libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-render-util0 libxcb-shape0 libxkbcommon-x11-0"
# the real browser the class-vote test drives (tools/test.sh installs these, the launcher never does)
TEST_PACKAGES="chromium chromium-driver"
# a fresh desktop updates itself at first boot and holds the package lock for minutes: wait, do not fail
APT_LOCK_WAIT_SECONDS=900

# install_system_packages [PACKAGE...]: the packages given (all of the above by default) that are missing
install_system_packages() {
    command -v dpkg-query >/dev/null 2>&1 || return 0
    local wanted="${*:-$QT_PACKAGES $FONT_PACKAGES $X_PACKAGES $DESKTOP_PACKAGES}"
    local missing=() pkg
    for pkg in $wanted; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "BPE Lab needs these Debian packages: ${missing[*]}" >&2
        echo "install them with: sudo apt-get install ${missing[*]}" >&2
        return 0
    fi
    echo "bpe-lab set-up: installing Debian packages: ${missing[*]}" >&2
    say_if_apt_is_busy
    local apt=(apt-get -o "DPkg::Lock::Timeout=$APT_LOCK_WAIT_SECONDS")
    DEBIAN_FRONTEND=noninteractive "${apt[@]}" update -qq >&2
    DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >&2
}

say_if_apt_is_busy() {
    command -v pgrep >/dev/null 2>&1 || return 0
    if pgrep -x 'apt|apt-get|aptitude|dpkg|unattended-upgr|synaptic' >/dev/null 2>&1; then
        echo "bpe-lab set-up: another package manager is running (a fresh system often updates itself):" \
             "waiting for it to finish, up to $((APT_LOCK_WAIT_SECONDS / 60)) minutes" >&2
    fi
}
