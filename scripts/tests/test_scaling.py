"""scripts/bench-scaling: the generated library's layout and bytes, what the server's answers
are read for, and the report's tables, notes and targets."""

import datetime
import itertools
import json
import struct
from pathlib import Path
from typing import Any

import pytest
from jpeg_bytes import jpeg

from thumbs_tools.bench.scaling import library
from thumbs_tools.bench.scaling.__main__ import parse_arguments
from thumbs_tools.bench.scaling.commands import entry_counts
from thumbs_tools.bench.scaling.report import notes, report, targets
from thumbs_tools.bench.scaling.serving import items_of, list_paths, listening_port, with_limit
from thumbs_tools.jpeg import jpeg_size

MACHINE = {"nproc": 2, "cpu": "AMD EPYC", "memory_gib": 23.5, "os": "Debian GNU/Linux 12 (bookworm)"}


def test_a_library_is_a_hundred_month_folders_of_one_percent_each() -> None:
    folders = library.layout(1_000_000)
    assert len(folders) == 100
    assert {f.count for f in folders} == {10_000}
    assert (folders[0].name, folders[-1].name) == ("2017-01", "2025-04")
    assert [f.first for f in folders[:3]] == [0, 10_000, 20_000]
    moved = library.moved_folder(1_000_000)
    assert (moved.name, moved.count) == ("2024-06", 10_000)


def test_the_first_folders_hold_what_does_not_divide_by_a_hundred() -> None:
    folders = library.layout(1_050)
    assert [f.count for f in folders[:51]] == [11] * 50 + [10]
    assert sum(f.count for f in folders) == 1_050
    assert all(b.first == a.first + a.count for a, b in itertools.pairwise(folders))


def test_a_library_holds_one_photo_a_folder_at_least() -> None:
    with pytest.raises(ValueError, match="at least 100"):
        library.layout(99)


def test_photos_are_spread_over_their_month_and_a_bursts_frames_a_second_apart() -> None:
    folders = library.layout(10_000)
    june = next(f for f in folders if f.name == "2024-06")
    dates = [library.taken(june, i) for i in range(june.first, june.first + june.count)]
    assert dates == sorted(dates)
    assert dates[0] == datetime.datetime(2024, 6, 1)
    assert dates[-1] < datetime.datetime(2024, 7, 1) and dates[-1].day == 30
    first = folders[0]
    assert library.taken(first, 0) == datetime.datetime(2017, 1, 1, 9, 0, 0)
    assert library.taken(first, 9) == datetime.datetime(2017, 1, 1, 9, 0, 9)


def test_the_first_folders_first_photos_are_named_as_one_burst() -> None:
    first, second = library.layout(10_000)[:2]
    assert library.file_name(first, 0) == "IMG_20170101_090000000_BURST001.jpg"
    assert library.file_name(first, 9) == "IMG_20170101_090000000_BURST010.jpg"
    assert library.file_name(first, 10) == "img_0000010.jpg"
    assert library.file_name(second, second.first) == f"img_{second.first:07d}.jpg"


def test_the_exif_block_holds_the_capture_date_where_its_pointers_say() -> None:
    block = library.exif_segment(datetime.datetime(2024, 6, 3, 14, 5, 9))
    assert block[:2] == b"\xff\xe1" and struct.unpack(">H", block[2:4])[0] == len(block) - 2
    tiff = block[4:][len(b"Exif\0\0") :]
    assert tiff[:4] == b"MM\x00\x2a"
    ifd0 = struct.unpack(">I", tiff[4:8])[0]
    tag, _, _, exif_ifd = struct.unpack(">HHII", tiff[ifd0 + 2 : ifd0 + 14])
    assert tag == 0x8769
    tag, kind, count, offset = struct.unpack(">HHII", tiff[exif_ifd + 2 : exif_ifd + 14])
    assert (tag, kind, count) == (0x9003, 2, 20)
    assert tiff[offset : offset + count] == b"2024:06:03 14:05:09\x00"


def test_every_photo_is_the_picture_with_its_own_date_and_number_after_the_jfif_header() -> None:
    picture = jpeg(160, 120)
    date = datetime.datetime(2020, 1, 2)
    one, two = library.photo_bytes(picture, 1, date), library.photo_bytes(picture, 2, date)
    assert one != two and len(one) == len(two)
    head, rest = library.split_after_header(picture)
    assert one.startswith(head + library.exif_segment(date) + b"\xff\xfe")
    assert one.endswith(rest) and b"thumbs-scaling photo 1" in one
    assert jpeg_size(one) == (160, 120)


