"""Ultra HDR JPEGs read, checked and reconstructed (thumbs_tools/ultra_hdr.py), and
scripts/check-gain-map.py's subcommands.

The parsing and the arithmetic are tested here, with numpy, on files put together from JPEG
segments. Decoding takes imagecodecs, which the tooling's environment (.build/python-tools)
lacks: the tests that decode run their Python, and check-gain-map.py, under a Python that has
it, $THUMBS_TEST_PYTHON or .build/test-venv (scripts/test-media-tools), and are skipped without
one. The shared photos (../shared/photos, or $THUMBS_SHARED_PHOTOS) are used where present.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import struct
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from jpeg_bytes import segment

from thumbs_tools.paths import REPOSITORY, SCRIPTS, SHARED

numpy = pytest.importorskip("numpy")

from thumbs_tools import ultra_hdr  # noqa: E402 (needs numpy)
from thumbs_tools.hdr_light import LEVELS, SDR_WHITE, display_light, pattern_codes, pattern_size  # noqa: E402
from thumbs_tools.ultra_hdr import UltraHdrError  # noqa: E402

PHOTOS = Path(os.environ.get("THUMBS_SHARED_PHOTOS", SHARED / "photos"))
PIXEL = PHOTOS / "phone/PXL_ultrahdr_01.jpg"
SEINE = PHOTOS / "exports/seine_sdr_gainmap_srgb.jpg"
IPHONE = PHOTOS / "phone/iphone_13_pro_max.HEIC"
SHARED_ABSENT = f"{PHOTOS} is absent: the tests on shared photos are skipped"
OFFSET = 1 / 64


# Files put together.


def fake_jpeg(width: int, height: int, components: int = 3) -> bytes:
    """A JPEG's markers around no real image data: what the parsing reads."""
    frame = bytes([8]) + struct.pack(">HH", height, width) + bytes([components]) + bytes(3 * components)
    scan = bytes([components]) + bytes(2 * components) + bytes(3)
    return b"\xff\xd8" + segment(0xC0, frame) + segment(0xDA, scan) + bytes(10) + b"\xff\xd9"


def exif(orientation: int, order: str = "<") -> bytes:
    """An APP1 Exif segment whose IFD0 holds one tag, the orientation."""
    mark = b"II" if order == "<" else b"MM"
    ifd = struct.pack(order + "H", 1) + struct.pack(order + "HHIHH", 0x0112, 3, 1, orientation, 0)
    return segment(0xE1, b"Exif\0\0" + mark + struct.pack(order + "HI", 42, 8) + ifd + bytes(4))


def with_segment(jpeg: bytes, added: bytes) -> bytes:
    return jpeg[:2] + added + jpeg[2:]


METADATA: dict[str, tuple[float, ...]] = {
    "GainMapMin": (0.5, 0.25, -0.5),
    "GainMapMax": (2.0,),
    "Gamma": (2.0, 1.0, 0.5),
    "OffsetSDR": (0.01,),
    "OffsetHDR": (0.02,),
    "HDRCapacityMax": (2.5,),
}


def minimal(order: str = ">", container: bool = True, as_elements: bool = False) -> bytes:
    return ultra_hdr.assembled(fake_jpeg(64, 48), fake_jpeg(16, 12, 1), METADATA, order, container, as_elements)


# The parsing.


@pytest.mark.parametrize("order", ["<", ">"])
@pytest.mark.parametrize("as_elements", [False, True])
def test_the_gain_map_is_found_through_the_mpf_index_in_either_byte_order(order: str, as_elements: bool) -> None:
    data = minimal(order, as_elements=as_elements)
    picture = ultra_hdr.read(data)
    assert picture.size == (64, 48)
    assert picture.gain_map_size == (16, 12)
    assert picture.gain_map_channels == 1
    assert data.endswith(picture.gain_map)
    assert picture.primary == data[: len(data) - len(picture.gain_map)]
    assert picture.container
    assert picture.version == "1.0"
    assert picture.warnings == ()
    assert picture.orientation == 1


def test_the_metadata_is_read_as_given_and_the_rest_defaults() -> None:
    metadata = ultra_hdr.read(minimal(as_elements=True)).metadata
    assert metadata.fields() == {
        "GainMapMin": [0.5, 0.25, -0.5],
        "GainMapMax": [2.0],
        "Gamma": [2.0, 1.0, 0.5],
        "OffsetSDR": [0.01],
        "OffsetHDR": [0.02],
        "HDRCapacityMin": [0.0],
        "HDRCapacityMax": [2.5],
    }
    assert metadata.defaulted == ("HDRCapacityMin",)
    assert metadata.channel("GainMapMin", 2) == -0.5
    assert metadata.channel("GainMapMax", 2) == 2.0
    assert ultra_hdr.headroom_stops(metadata) == 2.5
    empty = ultra_hdr.read(ultra_hdr.assembled(fake_jpeg(8, 8), fake_jpeg(8, 8), {})).metadata
    assert empty.fields() == {name: [value] for name, value in ultra_hdr.DEFAULTS.items()}
    assert empty.offset_sdr == (1 / 64,)


