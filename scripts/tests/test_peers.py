"""compare-peers: the datasets it picks, the commands it builds, the figures it reports."""

from pathlib import Path

import pytest

from thumbs_tools.bench.peers import ONE, THREE, summarise, tables, targets
from thumbs_tools.bench.photo_peers import (
    ImageMagick,
    Thumbs,
    balanced_batches,
    manifest_selection,
    parse_notes,
    stem_of,
    written,
)
from thumbs_tools.runner import Result

MANIFEST = (
    "relative_path\tsha256\tnotes\n"
    "exports/a.jpg\tx\tloader=jpegload; decode=ok; keep\n"
    "exports/b.png\tx\tloader=pngload; decode=ok\n"
    "scans/c.tif\tx\tloader=tiffload; decode=ok-with-warnings\n"
    "phone/d.heic\tx\tloader=heifload; decode=fail\n"
    "broken/e.jpg\tx\tloader=jpegload; decode=ok\n"
)


def record(tool: str, wall: float, ok: int, sizes: tuple[int, ...] = ONE, dataset: str = "jpeg") -> dict[str, object]:
    return {
        "dataset": dataset,
        "sizes": list(sizes),
        "tool": tool,
        "wall": wall,
        "ok": ok,
        "failed": 0,
        "failures": [],
        "peak_rss": int(wall * 100e6),
    }


def test_notes_are_key_value_pairs() -> None:
    assert parse_notes("loader=jpegload; decode=ok; keep") == {"loader": "jpegload", "decode": "ok"}


def test_the_datasets_come_from_the_manifest_never_from_broken(tmp_path: Path) -> None:
    (tmp_path / "MANIFEST.tsv").write_text(MANIFEST)
    assert manifest_selection(tmp_path, "jpeg") == ["exports/a.jpg"]
    assert manifest_selection(tmp_path, "mixed") == ["exports/a.jpg", "exports/b.png", "scans/c.tif"]


def test_batches_balance_the_bytes() -> None:
    sized = [(Path(name), size) for name, size in [("a", 10), ("b", 7), ("c", 5), ("d", 3), ("e", 1)]]
    batches = balanced_batches(sized, 2)
    sizes = dict(sized)
    assert sorted(sum(sizes[p] for p in batch) for batch in batches) == [13, 13]
    assert balanced_batches(sized[:1], 3) == [[Path("a")]]  # empty batches are left out


def test_stems_drop_the_last_extension() -> None:
    assert stem_of(Path("/x/001_photo.tar.jpg")) == "001_photo.tar"


def test_written_counts_photos_with_every_thumbnail(tmp_path: Path) -> None:
    files = [Path("/photos/a.jpg"), Path("/photos/b.jpg")]
    for name in ("a_1024.jpg", "a_256.jpg", "b_1024.jpg"):
        (tmp_path / name).touch()
    assert written(files, (1024, 256), tmp_path) == (1, 1, ["b.jpg"])


def test_imagemagick_writes_each_size_from_one_decode(tmp_path: Path) -> None:
    arguments = ImageMagick("convert", True).arguments(Path("/p/a.jpg"), THREE, tmp_path, hinted=True)
    assert arguments[:3] == ["convert", "-define", "jpeg:size=2048x2048"]
    assert arguments[3:8] == ["/p/a.jpg[0]", "-auto-orient", "-strip", "-quality", "80"]
    assert arguments[8:] == [
        *("-thumbnail", "1024x1024>", "-write", f"{tmp_path}/a_1024.jpg"),
        *("-thumbnail", "512x512>", "-write", f"{tmp_path}/a_512.jpg"),
        *("-thumbnail", "256x256>", f"{tmp_path}/a_256.jpg"),
    ]


def test_thumbs_counts_come_from_its_summary(tmp_path: Path) -> None:
    stdout = '{"event":"progress","done":1,"found":2,"rendered":1,"fresh":0,"failed":0}\n'
    stdout += (
        '{"event":"summary","done":2,"found":2,"rendered":1,"fresh":0,"failed":1,"failuresByKind":{"unsupported":1}}\n'
    )
    result = Result(1.0, 1, stdout, "", 0, 0, 0.0, 0.0)
    assert Thumbs(Path("thumbs"), tmp_path).count(result, [], ONE, tmp_path) == (1, 1, ["unsupported 1"])
    with pytest.raises(RuntimeError):
        Thumbs(Path("thumbs"), tmp_path).count(Result(1.0, 134, "", "trap", 0, 0, 0.0, 0.0), [], ONE, tmp_path)


def test_summarise_takes_medians_and_the_largest_peak() -> None:
    records = [record("thumbs", wall, 100) for wall in (2.0, 1.0, 4.0)]
    summary = summarise(records)[("jpeg", ONE, "thumbs")]
    assert summary["wall"] == 2.0
    assert summary["ips"] == 50.0  # the median of 50, 100 and 25 images/s
    assert summary["peak_rss"] == 400e6


def test_targets_compare_thumbs_with_the_fastest_peer() -> None:
    records = [record("thumbs", 1.0, 100), record("pillow", 2.0, 100), record("vipsthumbnail-parallel", 1.25, 100)]
    checks = {t.text: t for t in targets(summarise(records))}
    pillow = checks["Thumbs ≥ 1.3× Pillow (jpeg, 1 rendition; vs pillow)"]
    assert (pillow.ratio, pillow.met) == (2.0, True)
    vips = checks["Thumbs ≥ 1.5× vipsthumbnail (jpeg, 1 rendition; vs vipsthumbnail-parallel)"]
    assert (vips.ratio, vips.met) == (1.25, False)
    assert len(checks) == 2  # nothing measured for mixed or three renditions


def test_the_table_gives_each_peer_its_ratios_to_thumbs(tmp_path: Path) -> None:
    records = [record("thumbs", 1.0, 100), record("pillow", 2.0, 100)]

    class Named:
        def __init__(self, label: str) -> None:
            self.label = label

    text = tables(summarise(records), ["jpeg"], [Named("thumbs"), Named("pillow")], {"jpeg": 100})  # type: ignore[list-item]
    assert "| pillow | 1 rendition | 100 | 0 | 2.00 | 50.0 | 200 | 2.00× | 2.00× |" in text
    assert "| thumbs | 1 rendition | 100 | 0 | 1.00 | 100.0 | 100 | 1.00× | 1.00× |" in text
