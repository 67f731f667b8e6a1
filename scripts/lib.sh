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

# install_absent PACKAGE...: install_packages of those of Debian's PACKAGES that are not installed.
install_absent() {
    local package absent=()
    for package in "$@"; do
        dpkg -s "$package" >/dev/null 2>&1 || absent+=("$package")
    done
    install_packages "${absent[@]}"
}

# pip_install PYTHON MODULES PACKAGE...: installs PACKAGES from PyPI into PYTHON unless it can
# already `import MODULES` (comma-separated).
pip_install() {
    local python=$1 modules=$2
    shift 2
    "$python" -c "import $modules" 2>/dev/null && return 0
    say "installing $*"
    "$python" -m pip install --quiet --disable-pip-version-check "$@" >&2
}

# python_venv FOLDER MODULES PACKAGE...: prints the Python of the virtual environment FOLDER (a
# path from the repository's root, as .build/test-venv), made anew with PACKAGES from PyPI when it
# cannot `import MODULES` (installing Debian's python3-venv when venv lacks its pip bootstrap), so
# that nothing goes into the system's Python. Every step is checked here: callers run it in
# $(...), where `set -e` does not reach.
python_venv() {
    local venv=$1 modules=$2
    shift 2
    if ! "$venv/bin/python" -c "import $modules" 2>/dev/null; then
        rm -rf "$venv"
        # Debian ships venv's pip bootstrap in a package of its own.
        if ! python3 -m venv "$venv" >/dev/null 2>&1; then
            rm -rf "$venv"
            install_packages python3-venv && python3 -m venv "$venv" >&2 || return 1
        fi
        pip_install "$venv/bin/python" "$modules" "$@" || return 1
    fi
    echo "$PWD/$venv/bin/python"
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
# (scripts/build-release) when ARGUMENTS name none (as `--thumbs PATH` or `--thumbs=PATH`).
exec_benchmark() {
    local module=$1 argument thumbs
    shift
    for argument in "$@"; do
        case "$argument" in --thumbs | --thumbs=*) exec_module python3 "$module" "$@" ;; esac
    done
    thumbs=$(scripts/build-release)
    exec_module python3 "$module" --thumbs "$thumbs" "$@"
}
