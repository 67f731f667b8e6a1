"""bench-sharpness' reference for PNGs described by colour chunks and for HDR stills: the chunks
and boxes read, the colour conversions and BT.2100's and BT.2390's curves."""

import shutil
import struct
import zlib
from pathlib import Path

import pytest

from thumbs_tools.bench.reference_colour import (
    D65,
    HLG,
    PNG_SIGNATURE,
    PQ,
    SRGB_PRIMARIES,
    Nclx,
    PngColour,
    bt2390_eetf,
    colour_and_alpha,
    full_decode,
    heif_nclx,
    heif_stated_peak,
    hlg_inverse_oetf,
    hlg_ootf,
    png_colour,
    png_to_srgb,
    pq_eotf,
    pq_inverse_eotf,
    rgb_to_xyz,
    source_peak,
    srgb_decoded,
    srgb_encoded,
    to_srgb_primaries,
    tone_mapped,
    vips_pixels,
)

numpy = pytest.importorskip("numpy")


def chunk(kind: bytes, body: bytes, crc: int | None = None) -> bytes:
    """A PNG chunk, its CRC right unless `crc` is given."""
    crc = zlib.crc32(kind + body) if crc is None else crc
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


def png(*chunks: bytes, rows: bytes = b"\x00\x00\x00\xff\xff") -> bytes:
    """A 2×1 16-bit grey PNG with these chunks between IHDR and IDAT (and this filtered row)."""
    header = chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 1, 16, 0, 0, 0, 0))
    return PNG_SIGNATURE + header + b"".join(chunks) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def gama(gamma: float) -> bytes:
    return chunk(b"gAMA", struct.pack(">I", round(gamma * 100000)))


def chrm(
    red: tuple[float, float], green: tuple[float, float], blue: tuple[float, float], white: tuple[float, float]
) -> bytes:
    values = [*white, *red, *green, *blue]
    return chunk(b"cHRM", struct.pack(">8I", *(round(v * 100000) for v in values)))


def box(kind: bytes, payload: bytes, version: int | None = None, flags: int = 0) -> bytes:
    """An ISO BMFF box; a full box when `version` is given."""
    if version is not None:
        payload = bytes([version]) + flags.to_bytes(3, "big") + payload
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def nclx(primaries: int, transfer: int, matrix: int, full_range: bool) -> bytes:
    return box(b"colr", b"nclx" + struct.pack(">3HB", primaries, transfer, matrix, 0x80 if full_range else 0))


def heif(associations: bytes, flags: int = 0, primary: int = 1, more: bytes = b"") -> bytes:
    """An AVIF's boxes with three properties (an SDR nclx, ispe, a PQ nclx), then `more`, and these
    associations."""
    properties = box(b"ipco", nclx(1, 13, 6, True) + box(b"ispe", bytes(12)) + nclx(9, 16, 9, False) + more)
    iprp = box(b"iprp", properties + box(b"ipma", associations, version=0, flags=flags))
    meta = box(b"meta", box(b"pitm", struct.pack(">H", primary), version=0) + box(b"hdlr", bytes(24)) + iprp, version=0)
    return box(b"ftyp", b"avif\0\0\0\0mif1") + meta + box(b"mdat", bytes(16))


# The chunks and boxes.


def test_a_png_without_colour_chunks_is_left_alone() -> None:
    assert png_colour(png()) == PngColour()
    assert not PngColour().converted_here
    assert png_colour(b"GIF89a" + bytes(40)) is None


def test_gama_and_chrm_are_read_and_converted_here() -> None:
    colour = png_colour(png(gama(1.0), chrm((0.64, 0.33), (0.3, 0.6), (0.15, 0.06), (0.3457, 0.3585))))
    assert colour == PngColour(gamma=1.0, chromaticities=((0.64, 0.33), (0.3, 0.6), (0.15, 0.06), (0.3457, 0.3585)))
    assert colour is not None and colour.converted_here


def test_an_icc_profile_or_the_srgb_chunk_outranks_gama_and_chrm() -> None:
    with_icc = png_colour(png(chunk(b"iCCP", b"name\0\0" + zlib.compress(b"profile")), gama(1.0)))
    with_srgb = png_colour(png(chunk(b"sRGB", b"\0"), gama(0.45455)))
    assert with_icc is not None and with_icc.icc and not with_icc.converted_here
    assert with_srgb is not None and with_srgb.srgb and not with_srgb.converted_here


def test_chunks_with_a_wrong_crc_impossible_values_or_after_idat_are_ignored() -> None:
    assert png_colour(png(chunk(b"gAMA", struct.pack(">I", 100000), crc=0))) == PngColour()
    assert png_colour(png(chrm((0.64, 0.0), (0.3, 0.6), (0.15, 0.06), D65))) == PngColour()
    assert png_colour(png(chrm((0.64, 0.33), (0.64, 0.33), (0.15, 0.06), D65))) == PngColour()
    late = png().replace(chunk(b"IEND", b""), gama(1.0) + chunk(b"IEND", b""))
    assert png_colour(late) == PngColour()
    assert png_colour(png(gama(1.0), gama(0.5))) == PngColour(gamma=1.0)  # the first one counts