def test_xmp_as_other_writers_lay_it_out_is_read() -> None:
    # Elements holding text, an xpacket wrapper, Description attributes on another description.
    packet = (
        '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" dc:format="image/jpeg"/>'
        '<rdf:Description rdf:about="" xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" hdrgm:Version="1.0">'
        "<hdrgm:GainMapMax>3.5</hdrgm:GainMapMax>"
        "<hdrgm:Gamma><rdf:Seq><rdf:li>1</rdf:li><rdf:li>2</rdf:li><rdf:li> 3 </rdf:li></rdf:Seq></hdrgm:Gamma>"
        "</rdf:Description></rdf:RDF></x:xmpmeta>"
        '<?xpacket end="w"?>'
    ).encode()
    root = ultra_hdr.xmp_root([ultra_hdr.Segment(0xE1, 0, ultra_hdr.XMP_SIGNATURE + packet + b"\0\0")], "test")
    assert root is not None
    metadata = ultra_hdr.gain_map_metadata(root)
    assert metadata.gain_map_max == (3.5,)
    assert metadata.gamma == (1.0, 2.0, 3.0)


def corrupted(data: bytes, old: bytes, new: bytes) -> bytes:
    """`data` with `old`, found once, replaced by `new` of the same length: offsets stay."""
    assert data.count(old) == 1
    assert len(old) == len(new)
    return data.replace(old, new)


def mp_field(data: bytes, entry: int, index: int) -> int:
    """Where field `index` (0 attribute, 1 size, 2 offset) of MP entry `entry` (0, 1) is."""
    mpf = data.index(ultra_hdr.MPF_SIGNATURE) + len(ultra_hdr.MPF_SIGNATURE)
    return mpf + 50 + 16 * entry + 4 * index


def with_field(data: bytes, at: int, change: int) -> bytes:
    (value,) = struct.unpack(">I", data[at : at + 4])
    return data[:at] + struct.pack(">I", value + change) + data[at + 4 :]


def without_gain_map_xmp() -> bytes:
    primary, gain = fake_jpeg(64, 48), fake_jpeg(16, 12, 1)
    header = ultra_hdr.primary_xmp(len(gain))
    mark = 2 + len(header) + 4 + len(ultra_hdr.MPF_SIGNATURE)
    size = len(primary) + len(header) + len(ultra_hdr.mpf_segment(0, 0, 0))
    return primary[:2] + header + ultra_hdr.mpf_segment(size, len(gain), size - mark) + primary[2:] + gain


def broken_files() -> dict[str, tuple[bytes, str]]:
    """Broken files and what the error each raises says."""
    good = minimal()
    gain_length = len(ultra_hdr.read(good).gain_map)
    primary_xmp = ultra_hdr.primary_xmp(gain_length)
    padding = ultra_hdr.XMP_SIGNATURE.replace(b"adobe", b"other")
    return {
        "not a JPEG": (b"\x89PNG\r\n\x1a\n" + bytes(40), "not a JPEG"),
        "no MPF": (with_segment(fake_jpeg(64, 48), primary_xmp), "no MPF"),
        "cut short": (good[:-10], "outside the file"),
        "gain map past the end": (with_field(good, mp_field(good, 1, 2), 100), "outside the file"),
        "gain map not a JPEG": (
            with_field(with_field(good, mp_field(good, 1, 2), 4), mp_field(good, 1, 1), -4),
            "not a JPEG",
        ),
        "gain map inside the primary": (with_field(good, mp_field(good, 0, 1), 50), "inside the primary"),
        "no MP entries": (corrupted(good, struct.pack(">HH", 0xB002, 7), struct.pack(">HH", 0xB00F, 7)), "B002"),
        "bad byte order": (corrupted(good, b"MPF\0MM", b"MPF\0XX"), "byte-order"),
        "no primary XMP": (
            corrupted(good, primary_xmp, primary_xmp[:4] + padding + primary_xmp[33:]),
            "primary has no XMP",
        ),
        "no hdrgm:Version": (corrupted(good, b'hdrgm:Version="1.0"><C', b'hdrgm:Versiox="1.0"><C'), "hdrgm:Version"),
        "no container": (minimal(container=False), "Container:Directory"),
        "container length differs": (
            corrupted(good, f'Length="{gain_length}"'.encode(), f'Length="{gain_length + 1}"'.encode()),
            "long",
        ),
        "no GainMap item": (corrupted(good, b'"GainMap"', b'"GainMaq"'), "GainMap item"),
        "not a number": (corrupted(good, b'GainMapMax="2.0"', b'GainMapMax="2.x"'), "not a number"),
        "gain map without XMP": (without_gain_map_xmp(), "the gain map has no XMP"),
        "not XML": (
            corrupted(good, b"</rdf:RDF></x:xmpmeta>\xff\xe2", b"</rdf:RDX></x:xmpmeta>\xff\xe2"),
            "not well-formed",
        ),
    }


@pytest.mark.parametrize("name", sorted(broken_files()))
def test_a_broken_file_raises_what_is_wrong(name: str) -> None:
    data, words = broken_files()[name]
    with pytest.raises(UltraHdrError, match=words):
        ultra_hdr.read(data)


