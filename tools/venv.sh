#!/usr/bin/env bash
# Sourced by tools/setup.sh and packaging/build-venv.sh: one way to keep a virtual environment of
# BPE Lab's up to date.
#
# ensure_venv DIR INSTALL: a venv in DIR made with $PYTHON (3.11 or newer), and the shell function
# INSTALL run with the venv's python whenever pyproject.toml changed since it last ran.
ensure_venv() {
    local venv="$1" install="$2"
    local python="${PYTHON:-python3}"
    if [ ! -x "$venv/bin/python" ]; then
        "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
            echo "BPE Lab needs Python 3.11 or newer ($python is $("$python" --version 2>&1))" >&2; exit 1; }
        echo "bpe-lab set-up: making a virtual environment in $venv" >&2
        "$python" -m venv "$venv"
    fi
    local stamp="$venv/.bpe-lab-installed"
    local want
    want="$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1)"
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        echo "bpe-lab set-up: updating pip in $venv" >&2
        "$venv/bin/python" -m pip install --quiet --upgrade pip >&2
        "$install" "$venv/bin/python"
        echo "$want" > "$stamp"
        echo "bpe-lab set-up: done" >&2
    fi
}
