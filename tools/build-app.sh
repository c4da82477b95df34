#!/usr/bin/env bash
# Builds BPE Lab's offline bundle, dist/bpe-lab/ (PyInstaller, one folder, packaging/bpe-lab.spec),
# in a build environment of its own (.venv-build). Then check it with: bash tools/check-app.sh dist/bpe-lab
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/packaging/build-venv.sh"

# the fonts the bundle carries for the glyphs and scripts BPE Lab shows (Debian's packages)
FONT_PACKAGES="fonts-dejavu-core fonts-lohit-deva fonts-lohit-taml fonts-wqy-microhei fonts-noto-color-emoji"
if command -v dpkg-query >/dev/null 2>&1; then
    missing=()
    for pkg in $FONT_PACKAGES; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" -eq 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
    elif [ ${#missing[@]} -gt 0 ]; then
        echo "the bundle will lack these fonts (install them first: sudo apt-get install ${missing[*]})" >&2
    fi
fi

cd "$ROOT"
rm -rf dist/bpe-lab
"$BUILD_VENV/bin/pyinstaller" --noconfirm --clean --log-level WARN \
    --distpath dist --workpath build/pyinstaller packaging/bpe-lab.spec
# Python's library comes with its debugging symbols (about 18 MB); the other libraries are stripped
# already, and stripping numpy's OpenBLAS would break it
if command -v strip >/dev/null; then
    strip --strip-debug dist/bpe-lab/_internal/libpython3*.so*
fi
cp packaging/install.sh dist/bpe-lab/install.sh
chmod +x dist/bpe-lab/install.sh

echo "built dist/bpe-lab: $(du -sh dist/bpe-lab | cut -f1) on disk, $(find dist/bpe-lab -type f | wc -l) files"