def test_gain_map_fields_of_two_values_or_gamma_zero_are_refused() -> None:
    two = ultra_hdr.assembled(fake_jpeg(8, 8), fake_jpeg(8, 8), {"GainMapMax": (1.0, 2.0)})
    with pytest.raises(UltraHdrError, match="2 values"):
        ultra_hdr.read(two)
    flat = ultra_hdr.assembled(fake_jpeg(8, 8), fake_jpeg(8, 8), {"Gamma": (0.0,)})
    with pytest.raises(UltraHdrError, match="Gamma"):
        ultra_hdr.read(flat)
    packet = ultra_hdr.gain_map_xmp({"GainMapMax": (2.0,)})[4 + len(ultra_hdr.XMP_SIGNATURE) :]
    root = ElementTree.fromstring(packet.replace(b'Version="1.0"', b'Version="1.0" hdrgm:BaseRenditionIsHDR="True"'))
    with pytest.raises(UltraHdrError, match="BaseRenditionIsHDR"):
        ultra_hdr.gain_map_metadata(root)


def test_adobes_files_without_a_directory_are_read_when_lenient() -> None:
    picture = ultra_hdr.read(minimal(container=False), require_container=False)
    assert not picture.container
    assert picture.metadata.gain_map_max == (2.0,)


def test_a_primary_whose_mpf_size_is_short_reads_up_to_the_gain_map() -> None:
    good = minimal()
    short = with_field(good, mp_field(good, 0, 1), -307)
    picture = ultra_hdr.read(short)
    assert len(picture.primary) == len(ultra_hdr.read(good).primary)
    assert picture.warnings
    assert "says" in picture.warnings[0]


@pytest.mark.parametrize("order", ["<", ">"])
@pytest.mark.parametrize("orientation", range(1, 9))
def test_the_exif_orientation_is_read(order: str, orientation: int) -> None:
    jpeg = with_segment(fake_jpeg(8, 8), exif(orientation, order))
    assert ultra_hdr.exif_orientation(ultra_hdr.segments(jpeg)) == orientation
    assert ultra_hdr.exif_orientation(ultra_hdr.segments(fake_jpeg(8, 8))) == 1


def test_the_eight_orientations_turn_the_picture_upright() -> None:
    # Stored 2 × 3: a b c / d e f. Shown upright as the Exif specification draws them.
    stored = numpy.array([[1, 2, 3], [4, 5, 6]])
    upright = {
        1: [[1, 2, 3], [4, 5, 6]],
        2: [[3, 2, 1], [6, 5, 4]],
        3: [[6, 5, 4], [3, 2, 1]],
        4: [[4, 5, 6], [1, 2, 3]],
        5: [[1, 4], [2, 5], [3, 6]],
        6: [[4, 1], [5, 2], [6, 3]],
        7: [[6, 3], [5, 2], [4, 1]],
        8: [[3, 6], [2, 5], [1, 4]],
    }
    for orientation, expected in upright.items():
        assert ultra_hdr.oriented(stored, orientation).tolist() == expected, orientation


def test_heif_transforms_turn_anticlockwise_and_mirror() -> None:
    stored = numpy.array([[1, 2, 3], [4, 5, 6]])
    assert ultra_hdr.transformed(stored, (("irot", 1),)).tolist() == [[3, 6], [2, 5], [1, 4]]
    assert ultra_hdr.transformed(stored, (("irot", 3),)).tolist() == [[4, 1], [5, 2], [6, 3]]
    assert ultra_hdr.transformed(stored, (("imir", 0),)).tolist() == [[3, 2, 1], [6, 5, 4]]
    assert ultra_hdr.transformed(stored, (("imir", 1),)).tolist() == [[4, 5, 6], [1, 2, 3]]


# The arithmetic.


def test_bilinear_upsampling_aligns_pixel_centres() -> None:
    gain = numpy.array([[0.0, 1.0]])[:, :, None]
    row = ultra_hdr.resized_bilinear(gain, 1, 4)[0, :, 0]
    assert row == pytest.approx([0.0, 0.25, 0.75, 1.0])
    flat = ultra_hdr.resized_bilinear(numpy.full((3, 5, 2), 0.5), 7, 11)
    assert flat.shape == (7, 11, 2)
    assert flat == pytest.approx(numpy.full((7, 11, 2), 0.5))


def test_area_averaging_weighs_the_parts_of_pixels_covered() -> None:
    image = numpy.arange(16, dtype=float).reshape(4, 4, 1)
    assert ultra_hdr.area_averaged(image, 2, 2)[:, :, 0].tolist() == [[2.5, 4.5], [10.5, 12.5]]
    row = numpy.array([[0.0, 3.0, 6.0]])[:, :, None]
    assert ultra_hdr.area_averaged(row, 1, 2)[0, :, 0] == pytest.approx([1.0, 5.0])
    noise = numpy.random.default_rng(7).random((37, 53, 3))
    assert ultra_hdr.area_averaged(noise, 10, 7).mean() == pytest.approx(noise.mean())
    assert ultra_hdr.area_averaged(noise, 37, 53) == pytest.approx(noise)


