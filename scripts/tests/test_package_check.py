"""Reading a traced run (package_trace) and judging its packages (package_check), on strace's
own output forms: plain calls, calls split by another process's, threads, ends, reused ids."""

from pathlib import Path

import pytest

from thumbs_tools.package_check import (
    PackageJudge,
    declared_needs,
    depends_closure,
    merged,
    owners_from_lists,
    scanned_folders,
)
from thumbs_tools.package_trace import Call, Ended, Started, events, unescaped, usage

MARKS = "/work/.build/package-trace/test/marks"
CLONE = "clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = {}"


def trace(*lines: str) -> list[str]:
    return [line + "\n" for line in lines]


def opened(pid: int, path: str) -> str:
    return f'{pid}  openat(AT_FDCWD, "{path}", O_RDONLY|O_CLOEXEC) = 3'


def ran(pid: int, path: str, *argv: str) -> str:
    words = ", ".join(f'"{word}"' for word in argv or (path,))
    return f'{pid}  execve("{path}", [{words}], 0x7ffe /* 35 vars */) = 0'


def marked(pid: int, needs: str) -> str:
    return f'{pid}  openat(AT_FDCWD, "{MARKS}/{needs}", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3'


def test_events_join_an_unfinished_call_to_its_resumption() -> None:
    lines = trace(
        '10  openat(AT_FDCWD, "/usr/lib/libz.so.1", O_RDONLY|O_CLOEXEC <unfinished ...>',
        "11  " + CLONE.format(12),
        "12  +++ exited with 0 +++",
        "10  <... openat resumed>) = 4",
        "11  clone3({flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD}, 88 <unfinished ...>",
        "11  <... clone3 resumed>) = ?",
        "11  +++ killed by SIGKILL +++",
    )
    assert list(events(lines)) == [
        Started(10, "openat"),
        Call(11, "clone", CLONE.format(12).removeprefix("clone(").rsplit(")", 1)[0], 12),
        Ended(12),
        Call(10, "openat", 'AT_FDCWD, "/usr/lib/libz.so.1", O_RDONLY|O_CLOEXEC', 4),
        Started(11, "clone3"),
        Call(11, "clone3", "{flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD}, 88", None),
        Ended(11),
    ]


def test_a_result_printed_on_its_own_line_after_an_end_resumes_the_last_lines_call() -> None:
    lines = trace(
        "12  +++ exited with 0 +++",
        "10  clone3({flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD}, 88 <unfinished ...>",
        ")                                       = 13",
        ran(13, "/usr/bin/git"),
        "13  +++ exited with 0 +++",
        "10  clone(child_stack=NULL, flags=SIGCHLD <unfinished ...>",
        ", child_tidptr=0x7f78e6923a10)          = 14",
    )
    read = list(events(lines))
    assert read[2] == Call(10, "clone3", "{flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD}, 88", 13)
    assert read[-1] == Call(10, "clone", "child_stack=NULL, flags=SIGCHLD, child_tidptr=0x7f78e6923a10", 14)
    used = usage(trace(ran(10, "/usr/bin/bash", "bash", "scripts/test"), marked(10, "build"), *lines), MARKS)
    assert used.by_needs[frozenset({"build"})]["/usr/bin/git"] == ("test", "/usr/bin/git")


def test_a_call_that_failed_is_kept_with_its_result_and_then_not_used() -> None:
    lines = trace('10  openat(AT_FDCWD, "/usr/lib/none.so", O_RDONLY) = -1 ENOENT (No such file or directory)')
    [call] = events(lines)
    assert isinstance(call, Call) and call.result == -1
    assert usage(lines, MARKS).by_needs == {}


def test_paths_are_unescaped_and_only_absolute_ones_kept() -> None:
    assert unescaped(r"/tmp/a\"b\\c\x41") == '/tmp/a"b\\cA'
    assert Call(1, "openat", 'AT_FDCWD, "relative/file", O_RDONLY', 3).path() is None
    assert Call(1, "openat", '5, "/usr/x", O_RDONLY', 3).path() is None
    assert Call(1, "openat", 'AT_FDCWD, "/usr/x", O_RDONLY', 3).path() == "/usr/x"


def test_needs_marked_by_a_script_reach_its_later_children_only() -> None:
    used = usage(
        trace(
            ran(1, "/usr/bin/bash", "bash", "scripts/test-gnome-thumbnailer"),
            "1  " + CLONE.format(2),
            marked(1, "gnome-thumbnailer,bench"),
            "1  " + CLONE.format(3),
            ran(2, "/usr/bin/early"),
            opened(3, "/usr/lib/loader.so"),
        ),
        MARKS,
    )
    assert used.marks == 1
    assert used.by_needs[frozenset()] == {
        "/usr/bin/bash": ("test-gnome-thumbnailer", "/usr/bin/bash"),
        "/usr/bin/early": ("test-gnome-thumbnailer", "/usr/bin/early"),
    }
    assert used.by_needs[frozenset({"gnome-thumbnailer", "bench"})] == {
        "/usr/lib/loader.so": ("test-gnome-thumbnailer", "/usr/bin/bash")
    }


