# shellcheck shell=bash
# What the scripts under scripts/ share, sourced (never run) by each after it has changed to the
# repository's root:
#   source scripts/lib.sh
# Messages go to stderr after the script's name (`bench-serve: …`), or after $say_as when the
# script sets it (the ones that speak as `thumbs: …`).

say_as=${say_as:-${0##*/}}

# say MESSAGE...: one line on stderr, after the script's name.
say() {
    echo "$say_as: $*" >&2
}

# install_packages PACKAGE...: installs Debian's PACKAGES with apt-get, quietly, as root or
# through sudo, saying which; nothing when none is named. Fails, saying why, where apt-get or
# root is missing, or when apt-get does.
install_packages() {
    [ $# -gt 0 ] || return 0
    local sudo=""
    if ! command -v apt-get >/dev/null 2>&1; then
        say "please install $* (Debian's names; this system has no apt-get)"
        return 1
    fi
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { say "installing $* needs root or sudo"; return 1; }
        sudo=sudo
    fi
    say "installing $*"
    $sudo apt-get update -qq >&2 &&
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# requirements FROM NEED...: the packages of scripts/requirements.tsv that NEEDS take from FROM
# (debian or pypi), one a line, each once.
requirements() {
    local from=$1
    shift
    awk -F '\t' -v from="$from" -v wanted="$*" '
        BEGIN { n = split(wanted, list, " "); for (i = 1; i <= n; i++) want[list[i]] = 1 }
        /^#/ || NF < 3 || $2 != from { next }
        { m = split($1, needs, ","); for (i = 1; i <= m; i++) if (needs[i] in want && !seen[$3]++) print $3 }
    ' scripts/requirements.tsv
}

# require NEED...: installs the Debian packages of scripts/requirements.tsv that NEEDS take and
# this machine lacks (install_packages). Where THUMBS_NEEDS_MARKS names a folder (a run that
# scripts/check-packages traces), it first opens a file there named after NEEDS, from this
# script's own process, which tells the trace what this script declared it uses. Without
# dpkg-query (not Debian), it says what it would install and goes on.
require() {
    local package status wanted=() absent=()
    local -A installed=()
    if [ -n "${THUMBS_NEEDS_MARKS:-}" ]; then
        : >"$THUMBS_NEEDS_MARKS/$(IFS=,; echo "$*")"
    fi
    mapfile -t wanted < <(requirements debian "$@")
    [ ${#wanted[@]} -gt 0 ] || return 0
    if ! command -v dpkg-query >/dev/null 2>&1; then
        say "this system has no dpkg: make sure it has what Debian calls ${wanted[*]}"
        return 0
    fi
    # One dpkg-query for them all; a package it does not know is absent.
    while read -r status package; do
        [ "$status" = ii ] && installed[$package]=1
    done < <(dpkg-query -W -f '${db:Status-Abbrev} ${Package}\n' "${wanted[@]}" 2>/dev/null || true)
    for package in "${wanted[@]}"; do
        [ -n "${installed[$package]:-}" ] || absent+=("$package")
    done
    install_packages ${absent[@]+"${absent[@]}"}
}

# python_venv FOLDER NEED...: prints the Python of the virtual environment FOLDER (a path from the
# repository's root, as .build/test-venv) holding the PyPI packages of scripts/requirements.tsv
# that NEEDS take, at their pinned versions; made anew when the pins change (installing Debian's
# python3-venv when venv lacks its pip bootstrap), so that nothing goes into the system's Python.
# Every step is checked here: callers run it in $(...), where `set -e` does not reach.
python_venv() {
    local venv=$1 pins
    shift
    pins=$(requirements pypi "$@")
    if [ ! -x "$venv/bin/python" ] || [ "$(cat "$venv/thumbs-requirements" 2>/dev/null)" != "$pins" ]; then
        rm -rf "$venv"
        # Debian ships venv's pip bootstrap in a package of its own.
        if ! python3 -m venv "$venv" >/dev/null 2>&1; then
            rm -rf "$venv"
            install_packages python3-venv && python3 -m venv "$venv" >&2 || return 1
        fi
        say "installing $(echo "$pins" | paste -sd ' ') into $venv"
        # shellcheck disable=SC2086 # one pin a word
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $pins >&2 || return 1
        echo "$pins" >"$venv/thumbs-requirements"
    fi
    echo "$PWD/$venv/bin/python"
}

# require_build: what building Thumbs needs: a Swift toolchain (said, never installed, when
# absent), what it uses from Debian, and the C libraries Thumbs links (require toolchain build).
require_build() {
    if ! command -v swift >/dev/null 2>&1; then
        say "the Swift toolchain (6.1 or later) is required: https://www.swift.org/install/"
        return 1
    fi
    require toolchain build
}

# run_module PYTHON MODULE ARGUMENT...: runs MODULE of scripts/ (thumbs_tools.…, mutation_sweep)
# with the Python PYTHON; exec_module does it in place of the script.
run_module() {
    PYTHONPATH="$PWD/scripts" PYTHONDONTWRITEBYTECODE=1 "$1" -m "${@:2}"
}
exec_module() {
    PYTHONPATH="$PWD/scripts" PYTHONDONTWRITEBYTECODE=1 exec "$1" -m "${@:2}"
}

# help_of_module MODULE ARGUMENT...: when ARGUMENTS ask for help (-h, --help), prints MODULE's
# (a thumbs_tools module whose options the script takes) in place of the script.
help_of_module() {
    local module=$1 argument
    shift
    for argument in "$@"; do
        if [ "$argument" = -h ] || [ "$argument" = --help ]; then
            exec_module python3 "$module" --help
        fi
    done
}

# exec_benchmark MODULE ARGUMENT...: runs the benchmark MODULE (a thumbs_tools module taking
# --thumbs PATH) with ARGUMENTS in place of the script, with a release build of thumbs made now
# (scripts/build-release) when ARGUMENTS name none (as `--thumbs PATH` or `--thumbs=PATH`), by
# $benchmark_python where the script set it (the benchmarks' virtual environment, with Pillow),
# else python3.
exec_benchmark() {
    local module=$1 argument thumbs python=${benchmark_python:-python3}
    shift
    for argument in "$@"; do
        case "$argument" in --thumbs | --thumbs=*) exec_module "$python" "$module" "$@" ;; esac
    done
    thumbs=$(scripts/build-release)
    exec_module "$python" "$module" --thumbs "$thumbs" "$@"
}