def expected_hdr(sdr: Any, gain: float, metadata: dict[str, tuple[float, ...]], channel: int) -> float:
    """The format's recovery, written out for one channel."""

    def value(name: str) -> float:
        values = metadata.get(name, (ultra_hdr.DEFAULTS[name],))
        return values[channel] if len(values) == 3 else values[0]

    g = gain ** (1 / value("Gamma"))
    log_boost = value("GainMapMin") * (1 - g) + value("GainMapMax") * g
    return float((sdr + value("OffsetSDR")) * 2**log_boost - value("OffsetHDR"))


def test_the_recovery_is_the_formats() -> None:
    metadata = ultra_hdr.read(minimal()).metadata
    sdr = numpy.full((4, 6, 3), [0.2, 0.5, 0.9])
    for gain in (0.0, 0.3, 1.0):
        hdr = ultra_hdr.recovered(sdr, numpy.full((2, 3, 1), gain), metadata)
        for c in range(3):
            assert hdr[:, :, c] == pytest.approx(expected_hdr(sdr[0, 0, c], gain, METADATA, c))
    three = ultra_hdr.recovered(sdr, numpy.full((2, 3, 3), [0.0, 0.5, 1.0]), metadata)
    assert three[0, 0] == pytest.approx([expected_hdr(sdr[0, 0, c], c / 2, METADATA, c) for c in range(3)])
    # At weight 0 the SDR picture (offsets aside) is what is shown.
    none = ultra_hdr.recovered(sdr, numpy.full((2, 3, 1), 0.7), metadata, weight=0)
    assert none == pytest.approx(sdr + 0.01 - 0.02)


def test_srgb_decoding_by_table_and_by_formula_agree() -> None:
    samples = numpy.arange(256, dtype=numpy.uint8)
    assert ultra_hdr.srgb_linear(samples, "float64") == pytest.approx(ultra_hdr.srgb_eotf(samples / 255))
    assert ultra_hdr.srgb_eotf(numpy.array([0.0, 0.04045, 0.5, 1.0])) == pytest.approx(
        [0.0, 0.04045 / 12.92, 0.214041, 1.0], rel=1e-5
    )


def icc(colorants: list[tuple[float, float, float]], chad: list[float] | None = None) -> bytes:
    """An RGB matrix ICC profile holding only colorant (and adaptation) tags."""

    def s15(values: list[float]) -> bytes:
        return b"".join(struct.pack(">i", round(value * 65536)) for value in values)

    tags = [
        (name, b"XYZ " + bytes(4) + s15(list(xyz)))
        for name, xyz in zip([b"rXYZ", b"gXYZ", b"bXYZ"], colorants, strict=True)
    ]
    if chad is not None:
        tags.append((b"chad", b"sf32" + bytes(4) + s15(chad)))
    header = bytearray(128)
    header[16:20] = b"RGB "
    table, body, at = b"", b"", 132 + 12 * len(tags)
    for name, data in tags:
        table += struct.pack(">4sII", name, at + len(body), len(data))
        body += data
    return bytes(header) + struct.pack(">I", len(tags)) + table + body


def test_luminance_weights_come_from_the_icc_colorants() -> None:
    assert ultra_hdr.luminance_weights(None) == ultra_hdr.BT709_WEIGHTS
    # sRGB's colorants as ICC v2 profiles hold them, adapted to D50 by Bradford.
    srgb = icc([(0.4361, 0.2225, 0.0139), (0.3851, 0.7169, 0.0971), (0.1431, 0.0606, 0.7141)])
    assert ultra_hdr.luminance_weights(srgb) == pytest.approx(ultra_hdr.BT709_WEIGHTS, abs=1e-3)
    # The same colorants with an adaptation tag that says they were not adapted.
    identity = icc(
        [(0.4124, 0.2126, 0.0193), (0.3576, 0.7152, 0.1192), (0.1805, 0.0722, 0.9505)], [1, 0, 0, 0, 1, 0, 0, 0, 1]
    )
    assert ultra_hdr.luminance_weights(identity) == pytest.approx(ultra_hdr.BT709_WEIGHTS, abs=1e-4)
    assert ultra_hdr.luminance_weights(b"not a profile") == ultra_hdr.BT709_WEIGHTS


def test_the_stops_count_only_what_the_reference_lights() -> None:
    reference = numpy.array([1.0, 2.0, 0.01, 0.5])
    measured = numpy.array([2.0, 2.0, 5.0, 0.0])
    lit, mean, largest, errors = ultra_hdr.stops(measured, reference)
    assert lit == 3
    assert errors[:2] == pytest.approx([1.0, 0.0])
    assert largest == pytest.approx(numpy.log2(0.5 / 1e-6))
    assert mean == pytest.approx((1 + numpy.log2(0.5 / 1e-6)) / 3)


def test_aspect_fit_sizes_allow_a_pixels_rounding() -> None:
    assert ultra_hdr.fits((400, 300), (4080, 3072))
    assert ultra_hdr.fits((256, 193), (4080, 3072))
    assert not ultra_hdr.fits((300, 400), (4080, 3072))
    assert not ultra_hdr.fits((256, 200), (4080, 3072))


