import struct
import zlib

from thumbs_tools.bench.thumbnailer import (
    TYPES,
    FileType,
    goal_of,
    manifest_files,
    spread,
    tiny_png,
    type_figure,
    verdict,
)

HEADER = "relative_path\tbytes\tsha256\tsource_repo\tsource_path\tlicense\tnotes\n"


def row(path: str, notes: str) -> str:
    return f"{path}\t1\tx\trepo\tsource\tlicence\t{notes}\n"


def file_type(name: str) -> FileType:
    return next(t for t in TYPES if t.name == name)


def test_manifest_files_takes_the_type_that_decodes_outside_broken() -> None:
    manifest = (
        HEADER
        + row("b/one.jpg", "10x10; content_type=JPEG; orientation=6; decode=ok")
        + row("a/two.JPG", "10x10; content_type=JPEG; decode=ok-with-warnings")
        + row("broken/three.jpg", "content_type=JPEG; decode=error (truncated)")
        + row("a/heic.jpg", "content_type=HEIC; decode=ok")
        + row("a/failing.jpg", "content_type=JPEG; decode=error")
        + row("a/four.png", "content_type=PNG; decode=ok")
    )
    assert manifest_files(manifest, file_type("JPEG")) == ["a/two.JPG", "b/one.jpg"]
    assert manifest_files(manifest, file_type("PNG")) == ["a/four.png"]


def test_manifest_files_reads_each_kind_of_media_by_its_own_decode_field() -> None:
    manifest = (
        HEADER
        + row("raw/a.CRW", "content_type=CRW; libraw_decode=ok; decode=error")
        + row("video/b.mov", "content_type=MOV; ffmpeg_decode=ok")
        + row("broken/c.mov", "content_type=MOV; ffmpeg_decode=error (moov atom not found)")
        + row("video/d.mp4", "content_type=MP4 (ISO base media); ffmpeg_decode=ok")
    )
    assert manifest_files(manifest, file_type("CRW")) == ["raw/a.CRW"]
    assert manifest_files(manifest, file_type("MOV")) == ["video/b.mov"]
    assert manifest_files(manifest, file_type("MP4")) == ["video/d.mp4"]


def test_spread_keeps_all_or_an_even_choice() -> None:
    assert spread(["a", "b"], 3) == ["a", "b"]
    assert spread([str(n) for n in range(10)], 3) == ["0", "3", "6"]


def test_type_figure_is_the_median_of_the_files_medians() -> None:
    per_file = {"a": [1.0, 9.0, 2.0], "b": [4.0, 4.0, 5.0], "c": [100.0]}
    assert type_figure(per_file, ["a", "b"]) == 3.0
    assert type_figure(per_file, ["a", "b", "c"]) == 4.0
    assert type_figure(per_file, ["missing"]) is None


def test_tiny_png_is_a_valid_png_of_the_size_and_colour() -> None:
    data = tiny_png(4, (1, 2, 3))
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks = {}
    offset = 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind, body = data[offset + 4 : offset + 8], data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        assert crc == zlib.crc32(kind + body)
        chunks[kind] = body
        offset += 12 + length
    assert struct.unpack(">II", chunks[b"IHDR"][:8]) == (4, 4)
    assert zlib.decompress(chunks[b"IDAT"]) == (b"\0" + bytes([1, 2, 3]) * 4) * 4
    assert b"IEND" in chunks


def test_each_type_is_judged_by_its_own_goal() -> None:
    assert goal_of("JPEG") == 1.0 and goal_of("HEIC") == 1.5 and goal_of("MP4") == 2.0
    assert verdict(1.2, goal_of("JPEG")) == "met (1×)"
    assert verdict(1.2, goal_of("HEIC")) == "MISSED (1.5×)"
    assert verdict(None, goal_of("MOV")) == "MISSED (2×)"
