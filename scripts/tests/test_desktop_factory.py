import sys
from pathlib import Path

import pytest

from thumbs_tools.desktop_factory import (
    Answer,
    FactoryClient,
    FactoryEndedError,
    FactoryFailedError,
    closest_orientation,
    colour_name,
    entry_keys,
    entry_naming,
    fitted_size,
    grid_distance,
    oriented,
    quadrant_colours,
    sizes_agree,
    thumbnailer_folder,
)
from thumbs_tools.gnome_thumbnailer_test import worker_confinement

ENTRY = """[Thumbnailer Entry]
TryExec=thumbs-thumbnailer
Exec=thumbs-thumbnailer -s %s %u %o
MimeType=image/jpeg;image/png;
"""


def numbered_grid(side: int) -> list[list[int]]:
    """A grid whose every cell differs: cell i is [i, 0, 0]."""
    return [[index, 0, 0] for index in range(side * side)]


def test_entry_keys_reads_the_entry_group_only() -> None:
    text = "# comment\n[Other]\nExec=nothing\n" + ENTRY + "[Desktop Action x]\nExec=other\n"
    assert entry_keys(text) == {
        "TryExec": "thumbs-thumbnailer",
        "Exec": "thumbs-thumbnailer -s %s %u %o",
        "MimeType": "image/jpeg;image/png;",
    }


def test_entry_naming_puts_the_program_and_arguments_in_place() -> None:
    keys = entry_keys(entry_naming(ENTRY, "/usr/local/lib/t/bin/thumbs-thumbnailer", ["--verbose"]))
    assert keys["TryExec"] == "/usr/local/lib/t/bin/thumbs-thumbnailer"
    assert keys["Exec"] == "/usr/local/lib/t/bin/thumbs-thumbnailer --verbose -s %s %u %o"
    assert keys["MimeType"] == "image/jpeg;image/png;"


def test_thumbnailer_folder_holds_the_entries_and_links_the_system_data(tmp_path: Path) -> None:
    folder = thumbnailer_folder(tmp_path / "data", {"a.thumbnailer": ENTRY})
    assert [p.name for p in (folder / "thumbnailers").iterdir()] == ["a.thumbnailer"]
    assert (folder / "mime").readlink() == Path("/usr/share/mime")
    assert (folder / "glib-2.0").readlink() == Path("/usr/share/glib-2.0")


def test_fitted_size_fits_the_longest_side_and_never_enlarges() -> None:
    assert fitted_size(4000, 3000, 256) == (256, 192)
    assert fitted_size(3000, 4000, 128) == (96, 128)
    assert fitted_size(2312, 1720, 256) == (256, 190)
    assert fitted_size(100, 50, 256) == (100, 50)
    assert fitted_size(5000, 1, 128) == (128, 1)


def test_sizes_agree_within_rounding() -> None:
    assert sizes_agree((256, 191), (256, 190))
    assert not sizes_agree((256, 188), (256, 190))


def test_oriented_turns_and_mirrors_as_exif_says() -> None:
    # 2x2: a b / c d
    grid = [[1], [2], [3], [4]]
    assert oriented(grid, 1, 2) == [[1], [2], [3], [4]]
    assert oriented(grid, 2, 2) == [[2], [1], [4], [3]]
    assert oriented(grid, 3, 2) == [[4], [3], [2], [1]]
    assert oriented(grid, 4, 2) == [[3], [4], [1], [2]]
    assert oriented(grid, 5, 2) == [[1], [3], [2], [4]]
    assert oriented(grid, 6, 2) == [[3], [1], [4], [2]]  # clockwise: c a / d b
    assert oriented(grid, 7, 2) == [[4], [2], [3], [1]]
    assert oriented(grid, 8, 2) == [[2], [4], [1], [3]]  # anticlockwise: b d / a c


def test_turning_back_and_forth_is_the_identity() -> None:
    grid = numbered_grid(4)
    assert oriented(oriented(grid, 6, 4), 8, 4) == grid
    for mirror in (2, 3, 4, 5, 7):
        assert oriented(oriented(grid, mirror, 4), mirror, 4) == grid


def test_closest_orientation_finds_the_turn() -> None:
    reference = numbered_grid(8)
    assert closest_orientation(reference, reference, 8) == (1, 0.0)
    assert closest_orientation(oriented(reference, 6, 8), reference, 8) == (6, 0.0)
    assert grid_distance([[0, 0, 0]], [[3, 6, 9]]) == 6.0


def test_quadrant_colours_names_the_dng_scene() -> None:
    side = 8
    colours = {(0, 0): [230, 25, 25], (0, 1): [25, 205, 25], (1, 0): [20, 30, 220], (1, 1): [250, 250, 250]}
    grid = [colours[(row >= side // 2, column >= side // 2)] for row in range(side) for column in range(side)]
    assert quadrant_colours(grid, side) == ["red", "green", "blue", "white"]
    assert quadrant_colours(oriented(grid, 3, side), side) == ["white", "blue", "green", "red"]


def test_colour_name_leaves_unclear_colours_other() -> None:
    assert colour_name([128, 128, 128]) == "other"
    assert colour_name([200, 150, 20]) == "other"


def test_worker_confinement_reads_the_verbose_line() -> None:
    log = (
        "GnomeDesktop-DEBUG: About to launch script: bwrap ...\n"
        "2026-11-27T00:40:00+0000 debug thumbs : render worker confined by seccomp, landlock (ABI 7), "
        "no-new-privs\n"
        "thumbs: /tmp/gnome-desktop-file-to-thumbnail.jpg: truncated\n"
    )
    assert worker_confinement(log) == "seccomp, landlock (ABI 7), no-new-privs"
    own = "debug thumbs : rendered in this process (pid 7, no render worker), confined by seccomp, landlock (ABI 7)\n"
    assert worker_confinement(own) == "seccomp, landlock (ABI 7)"
    assert worker_confinement("nothing") is None


def test_a_failed_answer_says_its_error_where_its_picture_is_asked() -> None:
    failed = Answer({"ok": False, "error": "Couldn't recognize the image file format for file 'x.HEIC'"})
    assert not failed.ok
    assert failed.error.startswith("Couldn't recognize")
    with pytest.raises(FactoryFailedError, match="recognize the image file format"):
        _ = failed.grid
    with pytest.raises(FactoryFailedError, match="recognize the image file format"):
        _ = failed.size


def test_an_answer_that_succeeded_has_its_picture_and_no_error() -> None:
    answer = Answer({"ok": True, "width": 2, "height": 1, "grid": [[1, 2, 3]]})
    assert answer.error == ""
    assert answer.size == (2, 1)
    assert answer.grid == [[1, 2, 3]]


def test_a_factory_that_cannot_start_says_which_packages_it_lacks(tmp_path: Path) -> None:
    # The tooling's own Python has no GObject bindings: the worker cannot load the factory.
    with (
        FactoryClient(tmp_path / "data", tmp_path / "work", timeout=60, python=sys.executable) as factory,
        pytest.raises(FactoryEndedError, match=r"gir1\.2-gnomedesktop-3\.0 and python3-gi"),
    ):
        factory.generate(tmp_path / "a.jpg", "large")