def test_apples_headroom_from_its_maker_note() -> None:
    assert ultra_hdr.apple_headroom_stops(0.5, 0.0) == pytest.approx(1.8)
    assert ultra_hdr.apple_headroom_stops(0.5, 0.01) == pytest.approx(1.6)
    assert ultra_hdr.apple_headroom_stops(0.5, 1.0) == pytest.approx(1.5)
    assert ultra_hdr.apple_headroom_stops(1.0, 0.0) == pytest.approx(3.0)
    assert ultra_hdr.apple_headroom_stops(1.5, 0.01) == pytest.approx(2.3)
    assert ultra_hdr.apple_headroom_stops(1.5, 2.0) == pytest.approx(1.697)
    assert ultra_hdr.apple_headroom_stops(1.5, 10.0) == 0.0
    # The iPhone 13 Pro Max photo's tags, as exiftool prints them.
    assert ultra_hdr.apple_headroom_stops(0.8432090282, 0.008020164442) == pytest.approx(1.6396, abs=1e-4)


def test_apples_hdr_brightens_by_the_linear_gain() -> None:
    sdr = numpy.full((4, 4, 3), 0.25)
    gain = numpy.full((2, 2, 1), 0.6)
    for transfer, linear in (("rec709", ((0.6 + 0.099) / 1.099) ** (1 / 0.45)), ("gamma2.2", 0.6**2.2)):
        hdr = ultra_hdr.apple_hdr(sdr, gain, 4.0, transfer)
        assert hdr == pytest.approx(numpy.full((4, 4, 3), 0.25 * (1 + 3 * linear)))
    assert ultra_hdr.bt709_inverse_oetf(numpy.array([0.0, 0.081, 1.0])) == pytest.approx([0, 0.018, 1], abs=1e-4)


def test_the_pattern_module_keeps_make_test_hdrs_layout() -> None:
    assert pattern_size() == (256, 128)
    codes = pattern_codes()
    assert len(codes) == 32
    assert codes[15] == (1023, 1023, 1023)
    light = display_light(numpy.array(codes, dtype=float) / LEVELS, "hlg", "bt2020")
    assert light[15] == pytest.approx([1000, 1000, 1000])
    assert display_light(numpy.array([[1.0, 1.0, 1.0]]), "pq", "bt709")[0] == pytest.approx([10000] * 3)


# With a decoder: check-gain-map.py and what decodes.


@cache
def codec_python() -> str | None:
    """A Python with numpy and imagecodecs, or None."""
    candidates = [os.environ.get("THUMBS_TEST_PYTHON"), str(REPOSITORY / ".build/test-venv/bin/python"), sys.executable]
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            probe = subprocess.run([candidate, "-c", "import imagecodecs, numpy"], capture_output=True)
            if probe.returncode == 0:
                return candidate
    return None


@pytest.fixture
def python() -> str:
    found = codec_python()
    if found is None:
        pytest.skip("no Python with imagecodecs ($THUMBS_TEST_PYTHON or .build/test-venv, scripts/test-media-tools)")
    return found


def run(python: str, code: str, *arguments: str, stdin: bytes = b"") -> bytes:
    environment = {**os.environ, "PYTHONPATH": str(SCRIPTS), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([python, "-c", code, *arguments], input=stdin, capture_output=True, env=environment)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


def encoded(python: str, pixels: Any, quality: int = 100) -> bytes:
    """`pixels` (uint8) as a JPEG, by imagecodecs."""
    stream = io.BytesIO()
    numpy.save(stream, pixels)
    code = "import io, sys, numpy, imagecodecs\n"
    code += "pixels = numpy.load(io.BytesIO(sys.stdin.buffer.read()))\n"
    code += "sys.stdout.buffer.write(imagecodecs.jpeg8_encode(pixels, level=int(sys.argv[1])))"
    return run(python, code, str(quality), stdin=stream.getvalue())


def decoded(python: str, path: Path) -> dict[str, Any]:
    """The primary's and the gain map's samples and the HDR picture (float64) of a file."""
    code = "import io, sys, numpy\nfrom thumbs_tools import ultra_hdr as u\n"
    code += "picture = u.read(open(sys.argv[1], 'rb').read(), require_container=False)\n"
    code += "light = u.reconstruct(picture, 'float64')\n"
    code += "stream = io.BytesIO()\n"
    code += "numpy.savez(stream, primary=u.decode_jpeg(picture.primary), gain=u.decode_jpeg(picture.gain_map),"
    code += " hdr=light.hdr, sdr=light.sdr)\n"
    code += "sys.stdout.buffer.write(stream.getvalue())"
    arrays = numpy.load(io.BytesIO(run(python, code, str(path))))
    return {name: arrays[name] for name in arrays.files}


def check(python: str, *arguments: str | Path) -> subprocess.CompletedProcess[str]:
    command = [python, str(SCRIPTS / "check-gain-map.py"), *map(str, arguments)]
    return subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})