def test_a_child_printed_before_its_making_is_placed_under_its_parent() -> None:
    used = usage(
        trace(
            ran(1, "/usr/bin/bash", "bash", "scripts/test"),
            marked(1, "media-tools"),
            ran(2, "/usr/bin/ffmpeg"),
            "1  " + CLONE.format(2),
        ),
        MARKS,
    )
    assert used.by_needs[frozenset({"media-tools"})] == {"/usr/bin/ffmpeg": ("test", "/usr/bin/ffmpeg")}


def test_an_id_made_in_a_pid_namespace_is_read_as_the_trace_names_it() -> None:
    used = usage(
        trace(
            ran(1, "/usr/bin/bash", "bash", "scripts/test-gnome-thumbnailer"),
            marked(1, "gnome-thumbnailer"),
            "1  " + CLONE.format("2 /* 40 in strace's PID NS */"),
            ran(40, "/usr/bin/bwrap"),
        ),
        MARKS,
    )
    assert used.by_needs[frozenset({"gnome-thumbnailer"})] == {
        "/usr/bin/bwrap": ("test-gnome-thumbnailer", "/usr/bin/bwrap")
    }


def test_an_id_that_ended_is_a_new_process_even_before_its_making_is_printed() -> None:
    used = usage(
        trace(
            ran(1, "/usr/bin/bash", "bash", "scripts/test"),
            "1  " + CLONE.format(5),
            marked(5, "browser"),
            "5  +++ exited with 0 +++",
            ran(5, "/usr/bin/ffmpeg"),
            marked(1, "media-tools"),
            "1  " + CLONE.format(5),
        ),
        MARKS,
    )
    assert used.by_needs[frozenset({"media-tools"})] == {"/usr/bin/ffmpeg": ("test", "/usr/bin/ffmpeg")}


def test_a_child_that_ended_before_its_making_was_printed_is_placed_under_its_parent() -> None:
    used = usage(
        trace(
            ran(1, "/usr/bin/bash", "bash", "scripts/test"),
            marked(1, "media-tools"),
            "1  vfork( <unfinished ...>",
            ran(2, "/usr/bin/ffprobe"),
            "2  +++ exited with 0 +++",
            "1  <... vfork resumed>) = 2",
        ),
        MARKS,
    )
    assert used.by_needs[frozenset({"media-tools"})] == {"/usr/bin/ffprobe": ("test", "/usr/bin/ffprobe")}


def test_a_child_whose_maker_ended_in_the_call_is_placed_under_the_processes_then_making() -> None:
    spawn = "clone3({flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD}, 88"
    used = usage(
        trace(
            ran(1, "/usr/bin/bash", "bash", "scripts/test"),
            "1  " + CLONE.format(2),
            marked(1, "build"),
            ran(2, "/usr/bin/bash", "bash", "scripts/test-browser"),
            marked(2, "browser"),
            f"1  {spawn} <unfinished ...>",
            f"2  {spawn} <unfinished ...>",
            ran(3, "/work/.build/debug/thumbs-render-worker"),
            "1  <... clone3 resumed>) = ?",
            "2  <... clone3 resumed>) = 4",
            ran(4, "/usr/bin/chromium"),
            "1  +++ killed by SIGKILL +++",
        ),
        MARKS,
    )
    worker = "/work/.build/debug/thumbs-render-worker"
    assert used.by_needs[frozenset({"build", "browser"})] == {worker: ("test or test-browser", worker)}
    assert used.by_needs[frozenset({"browser"})]["/usr/bin/chromium"] == ("test-browser", "/usr/bin/chromium")


def test_what_a_thread_makes_before_its_own_making_is_printed_is_placed_with_it() -> None:
    thread = "clone3({flags=CLONE_VM|CLONE_THREAD, exit_signal=0}, 88"
    spawn = "clone3({flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD}, 88"
    compiler = "/opt/swift/usr/bin/swift-frontend"
    used = usage(
        trace(
            ran(1, "/usr/bin/bash", "bash", "scripts/test"),
            marked(1, "toolchain"),
            f"1  {thread} <unfinished ...>",
            f"2  {spawn} <unfinished ...>",
            ran(3, compiler),
            "2  <... clone3 resumed>) = 3",
            opened(3, "/usr/include/fcntl.h"),
            "3  +++ exited with 0 +++",
            "1  <... clone3 resumed>) = 2",
        ),
        MARKS,
    )
    assert used.by_needs[frozenset({"toolchain"})] == {
        compiler: ("test", compiler),
        "/usr/include/fcntl.h": ("test", compiler),
    }


def test_what_an_unplaced_process_made_takes_its_presumed_makers_needs() -> None:
    spawn = "clone3({flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD}, 88"
    used = usage(
        trace(
            ran(1, "/usr/bin/bash", "bash", "scripts/test"),
            marked(1, "build"),
            f"1  {spawn} <unfinished ...>",
            "2  " + CLONE.format(3),
            opened(3, "/usr/include/stdio.h"),
            "1  <... clone3 resumed>) = ?",
            "1  +++ killed by SIGKILL +++",
        ),
        MARKS,
    )
    assert used.by_needs[frozenset({"build"})] == {"/usr/include/stdio.h": ("test", "")}