def test_a_picture_without_jfif_header_takes_the_segments_after_its_start() -> None:
    bare = b"\xff\xd8" + jpeg(8, 8)[2:].split(b"\xff\xc4", 1)[1]
    assert library.split_after_header(b"\xff\xd8\xff\xdb\x00\x02")[0] == b"\xff\xd8"
    assert library.split_after_header(bare)[0] == b"\xff\xd8"
    with pytest.raises(ValueError, match="not a JPEG"):
        library.split_after_header(b"GIF89a")


def test_a_complete_library_is_kept_and_a_folder_left_moved_is_renamed_back(tmp_path: Path) -> None:
    said: list[str] = []
    folder = tmp_path / "1000"
    (folder / "2024-06 moved").mkdir(parents=True)
    library.marker(tmp_path, 1000).write_text(library.marker_text(1000))
    assert library.ensure(tmp_path, 1000, said.append) == (folder, 0.0, 0)
    assert (folder / "2024-06").is_dir() and not (folder / "2024-06 moved").exists()
    assert said and "renamed '2024-06 moved' back" in said[0]
    assert json.loads(library.marker_text(1000)) == {"generator": library.VERSION, "photos": 1000}


def test_every_file_is_read_once_and_counted(tmp_path: Path) -> None:
    for name, size in (("2017-01/a.jpg", 3), ("2017-01/b.jpg", 4), ("2017-02/c.jpg", 5)):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_bytes(bytes(size))
    assert library.read_every_file(tmp_path) == (3, 12)


def test_sizes_are_read_and_checked() -> None:
    assert parse_arguments(["--thumbs", "t", "--sizes", "1000,1000000"]).sizes == [1000, 1_000_000]
    with pytest.raises(SystemExit):
        parse_arguments(["--thumbs", "t", "--sizes", "50"])
    with pytest.raises(SystemExit):
        parse_arguments(["--thumbs", "t", "--sizes", "1k"])


def test_the_port_is_read_from_the_listening_event_only() -> None:
    assert listening_port('{"address":"127.0.0.1:41221","event":"listening"}') == 41221
    assert listening_port('{"address":"[::1]:8080","event":"listening"}') == 8080
    assert listening_port('{"event":"progress"}') is None
    assert listening_port("listening on http://127.0.0.1:8080/") is None
    assert listening_port("[1, 2]") is None


def test_a_lists_items_are_its_assets_albums_or_moments() -> None:
    assert items_of({"assets": [{}, {}], "nextCursor": None}) == 2
    assert items_of({"albums": [{}]}) == 1
    assert items_of({"changeToken": "x", "moments": []}) == 0
    with pytest.raises(ValueError, match="not a list"):
        items_of({"status": "ok"})


ALBUMS = {
    "albums": [
        {"id": "smart-all-photos", "kind": "smart", "title": "All Photos"},
        {"id": "folder-1", "kind": "folder", "title": "2024-05"},
        {"id": "folder-2", "kind": "folder", "title": "2024-06"},
    ]
}


def test_the_lists_measured_are_the_moved_folders_album_and_the_burst() -> None:
    paths, found = list_paths(ALBUMS, "0123456789abcdef", 10_000)
    assert paths == [
        ("/api/assets", "/api/assets?limit=200"),
        ("/api/albums", "/api/albums?limit=200"),
        ("/api/moments", "/api/moments?limit=200"),
        ("/api/albums/{id}/assets (2024-06)", "/api/albums/folder-2/assets?limit=200"),
        ("/api/assets/{id}/burst", "/api/assets/0123456789abcdef/burst?limit=200"),
    ]
    assert found == []


def test_a_list_that_cannot_be_measured_is_noted() -> None:
    paths, found = list_paths({"albums": ALBUMS["albums"][:2]}, None, 10_000)
    assert [name for name, _ in paths] == ["/api/assets", "/api/albums", "/api/moments"]
    assert found == [
        "no album of the folder 2024-06: its assets not measured",
        "the library holds no burst: /api/assets/{id}/burst not measured",
    ]


def test_the_limit_is_replaced_and_other_parameters_kept() -> None:
    assert with_limit("/api/assets?limit=200", 1) == "/api/assets?limit=1"
    assert with_limit("/api/assets?cursor=a&limit=200", 1) == "/api/assets?cursor=a&limit=1"
    assert with_limit("/api/moments", 1) == "/api/moments?limit=1"