def checked(python: str, *arguments: str | Path) -> dict[str, Any]:
    done = check(python, *arguments)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def made(
    python: str,
    hdr: Any,
    sdr: Any,
    channels: int = 3,
    orientation: int | None = None,
    container: bool = True,
) -> bytes:
    """An Ultra HDR JPEG (quality 100) whose primary is the 8-bit sRGB `sdr` and whose gain map,
    of `channels`, takes its decoded linear light to `hdr` (both rows × columns × 3)."""
    linear = ultra_hdr.srgb_linear(sdr, "float64")
    if channels == 1:
        ratio = numpy.log2(
            (ultra_hdr.luminance(hdr, ultra_hdr.BT709_WEIGHTS) + OFFSET)
            / (ultra_hdr.luminance(linear, ultra_hdr.BT709_WEIGHTS) + OFFSET)
        )[:, :, None]
    else:
        ratio = numpy.log2((hdr + OFFSET) / (linear + OFFSET))
    low, high = float(ratio.min()), max(float(ratio.max()), float(ratio.min()) + 1)
    gain = numpy.rint(255 * (ratio - low) / (high - low)).astype(numpy.uint8)
    primary = encoded(python, sdr)
    if orientation is not None:
        primary = with_segment(primary, exif(orientation))
    metadata = {"GainMapMin": (low,), "GainMapMax": (high,), "OffsetSDR": (OFFSET,), "OffsetHDR": (OFFSET,)}
    metadata["HDRCapacityMax"] = (high,)
    gain_map = encoded(python, gain if channels == 3 else gain[:, :, 0])
    return ultra_hdr.assembled(primary, gain_map, metadata, container=container)


def sdr_of(hdr: Any) -> Any:
    """8-bit sRGB of linear light, clipped at SDR white."""
    from thumbs_tools.hdr_light import srgb_encode

    return numpy.rint(255 * srgb_encode(hdr)).astype(numpy.uint8)


def test_a_minimal_ultra_hdr_jpeg_is_reconstructed_exactly(python: str, tmp_path: Path) -> None:
    primary = encoded(python, numpy.full((16, 24, 3), (200, 120, 40), dtype=numpy.uint8))
    gain_map = encoded(python, numpy.full((8, 12), 191, dtype=numpy.uint8))
    path = tmp_path / "minimal.jpg"
    path.write_bytes(ultra_hdr.assembled(primary, gain_map, METADATA))
    pictures = decoded(python, path)
    assert pictures["gain"].shape == (8, 12, 1)
    assert (pictures["gain"] == 191).all()  # a flat grey JPEG decodes exactly
    shown = pictures["primary"][0, 0]
    assert (pictures["primary"] == shown).all()
    for c in range(3):
        sdr = float(ultra_hdr.srgb_eotf(numpy.array(shown[c] / 255)))
        assert pictures["sdr"][:, :, c] == pytest.approx(sdr)
        assert pictures["hdr"][:, :, c] == pytest.approx(expected_hdr(sdr, 191 / 255, METADATA, c), rel=1e-9)
    description = checked(python, "describe", path)
    assert description["width"] == 24
    assert description["height"] == 16
    assert description["gain_map"] == {"width": 12, "height": 8, "channels": 1, "version": "1.0"}
    assert description["metadata"]["GainMapMin"] == [0.5, 0.25, -0.5]
    assert description["metadata"]["HDRCapacityMin"] == [0.0]
    assert description["version"] == "1.0"
    assert description["container"]
    assert description["warnings"] == []
    assert description["luminance_weights"] == list(ultra_hdr.BT709_WEIGHTS)
    plain = tmp_path / "plain.jpg"
    plain.write_bytes(primary)
    assert checked(python, "primary", path, plain) == {"max_difference": 0, "same_size": True}
    other = tmp_path / "other.jpg"
    other.write_bytes(encoded(python, numpy.full((16, 24, 3), (201, 120, 40), dtype=numpy.uint8)))
    assert checked(python, "primary", path, other)["max_difference"] >= 1
    small = tmp_path / "small.jpg"
    small.write_bytes(gain_map)
    assert checked(python, "primary", path, small) == {"max_difference": None, "same_size": False}


def test_what_is_no_ultra_hdr_jpeg_exits_2_saying_why(python: str, tmp_path: Path) -> None:
    plain = tmp_path / "plain.jpg"
    plain.write_bytes(encoded(python, numpy.zeros((8, 8, 3), dtype=numpy.uint8)))
    done = check(python, "describe", plain)
    assert done.returncode == 2
    assert "no MPF" in done.stderr
    assert str(plain) in done.stderr
    assert not done.stdout
    assert check(python, "describe", tmp_path / "absent.jpg").returncode == 2
    adobe = tmp_path / "adobe.jpg"
    flat = numpy.full((8, 8, 3), 0.5)
    adobe.write_bytes(made(python, flat, sdr_of(flat), container=False))
    assert check(python, "describe", adobe).returncode == 2
    assert not checked(python, "describe", "--lenient", adobe)["container"]


