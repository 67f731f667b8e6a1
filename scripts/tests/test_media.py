"""bench-media: the counts of its peers and Thumbs, and its targets."""

from pathlib import Path

from jpeg_bytes import jpeg

from thumbs_tools.bench.media import summarise, targets
from thumbs_tools.bench.media_peers import Peer, Thumbs
from thumbs_tools.runner import Result


def record(dataset: str, tool: str, wall: float, failed: int = 0, thumbnail: bool = True) -> dict[str, object]:
    return {
        "dataset": dataset,
        "tool": tool,
        "wall": wall,
        "ok": 10,
        "failed": failed,
        "thumbnail": thumbnail,
        "peak_rss": 1,
    }


def test_a_crashed_warm_fails_every_file(tmp_path: Path) -> None:
    crashed = Result(1.0, -11, "", "", 0, 0, 0.0, 0.0)
    counts = Thumbs(Path("thumbs"), tmp_path).count(crashed, [Path("a"), Path("b")], tmp_path)
    assert counts == (0, 2, ["thumbs killed by SIGSEGV, see stderr_head in the JSON"], 0)


def test_a_peer_counts_its_outputs_and_the_small_ones(tmp_path: Path) -> None:
    peer = Peer("tool", "raw", lambda p, link, out: "true")
    (tmp_path / "a.jpg").write_bytes(jpeg(256, 171))
    (tmp_path / "b.jpg").write_bytes(jpeg(80, 60))  # the only embedded picture was that small
    files = [Path("/raw/a.crw"), Path("/raw/b.kdc"), Path("/raw/c.dng")]
    assert peer.count(Result(1.0, 0, "", "", 0, 0, 0.0, 0.0), files, tmp_path) == (2, 1, ["c.dng"], 1)


def test_a_scratch_peer_works_on_links_in_its_own_folder(tmp_path: Path) -> None:
    peer = Peer("dcraw", "raw", lambda p, link, out: f"dcraw -e {link}", scratch=True)
    source = tmp_path / "x.crw"
    source.write_bytes(b"raw")
    (tmp_path / "out").mkdir()
    command, _ = peer.command(tmp_path, [source], tmp_path / "out")
    assert (tmp_path / "out" / "in" / "x.crw").read_bytes() == b"raw"
    assert (tmp_path / "out" / "items").read_bytes() == f"dcraw -e {tmp_path}/out/in/x.crw || exit 1\0".encode()
    assert command[:2] == ["xargs", "-0"]


def test_summarise_keeps_the_last_run_and_medians() -> None:
    summary = summarise([record("raw", "thumbs", w) for w in (3.0, 1.0, 2.0)])
    assert summary[("raw", "thumbs")]["wall"] == 2.0
    assert summary[("raw", "thumbs")]["fps"] == 5.0
    assert summary[("raw", "thumbs")]["last"]["wall"] == 2.0


def test_the_target_is_the_fastest_thumbnailing_peer_over_thumbs() -> None:
    records = [
        record("shared-raw", "thumbs", 1.0),
        record("shared-raw", "exiftool → vipsthumbnail", 3.0, failed=2),
        record("shared-raw", "simple_dcraw -e → vipsthumbnail", 2.5),
        record("shared-raw", "simple_dcraw -e alone", 0.5, thumbnail=False),  # a floor, not a peer
    ]
    sets = [("shared-raw", "raw", [Path("a")], "")]
    [target] = targets(summarise(records), sets)
    assert target.text == "raw shared-raw: Thumbs ≥ 2× the fastest thumbnail pipeline (simple_dcraw -e → vipsthumbnail)"
    assert (target.ratio, target.goal, target.met) == (2.5, 2.0, True)


def test_a_video_target_names_its_peer_and_failures() -> None:
    records = [record("4k", "thumbs", 2.0, failed=1), record("4k", "ffmpegthumbnailer", 2.0)]
    [target] = targets(summarise(records), [("4k", "videos", [Path("a")], "")])
    assert target.text == "videos 4k: Thumbs ≥ 1.5× ffmpegthumbnailer; failed: thumbs 1"
    assert not target.met