def test_the_entries_are_read_from_thumbs_stats() -> None:
    assert entry_counts({"thumbnails": 2020, "metadataEntries": 1010, "hits": 0}) == (2020, 1010)


def page(name: str, items: int, honoured: bool | None, walls: list[float]) -> dict[str, Any]:
    median = sorted(walls)[1]
    return {
        "list": name,
        "items": items,
        "bytes": 85_128,
        "walls": walls,
        "median_s": median,
        "limit_honoured": honoured,
    }


def row(photos: int, anon: float, rerun_s: float, serve_notes: list[str] | None = None) -> dict[str, Any]:
    return {
        "photos": photos,
        "library_bytes": photos * 4_300,
        "generation_s": 0.0 if photos < 10_000 else 1.7,
        "cold_s": 1.25,
        "rendered": photos,
        "failed": 0,
        "photos_per_s": photos / 1.25,
        "peak_rss": 80e6,
        "peak_rss_anon": anon,
        "cold_cpu_use": 0.95,
        "cold_noise": 0.01,
        "rerun_s": rerun_s,
        "rerun_rendered": 0,
        "rerun_peak_rss": 57e6,
        "rerun_noise": 0.02,
        "cold_over_rerun": 1.25 / rerun_s,
        "find_s": 0.01,
        "rerun_over_find": rerun_s / 0.01,
        "serve": {
            "ready_s": 0.074,
            "rss_anon_ready": 6.7e6,
            "rss_anon_after_lists": 7.3e6,
            "vm_hwm": 45.1e6,
            "pages": [
                page("/api/assets", 200, True, [0.0039, 0.0034, 0.0030]),
                page("/api/moments", 991, False, [0.010, 0.0084, 0.0080]),
            ],
            "notes": serve_notes or [],
        },
        "listings": [
            {"command": "thumbs albums", "first_line_s": 0.036, "total_s": 0.089, "lines": 103, "peak_rss": 35.7e6}
        ],
        "move": {
            "folder_photos": photos // 100,
            "warm_s": 0.11,
            "rendered": photos // 100,
            "noise": 0.0,
            "thumbnails_before": 2 * photos,
            "thumbnails_after": 2 * photos + photos // 50,
            "metadata_before": photos,
            "metadata_after": photos + photos // 100,
        },
    }


def test_the_report_has_a_table_per_concern() -> None:
    text = report([row(1000, 11e6, 0.04), row(10_000, 12e6, 0.1)], MACHINE)
    assert "| 1,000 | 4 | kept | - |" in text
    assert "| 10,000 | 43 | 1.7 s | 5,882 |" in text
    assert "| 1,000 | 1.25 | 800 | 95% | 80 | 11 |" in text
    assert "| 1,000 | 0.040 | 57 | 31× | 0.010 | 4.0× |" in text
    assert "| 1,000 | 0.074 | 6.7 | 7.3 | 45.1 |" in text
    assert "| 1,000 | `/api/assets` | 200 | 85 | 3.4 | 3.9 | yes |" in text
    assert "| 1,000 | `/api/moments` | 991 | 85 | 8.4 | 10.0 | **no** |" in text
    assert "| 1,000 | `thumbs albums` | 0.036 | 0.089 | 103 | 35.7 |" in text
    assert "| 10,000 | 100 | 0.11 | 100 | 20,000 → 20,200 | 10,000 → 10,100 |" in text
    assert "not clean" not in text


def test_the_notes_say_what_was_skipped_and_which_lists_ignore_limit() -> None:
    rows = [row(1000, 11e6, 0.04, ["the library holds no burst: /api/assets/{id}/burst not measured"])]
    assert notes(rows) == [
        "- at 1,000 photos: the library holds no burst: /api/assets/{id}/burst not measured",
        "- `limit` is not honoured by `/api/moments`: the first page is the whole list.",
    ]


def test_the_targets_judge_the_rerun_at_each_size_and_the_anon_memory_across_them() -> None:
    assert targets([row(1000, 11e6, 0.04), row(10_000, 12e6, 0.01)]) == [
        "- MISSED: unchanged re-run ≥ 100× faster than cold at 1,000 photos: 31×",
        "- met: unchanged re-run ≥ 100× faster than cold at 10,000 photos: 125×",
        "- met: peak anon RSS flat from 1,000 to 10,000 photos (largest ÷ smallest ≤ 1.25×): 1.09×",
    ]
    assert targets([row(1000, 11e6, 0.01)])[-1].startswith("- not judged")