def test_the_primary_items_nclx_box_is_read() -> None:
    # Item 2 (an SDR nclx), then item 1, the primary: ispe and the PQ nclx, the latter essential.
    associations = struct.pack(">IHB", 2, 2, 1) + bytes([1]) + struct.pack(">HB", 1, 2) + bytes([2, 0x83])
    assert heif_nclx(heif(associations)) == Nclx(9, 16, 9, False)
    assert heif_nclx(heif(associations, primary=2)) == Nclx(1, 13, 6, True)
    wide = struct.pack(">IHB", 1, 1, 2) + struct.pack(">HH", 2, 0x8003)  # 15-bit indices
    assert heif_nclx(heif(wide, flags=1)) == Nclx(9, 16, 9, False)


def test_no_nclx_is_found_in_what_is_no_heif_or_ends_early() -> None:
    associations = struct.pack(">IHB", 1, 1, 1) + bytes([2])  # ispe only
    assert heif_nclx(heif(associations)) is None
    assert heif_nclx(heif(struct.pack(">IHB", 1, 1, 1) + bytes([9]))) is None  # no such property
    assert heif_nclx(png()) is None
    whole = heif(struct.pack(">IHB", 1, 1, 1) + bytes([3]))
    assert heif_nclx(whole[: len(whole) - 40]) is None


def test_the_stated_peak_is_the_content_light_level_else_the_mastering_displays() -> None:
    clli = struct.pack(">I4s", 12, b"clli") + struct.pack(">HH", 707, 300)
    mdcv = struct.pack(">I4s", 32, b"mdcv") + bytes(16) + struct.pack(">II", 40_000_000, 50)
    empty_clli = struct.pack(">I4s", 12, b"clli") + struct.pack(">HH", 0, 0)
    # The primary, item 1: the PQ nclx (3), then properties 4 and 5.
    both = struct.pack(">IHB", 1, 1, 3) + bytes([3, 4, 5])
    assert heif_stated_peak(heif(both, more=clli + mdcv)) == 707
    assert heif_stated_peak(heif(both, more=empty_clli + mdcv)) == 4000
    short_mdcv = struct.pack(">I4s", 28, b"mdcv") + bytes(16) + struct.pack(">I", 40_000_000)
    assert heif_stated_peak(heif(both, more=empty_clli + short_mdcv)) is None  # no luminances
    assert heif_stated_peak(heif(struct.pack(">IHB", 1, 1, 1) + bytes([3]), more=clli)) is None  # not the primary's
    assert heif_stated_peak(png()) is None


def test_the_eetf_maps_from_a_pq_pictures_stated_peak_and_hlgs_nominal_one() -> None:
    pq, hlg = Nclx(9, PQ, 9, True), Nclx(9, HLG, 9, True)
    assert source_peak(pq, 707) == 707
    assert source_peak(pq, None) == source_peak(pq, 0) == source_peak(hlg, 707) == 1000
    assert source_peak(pq, 50) == 203 and source_peak(pq, 40_000) == 10_000
    light = numpy.array([[[600.0, 600.0, 600.0]]])
    assert tone_mapped(pq_inverse_eotf(light), pq, 600)[0, 0, 0] == pytest.approx(1)
    assert tone_mapped(pq_inverse_eotf(light), pq)[0, 0, 0] < 1


# Colour.


def test_srgbs_primaries_make_its_own_matrix() -> None:
    assert rgb_to_xyz(SRGB_PRIMARIES)[1] == pytest.approx([0.2126, 0.7152, 0.0722], abs=1e-4)
    assert to_srgb_primaries(SRGB_PRIMARIES) == pytest.approx(numpy.eye(3))


def test_another_white_point_stays_white() -> None:
    d50 = ((0.64, 0.33), (0.3, 0.6), (0.15, 0.06), (0.3457, 0.3585))
    assert to_srgb_primaries(d50) @ numpy.ones(3) == pytest.approx(numpy.ones(3))


def test_srgbs_encoding_and_decoding_are_inverse() -> None:
    values = numpy.linspace(0, 1, 101)
    assert srgb_decoded(srgb_encoded(values)) == pytest.approx(values)
    assert srgb_encoded(numpy.array([0.0, 0.002, 1.0, 1.5])) == pytest.approx([0, 0.02584, 1, 1])


def test_linear_samples_are_encoded_as_srgb() -> None:
    grey = numpy.array([[[16 / 255], [1.0]]])
    assert png_to_srgb(grey, PngColour(gamma=1.0)) * 255 == pytest.approx(numpy.array([[[70.85], [255]]]), abs=0.01)
    rgb = numpy.array([[[16 / 255, 0.0, 1.0]]])
    assert png_to_srgb(rgb, PngColour(gamma=1.0)) == pytest.approx(srgb_encoded(rgb))
    assert png_to_srgb(rgb, PngColour(chromaticities=SRGB_PRIMARIES)) == pytest.approx(rgb)