def test_a_reused_id_is_a_new_process() -> None:
    used = usage(
        trace(
            ran(1, "/usr/bin/bash", "bash", "scripts/test"),
            "1  " + CLONE.format(5),
            marked(5, "browser"),
            "1  " + CLONE.format(5),
            opened(5, "/usr/bin/chromium"),
        ),
        MARKS,
    )
    assert used.by_needs == {
        frozenset(): {"/usr/bin/bash": ("test", "/usr/bin/bash"), "/usr/bin/chromium": ("test", "/usr/bin/bash")}
    }


def test_what_the_package_manager_opens_is_installing_not_using() -> None:
    used = usage(
        trace(
            ran(1, "/usr/bin/bash", "bash", "scripts/test"),
            "1  " + CLONE.format(2),
            ran(2, "/usr/bin/apt-get", "apt-get", "install", "-y", "ffmpeg"),
            "2  " + CLONE.format(3),
            ran(3, "/usr/bin/dpkg"),
            opened(3, "/usr/share/perl5/Debconf/Db.pm"),
        ),
        MARKS,
    )
    assert used.by_needs == {frozenset(): {"/usr/bin/bash": ("test", "/usr/bin/bash")}}


def test_the_closure_reads_packages_targets_and_providers() -> None:
    output = "python3-gi\n  Depends: gir1.2-glib-2.0\n |Depends: <python3:any>\n    python3\nlibc6:amd64\n"
    assert depends_closure(output) == {"python3-gi", "gir1.2-glib-2.0", "python3", "libc6"}


def test_declared_needs_split_the_needs_column_and_keep_the_source_apart() -> None:
    text = (
        "# comment\n"
        "gnome-thumbnailer,bench-desktop-cache\tdebian\theif-gdk-pixbuf\tthe HEIF loader\n"
        "check\tpypi\truff==0.17.6\tlint\n"
        "*\toptional\tlocales\tlocale.alias\n"
    )
    assert declared_needs(text) == {
        "gnome-thumbnailer": {"heif-gdk-pixbuf"},
        "bench-desktop-cache": {"heif-gdk-pixbuf"},
    }
    assert declared_needs(text, "optional") == {"*": {"locales"}}


def test_scanned_folders_are_read_from_their_lines() -> None:
    text = "*\tscanned\t/lib/systemd/system\tunits\n*\toptional\tlocales\talias\n"
    assert scanned_folders(text) == ("/usr/lib/systemd/system/",)


def test_owners_name_files_below_merged_usr() -> None:
    owners = owners_from_lists([("libc6", "/.\n/lib/x86_64-linux-gnu/libc.so.6\n"), ("bash", "/bin/bash\n")])
    assert owners[merged("/lib/x86_64-linux-gnu/libc.so.6")] == "libc6"
    assert owners["/usr/bin/bash"] == "bash"
    assert merged("/usr/lib/x") == "/usr/lib/x"
    assert merged("/etc/x") == "/etc/x"


@pytest.fixture
def shipped(tmp_path: Path) -> dict[str, Path]:
    files = {name: tmp_path / name for name in ("loader.so", "python3.11", "unowned")}
    for path in files.values():
        path.write_text("")
    return files


def test_the_judge_finds_a_package_no_need_of_the_script_installs(shipped: dict[str, Path]) -> None:
    owners = {str(shipped["loader.so"]): "heif-gdk-pixbuf", str(shipped["python3.11"]): "python3.11"}
    judge = PackageJudge({"gnome-thumbnailer": {"python3-gi"}}, owners, {"libc6"})
    judge.closures = {"gnome-thumbnailer": {"python3-gi", "python3.11"}}
    needs = frozenset({"gnome-thumbnailer"})
    used = usage([], MARKS)
    used.by_needs[needs] = {
        str(shipped["loader.so"]): ("test-gnome-thumbnailer", "/usr/bin/python3.11"),
        str(shipped["python3.11"]): ("test-gnome-thumbnailer", ""),
        str(shipped["unowned"]): ("test-gnome-thumbnailer", ""),
        "/no/such/file": ("test-gnome-thumbnailer", ""),
    }
    [finding] = judge.findings(used)
    assert (finding.script, finding.package) == ("test-gnome-thumbnailer", "heif-gdk-pixbuf")
    assert "no need of it installs" in finding.line()
    judge.closures["gnome-thumbnailer"].add("heif-gdk-pixbuf")
    assert judge.findings(used) == []


def test_a_file_of_a_scanned_folder_shows_no_use_of_its_package(shipped: dict[str, Path]) -> None:
    owners = {str(shipped["loader.so"]): "avahi-daemon"}
    judge = PackageJudge({}, owners, set(), scanned=(str(shipped["loader.so"].parent) + "/",))
    used = usage([], MARKS)
    used.by_needs[frozenset()] = {str(shipped["loader.so"]): ("test-install", "/usr/bin/systemd-analyze")}
    assert judge.findings(used) == []