def test_the_pattern_is_measured_patch_by_patch(python: str, tmp_path: Path) -> None:
    # The pattern's HDR light, at half its size, and an Ultra HDR JPEG of it clipped to SDR.
    codes = numpy.array(pattern_codes(), dtype=float) / LEVELS
    light = display_light(codes, "hlg", "bt2020") / SDR_WHITE
    width, height = pattern_size()
    hdr = numpy.zeros((height // 2, width // 2, 3))
    for index, value in enumerate(light):
        top, left = index // 8 * 16, index % 8 * 16
        hdr[top : top + 16, left : left + 16] = value
    path = tmp_path / "pattern.jpg"
    path.write_bytes(made(python, hdr, sdr_of(hdr)))
    result = checked(python, "pattern", path, "--transfer", "hlg", "--primaries", "bt2020")
    source = light @ ultra_hdr.BT709_WEIGHTS
    assert [patch["source"] for patch in result["patches"]] == pytest.approx(source.tolist())
    assert [(patch["x"], patch["y"], patch["grey"]) for patch in result["patches"][::15]] == [
        (16, 16, True),
        (240, 48, True),
        (208, 112, False),
    ]
    assert result["lit_patches"] == int((source >= 1 / 64).sum())
    assert result["mean_stops"] < 0.01
    assert result["max_stops"] < 0.04
    assert result["headroom_stops"] > 2
    assert result["patches"][15]["sdr"] == pytest.approx(1.0, abs=0.01)
    assert result["patches"][15]["reconstructed"] == pytest.approx(1000 / 203, rel=0.03)
    # The SDR picture alone (a gain map of no boost) is far off in the highlights.
    flat = tmp_path / "flat.jpg"
    clipped = ultra_hdr.srgb_linear(sdr_of(hdr), "float64")
    flat.write_bytes(made(python, clipped, sdr_of(hdr)))
    far = checked(python, "pattern", flat, "--transfer", "hlg", "--primaries", "bt2020")
    assert far["max_stops"] > 2
    # A picture of another shape is no rendition of the pattern.
    square = tmp_path / "square.jpg"
    square.write_bytes(made(python, hdr[:, :64], sdr_of(hdr[:, :64])))
    done = check(python, "pattern", square, "--transfer", "hlg", "--primaries", "bt2020")
    assert done.returncode == 1
    assert "aspect-fit" in done.stderr


def scene(height: int, width: int) -> Any:
    """A smooth HDR picture, linear, up to 6 × SDR white, with some dark parts."""
    rows, columns = numpy.mgrid[0:height, 0:width]
    base = 0.02 + 0.98 * columns / (width - 1)
    bright = 1 + 5 * numpy.exp(
        -(((rows - height / 3) / (height / 5)) ** 2 + ((columns - width / 4) / (width / 6)) ** 2)
    )
    return numpy.stack([base * bright, base * bright * 0.8, base * bright * (0.5 + rows / height)], axis=2)


def test_a_thumbnail_is_compared_with_its_turned_reference(python: str, tmp_path: Path) -> None:
    upright = scene(48, 64)
    # Stored turned a quarter anticlockwise, shown upright by Exif orientation 6.
    stored = numpy.rot90(upright, 1)
    reference = tmp_path / "reference.jpg"
    reference.write_bytes(made(python, stored, sdr_of(stored), channels=1, orientation=6))
    small = ultra_hdr.area_averaged(upright, 24, 32)
    thumbnail = tmp_path / "thumbnail.jpg"
    thumbnail.write_bytes(made(python, small, sdr_of(small)))
    result = checked(python, "compare", thumbnail, reference)
    assert result["lit_pixels"] == 24 * 32
    assert result["mean_stops"] < 0.02
    assert result["max_stops"] < 0.15
    assert result["headroom_stops"] == pytest.approx(result["reference_headroom_stops"], abs=0.3)
    # THUMB's own orientation is not applied: the reference is no upright thumbnail of itself.
    assert check(python, "compare", reference, reference).returncode == 1
    # A thumbnail left in the stored orientation cannot be compared.
    turned = tmp_path / "turned.jpg"
    stored_small = ultra_hdr.area_averaged(stored, 32, 24)
    turned.write_bytes(made(python, stored_small, sdr_of(stored_small)))
    done = check(python, "compare", turned, reference)
    assert done.returncode == 1
    assert "aspect-fit" in done.stderr
    # Nor one mirrored: it compares, badly.
    mirrored = tmp_path / "mirrored.jpg"
    mirrored.write_bytes(made(python, small[:, ::-1], sdr_of(small[:, ::-1])))
    assert checked(python, "compare", mirrored, reference)["mean_stops"] > 0.5
    # The SDR picture alone misses the highlights.
    flat = tmp_path / "flat.jpg"
    flat.write_bytes(made(python, ultra_hdr.srgb_linear(sdr_of(small), "float64"), sdr_of(small)))
    assert checked(python, "compare", flat, reference)["max_stops"] > 0.4


# The shared photos.


@pytest.mark.skipif(not PIXEL.exists(), reason=SHARED_ABSENT)
def test_a_pixel_phones_ultra_hdr_photo_is_read() -> None:
    picture = ultra_hdr.read(PIXEL.read_bytes())
    assert picture.size == (4080, 3072)
    assert picture.gain_map_size == (1020, 768)
    assert picture.gain_map_channels == 1
    assert picture.container
    assert picture.orientation == 1
    assert picture.metadata.gain_map_max == (2.656715,)
    assert picture.metadata.hdr_capacity_max == (2.656715,)
    assert picture.metadata.offset_sdr == (0.0,)
    assert picture.metadata.defaulted == ("Gamma",)
    # Its MPF index says the primary is 307 bytes shorter than it is.
    assert picture.warnings
    assert picture.primary.endswith(b"\xff\xd9")
    assert ultra_hdr.luminance_weights(picture.icc) == pytest.approx((0.2290, 0.6917, 0.0793), abs=1e-4)


@pytest.mark.skipif(not PIXEL.exists(), reason=SHARED_ABSENT)
def test_a_pixel_phones_photo_is_described(python: str) -> None:
    description = checked(python, "describe", PIXEL)
    assert (description["width"], description["height"]) == (4080, 3072)
    assert description["gain_map"] == {"width": 1020, "height": 768, "channels": 1, "version": "1.0"}


@pytest.mark.skipif(not SEINE.exists(), reason=SHARED_ABSENT)
def test_adobes_three_channel_gain_map_is_read(python: str) -> None:
    with pytest.raises(UltraHdrError, match="Container:Directory"):
        ultra_hdr.read(SEINE.read_bytes())
    picture = ultra_hdr.read(SEINE.read_bytes(), require_container=False)
    assert picture.gain_map_channels == 3
    assert picture.metadata.gain_map_min == (-0.256907, -0.261365, -0.280284)
    assert picture.metadata.gamma == (0.953784, 0.941095, 0.919422)
    assert picture.metadata.hdr_capacity_max == (1.3,)
    description = checked(python, "describe", "--lenient", SEINE)
    assert description["gain_map"]["channels"] == 3
    assert description["metadata"]["GainMapMax"] == [1.277177, 1.277203, 1.277969]
    same = checked(python, "compare", "--lenient", SEINE, SEINE)
    assert same["lit_pixels"] > 100000
    assert same["mean_stops"] == pytest.approx(0, abs=1e-6)
    assert same["headroom_stops"] == 1.3


@pytest.mark.skipif(not IPHONE.exists(), reason=SHARED_ABSENT)
def test_an_iphone_photos_gain_map_item_is_found() -> None:
    layout = ultra_hdr.heif_gain_map_layout(IPHONE.read_bytes())
    assert (layout.primary, layout.gain_map) == (49, 51)
    # Both turned a quarter clockwise to be upright: the gain map carries its own irot.
    assert layout.primary_transforms == (("irot", 3),)
    assert layout.gain_map_transforms == (("irot", 3),)
    assert ultra_hdr.luminance_weights(layout.icc) == pytest.approx((0.2290, 0.6917, 0.0793), abs=1e-4)
    with pytest.raises(UltraHdrError, match="cannot be read"):
        ultra_hdr.heif_gain_map_layout(b"\0\0\0\x10ftypheic" + bytes(8))


@pytest.mark.skipif(not IPHONE.exists(), reason=SHARED_ABSENT)
@pytest.mark.skipif(shutil.which("heif-convert") is None or shutil.which("exiftool") is None, reason="no heif-convert")
def test_an_iphone_photo_is_compared_through_its_apple_gain_map(python: str, tmp_path: Path) -> None:
    flat = numpy.full((40, 30, 3), 0.5)
    thumbnail = tmp_path / "thumbnail.jpg"
    thumbnail.write_bytes(made(python, flat, sdr_of(flat)))
    result = checked(python, "apple-compare", thumbnail, IPHONE)
    assert result["maker33"] == pytest.approx(0.8432090282)
    assert result["maker48"] == pytest.approx(0.008020164442)
    assert result["reference_headroom_stops"] == pytest.approx(1.6396, abs=1e-4)
    assert result["gain_transfer"] == "rec709"
    assert result["lit_pixels"] > 1000
    assert result["mean_stops"] > 0.3  # a flat grey is no rendition of the photo
    done = check(python, "apple-compare", thumbnail, PIXEL)
    assert done.returncode == 2


def _rational(value: float, signed: bool = True) -> bytes:
    return round(value * (1 << 20)).to_bytes(4, "big", signed=signed) + (1 << 20).to_bytes(4, "big")


def test_iso_21496_metadata_is_read_field_by_field() -> None:
    one = bytes([0, 0, 0, 0, 0x40]) + _rational(0, False) + _rational(2.5, False)
    one += _rational(-0.5) + _rational(2.5) + _rational(1, False) + _rational(1 / 64) + _rational(1 / 64)
    base, alternate, fields = ultra_hdr.iso_metadata(one)
    assert (base, alternate) == (0, 2.5)
    assert fields == [(-0.5,), (2.5,), (1.0,), (1 / 64,), (1 / 64,)]
    three = bytes([0, 0, 0, 0, 0xC0]) + _rational(0, False) + _rational(2, False)
    for channel in range(3):
        three += _rational(-channel / 4) + _rational(2) + _rational(1, False) + _rational(0) + _rational(0)
    assert ultra_hdr.iso_metadata(three)[2][0] == (0, -0.25, -0.5)
    for cut in range(len(one)):
        with pytest.raises(ultra_hdr.UltraHdrError):
            ultra_hdr.iso_metadata(one[:cut])
    with pytest.raises(ultra_hdr.UltraHdrError, match="minimum reader version"):
        ultra_hdr.iso_metadata(bytes([0, 1]) + one[2:])