def test_wider_primaries_are_clipped_into_srgb() -> None:
    wide = ((0.708, 0.292), (0.17, 0.797), (0.131, 0.046), D65)
    green = png_to_srgb(numpy.array([[[0.0, 1.0, 0.0]]]), PngColour(gamma=1.0, chromaticities=wide))
    assert green[0, 0] == pytest.approx([0, 1, 0])


# HDR.


def test_pqs_eotf_and_its_inverse() -> None:
    assert pq_eotf(numpy.array([0.0, 1.0])) == pytest.approx([0, 10000])
    assert pq_inverse_eotf(100.0) == pytest.approx(0.5081, abs=1e-4)
    luminance = numpy.array([0.01, 1, 88, 203, 1000, 4000])
    assert pq_eotf(pq_inverse_eotf(luminance)) == pytest.approx(luminance)


def test_hlgs_inverse_oetf_and_ootf() -> None:
    assert hlg_inverse_oetf(numpy.array([0.0, 0.5, 1.0])) == pytest.approx([0, 1 / 12, 1], abs=1e-6)
    weights = rgb_to_xyz(SRGB_PRIMARIES)[1]
    assert hlg_ootf(numpy.ones((1, 1, 3)), weights) == pytest.approx(numpy.full((1, 1, 3), 1000))
    half = hlg_ootf(numpy.full((1, 1, 3), 0.5), weights)
    assert half == pytest.approx(numpy.full((1, 1, 3), 1000 * 0.5**1.2))


def test_bt2390s_eetf_keeps_the_shadows_and_rolls_off_to_203() -> None:
    luminance = numpy.array([0.0, 10, 50, 85, 120, 203, 500, 1000, 4000])
    mapped = bt2390_eetf(luminance)
    assert mapped[:4] == pytest.approx(luminance[:4])
    assert mapped[4] < 120 and mapped[5] < 203
    assert mapped[-2:] == pytest.approx([203, 203])
    assert numpy.all(numpy.diff(mapped[:-1]) > 0)  # rising up to the source's peak


def test_pqs_reference_white_lands_at_229() -> None:
    white = numpy.full((1, 1, 3), pq_inverse_eotf(203.0))
    assert numpy.rint(tone_mapped(white, Nclx(1, PQ, 1, True)) * 255) == pytest.approx(numpy.full((1, 1, 3), 229))
    assert tone_mapped(numpy.zeros((1, 1, 3)), Nclx(1, PQ, 1, True)) == pytest.approx(numpy.zeros((1, 1, 3)))


def test_the_tone_map_keeps_a_colours_ratios_and_clips_what_bt709_lacks() -> None:
    light = numpy.array([[[600.0, 300.0, 150.0]]])
    mapped = srgb_decoded(tone_mapped(pq_inverse_eotf(light), Nclx(1, PQ, 1, True)))
    assert mapped[0, 0] / mapped[0, 0, 0] == pytest.approx([1, 0.5, 0.25])
    green = tone_mapped(numpy.array([[[0.0, 0.6, 0.0]]]), Nclx(9, PQ, 9, True))
    assert green[0, 0, 0] == 0 and green[0, 0, 1] > 0 and green[0, 0, 2] == 0


def test_hlgs_peak_is_white_and_unknown_primaries_are_bt2020s() -> None:
    assert tone_mapped(numpy.ones((1, 1, 3)), Nclx(9, HLG, 9, True)) == pytest.approx(numpy.ones((1, 1, 3)))
    code = numpy.array([[[0.2, 0.7, 0.4]]])
    assert tone_mapped(code, Nclx(2, PQ, 9, True)) == pytest.approx(tone_mapped(code, Nclx(9, PQ, 9, True)))


# The decode.


def test_other_photos_are_left_to_pillow(tmp_path: Path) -> None:
    (tmp_path / "srgb.png").write_bytes(png(chunk(b"sRGB", b"\0"), gama(0.45455)))
    assert full_decode(tmp_path / "srgb.png", tmp_path) is None


@pytest.mark.skipif(shutil.which("vips") is None, reason="libvips' vips command is not installed")
def test_libvips_gives_16_bit_samples_at_full_precision(tmp_path: Path) -> None:
    (tmp_path / "linear.png").write_bytes(png(gama(1.0), rows=b"\x00\x10\x20\xff\xff"))
    samples = vips_pixels(tmp_path / "linear.png", tmp_path)
    assert samples.shape == (1, 2, 1) and samples.ravel().tolist() == [0x1020, 0xFFFF]
    pytest.importorskip("PIL")
    converted = full_decode(tmp_path / "linear.png", tmp_path)
    assert converted is not None
    picture, decoder = converted
    assert numpy.asarray(picture).tolist() == [[71, 255]]
    assert decoder == "libvips, PNG colour chunks to sRGB here"


def test_alpha_is_the_last_of_two_or_four_bands() -> None:
    for bands, colour in ((1, 1), (2, 1), (3, 3), (4, 3)):
        values = numpy.zeros((1, 1, bands))
        split, alpha = colour_and_alpha(values)
        assert split.shape[-1] == colour and (alpha is None) == (bands % 2 == 1)
