"""Ultra HDR JPEGs read and checked, and the HDR picture their gain map reconstructs.

An Ultra HDR JPEG (Google's "Ultra HDR Image Format v1") is an SDR JPEG, the primary, followed by
a second JPEG, the gain map, that says by how many stops (log2) each pixel brightens on an HDR
display. What a reader finds, and what this module checks, raising `UltraHdrError` with what is
wrong:

- the primary's APP2 MPF segment (CIPA DC-007 "Multi-Picture Format", `MPF\\0` then a TIFF
  header, either byte order): its MP index, whose second entry locates the gain map, its offset
  counted from the TIFF header's byte-order mark (the byte after `MPF\\0`), inside the file and
  after the primary, a JPEG. The primary is the file up to the gain map: Pixel phones' MPF
  index says it is shorter than it is, which `UltraHdr.warnings` notes;
- the primary's APP1 XMP: `hdrgm:Version` (http://ns.adobe.com/hdr-gain-map/1.0/) and Google's
  container directory (http://ns.google.com/photos/1.0/container/), whose `GainMap` item's
  `Item:Length` is the MPF entry's. Adobe's gain-map JPEGs (Camera Raw, Lightroom) have no
  directory: `read(..., require_container=False)` takes them;
- the gain map's own XMP: hdrgm:GainMapMin, GainMapMax, Gamma, OffsetSDR, OffsetHDR,
  HDRCapacityMin, HDRCapacityMax, each a value or an rdf:Seq of three (red, green, blue), as
  attributes of rdf:Description or as elements; those missing take the format's defaults (0, 1,
  1, 1/64, 1/64, 0, 1). Gain map extrema and capacities are log2 (stops).

The HDR picture, at full boost (weight 1), per channel c, in linear light (the sRGB EOTF of the
primary's 8-bit values, 1.0 the SDR white), g the gain map's value (0...1) upsampled bilinearly
(pixel centres aligned) to the primary's size:

    g' = g ** (1 / gamma[c])
    log_boost = min[c] * (1 - g') + max[c] * g'
    hdr = (sdr + offset_sdr[c]) * 2 ** log_boost - offset_hdr[c]

a one-channel gain map serving all three channels. Luminance is Y of the picture's primaries:
their weights come from the primary's ICC profile when it is a matrix profile (its colorants,
adapted back from ICC's D50 to D65 by its `chad` tag, else Bradford), else BT.709's (0.2126,
0.7152, 0.0722); an sRGB profile's are BT.709's to three decimals, Display P3's (0.229, 0.692,
0.079) are not.

Apple's HDR photos (an iPhone HEIC: an `urn:com:apple:photo:2020:aux:hdrgainmap` auxiliary
picture, a headroom from the MakerNote) are reconstructed by `apple_hdr`, from Apple's
"Applying Apple HDR effect to your photos"; `heif_gain_map_layout` reads what that takes from the
HEIF boxes. Orientation: `exif_orientation` and `oriented` (the eight EXIF orientations), the
HEIF transforms (`irot`, `imir`) by `transformed`.

`reconstruct` works in the stored orientation: a caller turns the result upright (`oriented`,
by `UltraHdr.orientation`) where the file has an Exif orientation. `assembled` writes the layout
`read` takes, from two JPEGs, for tests.

Decoding takes imagecodecs (`jpeg8_decode`), imported where used and untyped: the parsing and
the arithmetic take numpy only.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias
from xml.etree import ElementTree

import numpy

from thumbs_tools.heif_items import HeifLayoutError, associations, child, children

# A numpy array: numpy is not typed here (scripts/pyproject.toml's mypy overrides).
Array: TypeAlias = Any

HDRGM = "http://ns.adobe.com/hdr-gain-map/1.0/"
CONTAINER = "http://ns.google.com/photos/1.0/container/"
ITEM = "http://ns.google.com/photos/1.0/container/item/"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
XMP_SIGNATURE = b"http://ns.adobe.com/xap/1.0/\0"
EXIF_SIGNATURE = b"Exif\0\0"
ICC_SIGNATURE = b"ICC_PROFILE\0"
MPF_SIGNATURE = b"MPF\0"
ISO_SIGNATURE = b"urn:iso:std:iso:ts:21496:-1\0"
APPLE_GAIN_MAP = "urn:com:apple:photo:2020:aux:hdrgainmap"

BT709_WEIGHTS = (0.2126, 0.7152, 0.0722)
# The gain map's fields and their defaults (the format's), in the order the format lists them.
DEFAULTS = {
    "GainMapMin": 0.0,
    "GainMapMax": 1.0,
    "Gamma": 1.0,
    "OffsetSDR": 1 / 64,
    "OffsetHDR": 1 / 64,
    "HDRCapacityMin": 0.0,
    "HDRCapacityMax": 1.0,
}
# Markers without a length: TEM, RST0-7 (SOI and EOI are dealt with apart).
_STANDALONE = {0x01, *range(0xD0, 0xD8)}


class UltraHdrError(ValueError):
    """A file that is not a valid Ultra HDR JPEG (or gain-map HEIC), with what is wrong."""


# JPEG segments.


@dataclass(frozen=True)
class Segment:
    """A marker segment of a JPEG's header: its marker (0xE1 for APP1), its payload (after the
    length) and the payload's offset in the file."""

    marker: int
    offset: int
    payload: bytes


def segments(data: bytes, what: str = "the file") -> list[Segment]:
    """The marker segments of the JPEG `data`, from SOI to its first SOS (included)."""
    if data[:2] != b"\xff\xd8":
        raise UltraHdrError(f"{what} is not a JPEG: it does not start with an SOI marker (FF D8)")
    found = []
    at = 2
    while True:
        if at + 2 > len(data):
            raise UltraHdrError(f"{what}: the JPEG's header ends at byte {at} before any image data (no SOS marker)")
        if data[at] != 0xFF:
            raise UltraHdrError(f"{what}: no JPEG marker at byte {at} (found {data[at]:02X})")
        marker = data[at + 1]
        if marker == 0xFF:  # a fill byte
            at += 1
            continue
        if marker in _STANDALONE:
            at += 2
            continue
        if marker in (0xD8, 0xD9):
            raise UltraHdrError(f"{what}: marker FF {marker:02X} at byte {at}, inside the JPEG's header")
        if at + 4 > len(data):
            raise UltraHdrError(f"{what}: the JPEG segment at byte {at} is cut")
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        if length < 2 or at + 2 + length > len(data):
            raise UltraHdrError(f"{what}: JPEG segment FF {marker:02X} at byte {at} runs past the end of the file")
        found.append(Segment(marker, at + 4, data[at + 4 : at + 2 + length]))
        if marker == 0xDA:
            return found
        at += 2 + length


def app_segments(found: list[Segment], marker: int, signature: bytes) -> list[Segment]:
    """The segments of `marker` (0xE1, 0xE2...) whose payload starts with `signature`."""
    return [segment for segment in found if segment.marker == marker and segment.payload.startswith(signature)]


def jpeg_size(found: list[Segment], what: str = "the file") -> tuple[int, int]:
    """(width, height) from the start-of-frame segment among `found`."""
    for segment in found:
        if 0xC0 <= segment.marker <= 0xCF and segment.marker not in (0xC4, 0xC8, 0xCC):
            if len(segment.payload) < 6:
                raise UltraHdrError(f"{what}: the start-of-frame segment is cut")
            height, width = struct.unpack(">HH", segment.payload[1:5])
            return width, height
    raise UltraHdrError(f"{what}: the JPEG has no start-of-frame segment")


# TIFF structures: the MPF index and the Exif orientation.


@dataclass(frozen=True)
class MpEntry:
    """An MP entry of the MPF index: the image's attribute flags, size and offset (from the MPF
    header's byte-order mark; 0 for the first image, which starts the file)."""

    attribute: int
    size: int
    offset: int


def _tiff_order(tiff: bytes, what: str) -> str:
    if len(tiff) < 8:
        raise UltraHdrError(f"{what}: the TIFF header is cut")
    order = {b"II": "<", b"MM": ">"}.get(tiff[:2])
    if order is None:
        raise UltraHdrError(f"{what}: no TIFF byte-order mark (II or MM), found {tiff[:2]!r}")
    (magic,) = struct.unpack(order + "H", tiff[2:4])
    if magic != 42:
        raise UltraHdrError(f"{what}: the TIFF header's magic number is {magic}, not 42")
    return order


def _ifd_entries(tiff: bytes, order: str, offset: int, what: str) -> dict[int, tuple[int, int, bytes]]:
    """The entries of the IFD at `offset`: tag → (type, count, the 4-byte value field)."""
    if offset + 2 > len(tiff):
        raise UltraHdrError(f"{what}: the IFD at offset {offset} lies outside the segment ({len(tiff)} bytes)")
    (count,) = struct.unpack(order + "H", tiff[offset : offset + 2])
    if offset + 2 + 12 * count > len(tiff):
        raise UltraHdrError(f"{what}: the IFD at offset {offset} ({count} entries) runs past the segment")
    entries = {}
    for index in range(count):
        at = offset + 2 + 12 * index
        tag, kind, number = struct.unpack(order + "HHI", tiff[at : at + 8])
        entries[tag] = (kind, number, tiff[at + 8 : at + 12])
    return entries


def mp_entries(tiff: bytes) -> list[MpEntry]:
    """The MP entries of an MPF segment's payload after `MPF\\0` (the TIFF header on)."""
    what = "MPF"
    order = _tiff_order(tiff, what)
    (first,) = struct.unpack(order + "I", tiff[4:8])
    entries = _ifd_entries(tiff, order, first, what)
    if 0xB002 not in entries:
        raise UltraHdrError("MPF: the MP index has no MPEntry tag (B002)")
    kind, size, value = entries[0xB002]
    if kind != 7 or size % 16 or size == 0:
        raise UltraHdrError(f"MPF: the MPEntry tag holds {size} bytes of type {kind}, not 16 a picture (UNDEFINED)")
    (at,) = struct.unpack(order + "I", value)  # 16 bytes or more: an offset
    if at + size > len(tiff):
        raise UltraHdrError(f"MPF: the MP entries (offset {at}, {size} bytes) run past the segment")
    if 0xB001 in entries:
        number_kind, _, number_value = entries[0xB001]
        (number,) = struct.unpack(order + "I", number_value) if number_kind == 4 else (-1,)
        if number != size // 16:
            raise UltraHdrError(f"MPF: NumberOfImages is {number} but the index holds {size // 16} entries")
    found = []
    for index in range(size // 16):
        attribute, length, offset, _, _ = struct.unpack(order + "IIIHH", tiff[at + 16 * index : at + 16 * index + 16])
        found.append(MpEntry(attribute, length, offset))
    return found


def exif_orientation(found: list[Segment]) -> int:
    """The Exif orientation (1...8) of IFD0 in the JPEG's APP1 Exif segment; 1 when there is
    none."""
    exif = app_segments(found, 0xE1, EXIF_SIGNATURE)
    if not exif:
        return 1
    tiff = exif[0].payload[len(EXIF_SIGNATURE) :]
    order = _tiff_order(tiff, "Exif")
    (first,) = struct.unpack(order + "I", tiff[4:8])
    entries = _ifd_entries(tiff, order, first, "Exif")
    if 0x0112 not in entries:
        return 1
    kind, count, value = entries[0x0112]
    if kind != 3 or count != 1:
        raise UltraHdrError(f"Exif: the Orientation tag is of type {kind} and count {count}, not one SHORT")
    (orientation,) = struct.unpack(order + "H", value[:2])
    if not 1 <= orientation <= 8:
        raise UltraHdrError(f"Exif: orientation {orientation} is none of 1...8")
    return int(orientation)


def icc_profile(found: list[Segment]) -> bytes | None:
    """The ICC profile of the JPEG's APP2 ICC_PROFILE segments (in their sequence), or None."""
    chunks = app_segments(found, 0xE2, ICC_SIGNATURE)
    if not chunks:
        return None
    ordered = sorted(chunks, key=lambda segment: segment.payload[len(ICC_SIGNATURE)])
    return b"".join(segment.payload[len(ICC_SIGNATURE) + 2 :] for segment in ordered)


# XMP.


def xmp_root(found: list[Segment], what: str) -> ElementTree.Element | None:
    """The parsed XMP packet of the JPEG's APP1 XMP segment, or None when it has none."""
    packets = app_segments(found, 0xE1, XMP_SIGNATURE)
    if not packets:
        return None
    text = packets[0].payload[len(XMP_SIGNATURE) :].rstrip(b"\0 \t\r\n")
    try:
        return ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        raise UltraHdrError(f"{what}: its XMP is not well-formed XML ({error})") from error


def xmp_values(root: ElementTree.Element, namespace: str, name: str) -> list[str] | None:
    """The value(s) of a property of an rdf:Description: an attribute, or an element holding text
    or an rdf:Seq (Bag, Alt) of rdf:li; None when no description has it."""
    key = f"{{{namespace}}}{name}"
    for description in root.iter(f"{{{RDF}}}Description"):
        if key in description.attrib:
            return [description.attrib[key].strip()]
        element = description.find(key)
        if element is not None:
            for array in ("Seq", "Bag", "Alt"):
                items = element.findall(f"{{{RDF}}}{array}/{{{RDF}}}li")
                if items:
                    return [(item.text or "").strip() for item in items]
            return [(element.text or "").strip()]
    return None


def container_items(root: ElementTree.Element) -> list[dict[str, str]] | None:
    """The items of Google's container directory (Container:Directory), each its Item:
    properties (Semantic, Mime, Length, Padding) by name; None when there is no directory."""
    directory = root.find(f".//{{{CONTAINER}}}Directory")
    if directory is None:
        return None
    items = []
    for entry in directory.findall(f"{{{RDF}}}Seq/{{{RDF}}}li"):
        item = entry.find(f"{{{CONTAINER}}}Item")
        source = entry if item is None else item
        properties = {
            key[len(ITEM) + 2 :]: value for key, value in source.attrib.items() if key.startswith(f"{{{ITEM}}}")
        }
        for element in source:
            if element.tag.startswith(f"{{{ITEM}}}"):
                properties[element.tag[len(ITEM) + 2 :]] = (element.text or "").strip()
        items.append(properties)
    return items


@dataclass(frozen=True)
class GainMapMetadata:
    """The gain map's hdrgm: fields, each 1 or 3 (red, green, blue) values; `defaulted` names
    those the XMP left out, which hold the format's defaults."""

    version: str
    gain_map_min: tuple[float, ...]
    gain_map_max: tuple[float, ...]
    gamma: tuple[float, ...]
    offset_sdr: tuple[float, ...]
    offset_hdr: tuple[float, ...]
    hdr_capacity_min: tuple[float, ...]
    hdr_capacity_max: tuple[float, ...]
    defaulted: tuple[str, ...] = ()

    def fields(self) -> dict[str, list[float]]:
        """The fields by their XMP names (GainMapMin...), as lists."""
        values = (
            self.gain_map_min,
            self.gain_map_max,
            self.gamma,
            self.offset_sdr,
            self.offset_hdr,
            self.hdr_capacity_min,
            self.hdr_capacity_max,
        )
        return {name: list(value) for name, value in zip(DEFAULTS, values, strict=True)}

    def channel(self, name: str, index: int) -> float:
        """Field `name`'s value for channel `index` (0...2): a single value serves all three."""
        values = self.fields()[name]
        return values[index if len(values) == 3 else 0]


def gain_map_metadata(root: ElementTree.Element) -> GainMapMetadata:
    """The hdrgm: fields of the gain map's XMP."""
    version = xmp_values(root, HDRGM, "Version")
    if not version or not version[0]:
        raise UltraHdrError("the gain map's XMP has no hdrgm:Version")
    base_is_hdr = xmp_values(root, HDRGM, "BaseRenditionIsHDR")
    if base_is_hdr and base_is_hdr[0].lower() == "true":
        raise UltraHdrError("hdrgm:BaseRenditionIsHDR is True: the primary is HDR, which this checker does not read")
    values: dict[str, tuple[float, ...]] = {}
    defaulted = []
    for name, default in DEFAULTS.items():
        found = xmp_values(root, HDRGM, name)
        if found is None:
            values[name] = (default,)
            defaulted.append(name)
            continue
        if len(found) not in (1, 3):
            raise UltraHdrError(f"hdrgm:{name} holds {len(found)} values, not 1 or 3")
        try:
            values[name] = tuple(float(value) for value in found)
        except ValueError as error:
            raise UltraHdrError(f"hdrgm:{name} is not a number: {found}") from error
    if any(gamma <= 0 for gamma in values["Gamma"]):
        raise UltraHdrError(f"hdrgm:Gamma is not positive: {list(values['Gamma'])}")
    return GainMapMetadata(
        version[0],
        values["GainMapMin"],
        values["GainMapMax"],
        values["Gamma"],
        values["OffsetSDR"],
        values["OffsetHDR"],
        values["HDRCapacityMin"],
        values["HDRCapacityMax"],
        tuple(defaulted),
    )


def iso_metadata(payload: bytes) -> tuple[float, float, list[tuple[float, ...]]]:
    """An ISO 21496-1 gain map segment's payload (after its signature), read as that standard
    lays it out (big-endian): the minimum reader version (0) and the writer's, a flags byte
    (0x80: three channels), the base and alternate headrooms (unsigned rationals, in stops),
    then per channel the gain map's min and max (signed), its gamma (unsigned), the base and
    alternate offsets (signed); each rational a 32-bit numerator over a 32-bit denominator.
    Returns (base headroom, alternate headroom, [min, max, gamma, base offset, alternate
    offset] each as a tuple over the channels)."""
    position = 0

    def take(count: int) -> bytes:
        nonlocal position
        if position + count > len(payload):
            raise UltraHdrError(f"ISO 21496-1: the metadata ends at byte {len(payload)}, short of its fields")
        position += count
        return payload[position - count : position]

    def rational(signed: bool) -> float:
        numerator = int.from_bytes(take(4), "big", signed=signed)
        denominator = int.from_bytes(take(4), "big")
        if denominator == 0:
            raise UltraHdrError("ISO 21496-1: a denominator of 0")
        return numerator / denominator

    minimum_version = int.from_bytes(take(2), "big")
    take(2)
    if minimum_version != 0:
        raise UltraHdrError(f"ISO 21496-1: minimum reader version {minimum_version}, not 0")
    flags = take(1)[0]
    base, alternate = rational(False), rational(False)
    signs = (True, True, False, True, True)
    channels = [[rational(signed) for signed in signs] for _ in range(3 if flags & 0x80 else 1)]
    return base, alternate, [tuple(channel[field] for channel in channels) for field in range(5)]


def _check_iso(gain_segments: list[Segment], metadata: GainMapMetadata) -> bool:
    """Whether the gain map carries ISO 21496-1 metadata; raises when it says other than its XMP."""
    found = app_segments(gain_segments, 0xE2, ISO_SIGNATURE)
    if not found:
        return False
    base, alternate, fields = iso_metadata(found[0].payload[len(ISO_SIGNATURE) :])
    pairs = {
        "HDRCapacityMin": ([base], metadata.hdr_capacity_min),
        "HDRCapacityMax": ([alternate], metadata.hdr_capacity_max),
        "GainMapMin": (fields[0], metadata.gain_map_min),
        "GainMapMax": (fields[1], metadata.gain_map_max),
        "Gamma": (fields[2], metadata.gamma),
        "OffsetSDR": (fields[3], metadata.offset_sdr),
        "OffsetHDR": (fields[4], metadata.offset_hdr),
    }
    for name, (iso, xmp) in pairs.items():
        spread = [xmp[index if len(xmp) == 3 else 0] for index in range(3)]
        if any(abs(iso[index if len(iso) == 3 else 0] - spread[index]) > 1e-5 for index in range(3)):
            raise UltraHdrError(f"ISO 21496-1 says {name} {list(iso)}, the XMP {list(xmp)}")
    return True


# The file.


@dataclass(frozen=True)
class UltraHdr:
    """An Ultra HDR JPEG taken apart: the primary's JPEG bytes (the file up to the gain map),
    the gain map's, the gain map's metadata and what else a comparison needs from the primary's
    header; `warnings`, inconsistencies a reader gets over (a primary's MPF size that is not
    where its JPEG ends)."""

    primary: bytes
    gain_map: bytes
    metadata: GainMapMetadata
    version: str
    container: bool
    orientation: int
    icc: bytes | None
    size: tuple[int, int]
    gain_map_size: tuple[int, int]
    gain_map_channels: int
    warnings: tuple[str, ...] = ()
    # Whether the gain map carries ISO 21496-1 metadata too (then the same as its XMP's).
    iso21496: bool = False


def read(data: bytes, require_container: bool = True) -> UltraHdr:
    """The Ultra HDR JPEG `data` taken apart and checked; `require_container=False` accepts a
    primary without Google's container directory (Adobe's gain-map JPEGs)."""
    found = segments(data, "the primary")
    mpf = app_segments(found, 0xE2, MPF_SIGNATURE)
    if not mpf:
        raise UltraHdrError('the primary has no MPF segment (APP2 "MPF\\0"): there is no gain map to find')
    base = mpf[0].offset + len(MPF_SIGNATURE)
    entries = mp_entries(mpf[0].payload[len(MPF_SIGNATURE) :])
    if len(entries) < 2:
        raise UltraHdrError(f"MPF: the index holds {len(entries)} picture(s), no gain map")
    primary_entry, gain_entry = entries[0], entries[1]
    if primary_entry.offset != 0:
        raise UltraHdrError(f"MPF: the first entry's offset is {primary_entry.offset}, not 0 (the primary)")
    if primary_entry.size == 0 or primary_entry.size > len(data):
        raise UltraHdrError(f"MPF: the primary's size {primary_entry.size} does not fit the file ({len(data)} bytes)")
    start = base + gain_entry.offset
    end = start + gain_entry.size
    if gain_entry.offset == 0 or gain_entry.size == 0 or end > len(data):
        raise UltraHdrError(
            f"MPF: the gain map's entry (offset {gain_entry.offset} from byte {base}, {gain_entry.size} bytes: "
            f"bytes {start}...{end}) lies outside the file ({len(data)} bytes)"
        )
    if start < primary_entry.size:
        raise UltraHdrError(f"MPF: the gain map starts at byte {start}, inside the primary (0...{primary_entry.size})")
    warnings = []
    primary_end = data.rfind(b"\xff\xd9", 0, start) + 2
    if primary_end != primary_entry.size:
        # Pixel phones' files say less than the primary's length: it is read up to the gain map.
        warnings.append(
            f"MPF: the primary's entry says {primary_entry.size} bytes, its last EOI marker ends at byte {primary_end}"
        )
    gain_map = data[start:end]
    if gain_map[:2] != b"\xff\xd8":
        raise UltraHdrError(
            f"the gain map at byte {start} (MPF entry 2) is not a JPEG: it starts {gain_map[:4].hex(' ')}"
        )
    gain_segments = segments(gain_map, "the gain map")

    root = xmp_root(found, "the primary")
    if root is None:
        raise UltraHdrError("the primary has no XMP (APP1 http://ns.adobe.com/xap/1.0/)")
    version = xmp_values(root, HDRGM, "Version")
    if not version or not version[0]:
        raise UltraHdrError("the primary's XMP has no hdrgm:Version")
    items = container_items(root)
    if items is None and require_container:
        raise UltraHdrError("the primary's XMP has no container directory (Container:Directory)")
    if items is not None:
        _check_directory(items, gain_entry.size)

    gain_root = xmp_root(gain_segments, "the gain map")
    if gain_root is None:
        raise UltraHdrError("the gain map has no XMP (APP1 http://ns.adobe.com/xap/1.0/)")
    metadata = gain_map_metadata(gain_root)
    iso21496 = _check_iso(gain_segments, metadata)
    if iso21496 and not app_segments(found, 0xE2, ISO_SIGNATURE):
        warnings.append("the gain map has ISO 21496-1 metadata, the primary no ISO 21496-1 version segment")
    channels = _components(gain_segments)
    if channels not in (1, 3):
        raise UltraHdrError(f"the gain map has {channels} components, not 1 or 3")
    return UltraHdr(
        primary=data[:start],
        gain_map=gain_map,
        metadata=metadata,
        version=version[0],
        container=items is not None,
        orientation=exif_orientation(found),
        icc=icc_profile(found),
        size=jpeg_size(found, "the primary"),
        gain_map_size=jpeg_size(gain_segments, "the gain map"),
        gain_map_channels=channels,
        warnings=tuple(warnings),
        iso21496=iso21496,
    )


def _check_directory(items: list[dict[str, str]], gain_map_size: int) -> None:
    if not items:
        raise UltraHdrError("the container directory lists no item")
    if items[0].get("Semantic") != "Primary":
        raise UltraHdrError(f"the container directory's first item is {items[0].get('Semantic')!r}, not Primary")
    gain_maps = [item for item in items if item.get("Semantic") == "GainMap"]
    if not gain_maps:
        raise UltraHdrError("the container directory has no GainMap item")
    item = gain_maps[0]
    if item.get("Mime") != "image/jpeg":
        raise UltraHdrError(f"the container directory's GainMap item is of type {item.get('Mime')!r}, not image/jpeg")
    if "Length" not in item:
        raise UltraHdrError("the container directory's GainMap item has no Item:Length")
    try:
        length = int(item["Length"])
    except ValueError as error:
        raise UltraHdrError(f"the GainMap item's Item:Length {item['Length']!r} is not a number") from error
    if length != gain_map_size:
        raise UltraHdrError(
            f"the container directory's GainMap item is {length} bytes long, the MPF entry {gain_map_size}"
        )


def _components(found: list[Segment]) -> int:
    for segment in found:
        if 0xC0 <= segment.marker <= 0xCF and segment.marker not in (0xC4, 0xC8, 0xCC):
            return int(segment.payload[5]) if len(segment.payload) > 5 else 0
    return 0


# Colour: transfer functions and luminance weights.


def srgb_eotf(signal: Array) -> Array:
    """IEC 61966-2-1: the sRGB signal (0...1) to linear light (0...1)."""
    signal = numpy.clip(signal, 0, 1)
    return numpy.where(signal <= 0.04045, signal / 12.92, numpy.power((signal + 0.055) / 1.055, 2.4))


def bt709_inverse_oetf(signal: Array) -> Array:
    """ITU-R BT.709's OETF undone: the signal (0...1) to linear light (0...1)."""
    signal = numpy.clip(signal, 0, 1)
    return numpy.where(signal < 0.081, signal / 4.5, numpy.power((signal + 0.099) / 1.099, 1 / 0.45))


_BRADFORD = numpy.array([[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]])
_D50 = numpy.array([0.9642, 1.0, 0.8249])
_D65 = numpy.array([0.95047, 1.0, 1.08883])


def _s15(data: bytes, count: int) -> list[float]:
    return [value / 65536 for value in struct.unpack(f">{count}i", data[: 4 * count])]


def luminance_weights(icc: bytes | None) -> tuple[float, float, float]:
    """The Y weights of red, green and blue of a matrix ICC profile's colorants (rXYZ, gXYZ,
    bXYZ), adapted back from D50 by its `chad` tag or else Bradford's from D65, summing to 1;
    BT.709's when there is no profile or it is not an RGB matrix profile."""
    if icc is None or len(icc) < 132 or icc[16:20] != b"RGB ":
        return BT709_WEIGHTS
    (count,) = struct.unpack(">I", icc[128:132])
    tags = {}
    for index in range(min(count, (len(icc) - 132) // 12)):
        signature, offset, size = struct.unpack(">4sII", icc[132 + 12 * index : 144 + 12 * index])
        tags[signature] = icc[offset : offset + size]
    colorants = [tags.get(name, b"") for name in (b"rXYZ", b"gXYZ", b"bXYZ")]
    if any(len(tag) < 20 or tag[:4] != b"XYZ " for tag in colorants):
        return BT709_WEIGHTS
    d50 = numpy.array([_s15(tag[8:20], 3) for tag in colorants]).T
    chad = tags.get(b"chad", b"")
    if len(chad) >= 44 and chad[:4] == b"sf32":
        adaptation = numpy.array(_s15(chad[8:44], 9)).reshape(3, 3)
    else:
        scale = numpy.diag((_BRADFORD @ _D50) / (_BRADFORD @ _D65))
        adaptation = numpy.linalg.inv(_BRADFORD) @ scale @ _BRADFORD
    native = numpy.linalg.solve(adaptation, d50)
    weights = native[1] / native[1].sum()
    if not numpy.all(weights > 0):
        return BT709_WEIGHTS
    return float(weights[0]), float(weights[1]), float(weights[2])


def luminance(rgb: Array, weights: tuple[float, float, float]) -> Array:
    """Y of linear RGB (... × 3)."""
    return rgb @ numpy.array(weights, dtype=rgb.dtype)


# Pixels.


def imagecodecs() -> Any:  # noqa: ANN401
    # imagecodecs is installed where the tests' media are made (.build/test-venv), not where the
    # parsing is checked and tested: imported when pixels are decoded; untyped.
    import imagecodecs as codecs

    return codecs


def decode_jpeg(data: bytes, what: str = "the JPEG") -> Array:
    """The JPEG's samples (rows × columns × components, uint8), as imagecodecs' jpeg8_decode
    gives them: no orientation applied."""
    codecs = imagecodecs()
    try:
        pixels = codecs.jpeg8_decode(data)
    except codecs.Jpeg8Error as error:
        raise UltraHdrError(f"{what} cannot be decoded: {error}") from error
    return pixels if pixels.ndim == 3 else pixels[:, :, None]


def resized_bilinear(image: Array, height: int, width: int) -> Array:
    """`image` (rows × columns × channels) resampled bilinearly to height × width, pixel centres
    aligned, edges clamped."""

    def taps(size: int, target: int) -> tuple[Array, Array, Array]:
        position = numpy.clip((numpy.arange(target) + 0.5) * size / target - 0.5, 0, size - 1)
        low = numpy.floor(position).astype(int)
        high = numpy.minimum(low + 1, size - 1)
        return low, high, (position - low).astype(image.dtype)

    top, bottom, down = taps(image.shape[0], height)
    rows = image[top] * (1 - down)[:, None, None] + image[bottom] * down[:, None, None]
    left, right, across = taps(image.shape[1], width)
    return rows[:, left] * (1 - across)[None, :, None] + rows[:, right] * across[None, :, None]


def area_averaged(image: Array, height: int, width: int) -> Array:
    """`image` (rows × columns × channels) reduced to height × width, each pixel the mean of the
    area it covers (fractions of pixels weighed by the part covered), in float64."""

    def along(values: Array, axis: int, target: int) -> Array:
        size = values.shape[axis]
        moved = numpy.moveaxis(values, axis, 0).astype(numpy.float64)
        if size != target:
            # The running sum at a fractional position x: the whole pixels before it and the part of the next.
            sums = numpy.concatenate([numpy.zeros_like(moved[:1]), numpy.cumsum(moved, axis=0)])
            edges = numpy.arange(target + 1) * size / target
            whole = numpy.minimum(numpy.floor(edges).astype(int), size - 1)
            part = (edges - whole).reshape((-1,) + (1,) * (moved.ndim - 1))
            running = sums[whole] + part * moved[whole]
            moved = (running[1:] - running[:-1]) * (target / size)
        return numpy.moveaxis(moved, 0, axis)

    return along(along(image, 0, height), 1, width)


def oriented(image: Array, orientation: int) -> Array:
    """`image` as shown upright under Exif `orientation` (1...8): 2 mirrors it, 3 turns it half
    round, 4 flips it, 5 transposes it, 6 turns it a quarter clockwise, 7 transposes it about the
    other diagonal, 8 turns it a quarter anticlockwise (numpy views, no copy)."""
    shown = {
        1: image,
        2: image[:, ::-1],
        3: image[::-1, ::-1],
        4: image[::-1],
        5: image.swapaxes(0, 1),
        6: numpy.rot90(image, -1),
        7: numpy.rot90(image, 2).swapaxes(0, 1),
        8: numpy.rot90(image, 1),
    }
    return shown[orientation]


def recovered(sdr: Array, gain: Array, metadata: GainMapMetadata, weight: float = 1.0) -> Array:
    """The HDR linear RGB of the format's recovery: `sdr` linear (rows × columns × 3, 1.0 SDR
    white), `gain` the gain map's values (0...1, rows × columns × 1 or 3, any size)."""
    height, width = sdr.shape[:2]
    gain = resized_bilinear(gain.astype(sdr.dtype), height, width)
    channels = []
    for c in range(3):
        g = numpy.power(gain[:, :, c if gain.shape[2] == 3 else 0], 1 / metadata.channel("Gamma", c))
        low, high = metadata.channel("GainMapMin", c), metadata.channel("GainMapMax", c)
        log_boost = low * (1 - g) + high * g
        offset_sdr, offset_hdr = metadata.channel("OffsetSDR", c), metadata.channel("OffsetHDR", c)
        channels.append((sdr[:, :, c] + offset_sdr) * numpy.exp2(log_boost * weight) - offset_hdr)
    return numpy.stack(channels, axis=2)


@dataclass(frozen=True)
class Reconstruction:
    """A picture's linear light in its stored orientation: the SDR primary's and the HDR one's
    (rows × columns × 3, 1.0 the SDR white), and the Y weights of its primaries."""

    sdr: Array
    hdr: Array
    weights: tuple[float, float, float]

    @property
    def hdr_luminance(self) -> Array:
        return luminance(self.hdr, self.weights)

    @property
    def sdr_luminance(self) -> Array:
        return luminance(self.sdr, self.weights)


def srgb_linear(pixels: Array, dtype: str = "float32") -> Array:
    """Decoded sRGB samples (uint8 or uint16) as linear light (0...1): `srgb_eotf` by a table."""
    levels = 255 if pixels.dtype == numpy.uint8 else 65535
    table = srgb_eotf(numpy.arange(levels + 1, dtype=numpy.float64) / levels).astype(dtype)
    return table[pixels]


def codes(pixels: Array, dtype: str = "float32") -> Array:
    """Decoded samples (uint8 or uint16) as signal values 0...1."""
    return pixels.astype(dtype) / (255 if pixels.dtype == numpy.uint8 else 65535)


def rgb(pixels: Array, what: str) -> Array:
    """Decoded samples as three channels (a grey picture's repeated)."""
    if pixels.shape[2] == 1:
        return numpy.repeat(pixels, 3, axis=2)
    if pixels.shape[2] != 3:
        raise UltraHdrError(f"{what} has {pixels.shape[2]} components, not 1 or 3")
    return pixels


def reconstruct(picture: UltraHdr, dtype: str = "float32") -> Reconstruction:
    """The SDR and HDR linear light of an Ultra HDR JPEG, in its stored orientation."""
    primary = rgb(decode_jpeg(picture.primary, "the primary"), "the primary")
    gain = decode_jpeg(picture.gain_map, "the gain map")
    sdr = srgb_linear(primary, dtype)
    return Reconstruction(sdr, recovered(sdr, codes(gain, dtype), picture.metadata), luminance_weights(picture.icc))


def headroom_stops(metadata: GainMapMetadata) -> float:
    """The largest of HDRCapacityMax: the display headroom (log2) the full boost is meant for."""
    return max(metadata.hdr_capacity_max)


def stops(measured: Array, reference: Array, floor: float = 1 / 64) -> tuple[int, float, float, Array]:
    """|log2(measured / reference)| where `reference` ≥ `floor` (of SDR white): how many values,
    their mean and maximum, and the values themselves (a `measured` ≤ 0 counts as 10⁻⁶)."""
    lit = reference >= floor
    errors = numpy.abs(numpy.log2(numpy.maximum(measured[lit], 1e-6) / reference[lit]))
    if not errors.size:
        return 0, 0.0, 0.0, errors
    return int(errors.size), float(errors.mean()), float(errors.max()), errors


def fits(size: tuple[int, int], reference: tuple[int, int]) -> bool:
    """Whether a picture of `size` (width, height) can be an aspect-fit scaling of one of
    `reference`: each side the other's ratio of it, to a pixel's rounding."""
    (width, height), (full_width, full_height) = size, reference
    return abs(width * full_height - height * full_width) <= full_width + full_height


# Apple's HDR gain map (an iPhone HEIC).


def apple_headroom_stops(maker33: float, maker48: float) -> float:
    """The stops of headroom of Apple's MakerNote tags 33 (0x21, exiftool's HDRHeadroom) and 48
    (0x30, HDRGain), as "Applying Apple HDR effect to your photos" computes them, at least 0."""
    if maker33 < 1.0:
        value = -20.0 * maker48 + 1.8 if maker48 <= 0.01 else -0.101 * maker48 + 1.601
    else:
        value = -70.0 * maker48 + 3.0 if maker48 <= 0.01 else -0.303 * maker48 + 2.303
    return max(value, 0.0)


def gamma22(signal: Array) -> Array:
    """A pure 2.2 gamma: the signal (0...1) to linear light."""
    return numpy.power(numpy.clip(signal, 0, 1), 2.2)


GAIN_TRANSFERS = {
    # Apple's document: the gain map is "encoded using the Rec.709 transfer function".
    "rec709": bt709_inverse_oetf,
    "srgb": srgb_eotf,
    "gamma2.2": gamma22,
}


def apple_hdr(sdr: Array, gain: Array, headroom: float, transfer: str = "rec709") -> Array:
    """Apple's HDR: sdr × (1 + (headroom − 1) × gain), `sdr` linear (rows × columns × 3), `gain`
    the gain map's signal (0...1, rows × columns × 1, any size), made linear by `transfer` (a key
    of GAIN_TRANSFERS) and upsampled bilinearly."""
    linear = GAIN_TRANSFERS[transfer](gain.astype(sdr.dtype)).astype(sdr.dtype)
    linear = resized_bilinear(linear, sdr.shape[0], sdr.shape[1])
    return sdr * (1 + (headroom - 1) * linear)


@dataclass(frozen=True)
class HeifGainMap:
    """What a HEIC's boxes say of its Apple gain map: the primary item's and the gain map item's
    transforms (("irot", quarter turns anticlockwise) or ("imir", axis), in their order) and the
    primary's ICC profile."""

    primary: int
    gain_map: int
    primary_transforms: tuple[tuple[str, int], ...]
    gain_map_transforms: tuple[tuple[str, int], ...]
    icc: bytes | None


def heif_gain_map_layout(data: bytes) -> HeifGainMap:
    """The primary item of a HEIC and its `auxl`-referenced Apple gain map item."""
    try:
        meta = children(child(children(data), b"meta"), 4)
        pitm = child(meta, b"pitm")
        (primary,) = struct.unpack(">H", pitm[4:6]) if pitm[0] == 0 else struct.unpack(">I", pitm[4:8])
        iref = child(meta, b"iref")
        wide = iref[0] != 0
        auxiliary = []
        for kind, payload in children(iref, 4):
            size = 4 if wide else 2
            source = int.from_bytes(payload[:size], "big")
            count = int.from_bytes(payload[size : size + 2], "big")
            targets = [
                int.from_bytes(payload[size + 2 + size * i : size + 2 + size * (i + 1)], "big") for i in range(count)
            ]
            if kind == b"auxl" and primary in targets:
                auxiliary.append(source)
        properties_box = children(child(meta, b"iprp"))
        properties = children(child(properties_box, b"ipco"))
        ipma = child(properties_box, b"ipma")

        def item_properties(item: int) -> list[tuple[bytes, bytes]]:
            return [properties[index] for index, _ in associations(ipma, item)]

        gain_map = None
        for item in auxiliary:
            for kind, payload in item_properties(item):
                if kind == b"auxC" and payload[4:].split(b"\0")[0].decode(errors="replace") == APPLE_GAIN_MAP:
                    gain_map = item
        if gain_map is None:
            raise UltraHdrError(f"the HEIC has no auxiliary picture of type {APPLE_GAIN_MAP} for its primary")

        def transforms(item: int) -> tuple[tuple[str, int], ...]:
            found = []
            for kind, payload in item_properties(item):
                if kind == b"irot":
                    found.append(("irot", payload[0] & 3))
                elif kind == b"imir":
                    found.append(("imir", payload[0] & 1))
            return tuple(found)

        icc = None
        for kind, payload in item_properties(primary):
            if kind == b"colr" and payload[:4] in (b"prof", b"rICC"):
                icc = payload[4:]
        return HeifGainMap(primary, gain_map, transforms(primary), transforms(gain_map), icc)
    except (HeifLayoutError, struct.error, IndexError) as error:
        raise UltraHdrError(f"the HEIC's boxes cannot be read: {error}") from error


def transformed(image: Array, transforms: tuple[tuple[str, int], ...]) -> Array:
    """`image` with HEIF transforms applied in order: `irot` turns anticlockwise by quarter turns,
    `imir` mirrors about a vertical axis (0: left and right swap) or a horizontal one (1)."""
    for kind, value in transforms:
        if kind == "irot":
            image = numpy.rot90(image, value)
        else:
            image = image[:, ::-1] if value == 0 else image[::-1]
    return image


# Writing: the layout `read` takes, for tests.


def _segment(marker: int, payload: bytes) -> bytes:
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def _xmp(attributes: dict[str, str], elements: str = "", namespaces: str = "") -> bytes:
    written = "".join(f' {name}="{value}"' for name, value in attributes.items())
    packet = (
        f'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="{RDF}">'
        f'<rdf:Description rdf:about="" xmlns:hdrgm="{HDRGM}"{namespaces}{written}>{elements}</rdf:Description>'
        "</rdf:RDF></x:xmpmeta>"
    )
    return _segment(0xE1, XMP_SIGNATURE + packet.encode())


def gain_map_xmp(metadata: Mapping[str, Sequence[float]], as_elements: bool = False, version: str = "1.0") -> bytes:
    """An APP1 XMP segment of a gain map's hdrgm: fields (named as in DEFAULTS), each a single
    value or three; as attributes, or as elements (three values always an rdf:Seq)."""
    attributes = {"hdrgm:Version": version}
    elements = ""
    for name, values in metadata.items():
        if as_elements or len(values) != 1:
            items = "".join(f"<rdf:li>{value!r}</rdf:li>" for value in values)
            elements += f"<hdrgm:{name}><rdf:Seq>{items}</rdf:Seq></hdrgm:{name}>"
        else:
            attributes[f"hdrgm:{name}"] = repr(values[0])
    return _xmp(attributes, elements)


def primary_xmp(gain_map_length: int | None, version: str = "1.0") -> bytes:
    """An APP1 XMP segment of a primary: hdrgm:Version and, unless `gain_map_length` is None,
    the container directory of the primary and a gain map of that length."""
    if gain_map_length is None:
        return _xmp({"hdrgm:Version": version})
    item = '<rdf:li rdf:parseType="Resource"><Container:Item Item:Semantic="{}" Item:Mime="image/jpeg"{}/></rdf:li>'
    directory = (
        "<Container:Directory><rdf:Seq>"
        + item.format("Primary", "")
        + item.format("GainMap", f' Item:Length="{gain_map_length}"')
        + "</rdf:Seq></Container:Directory>"
    )
    namespaces = f' xmlns:Container="{CONTAINER}" xmlns:Item="{ITEM}"'
    return _xmp({"hdrgm:Version": version}, directory, namespaces)


def mpf_segment(primary_size: int, gain_map_size: int, gain_map_offset: int, order: str = ">") -> bytes:
    """An APP2 MPF segment (90 bytes) indexing a primary and a gain map `gain_map_offset` bytes
    after the segment's byte-order mark; `order` "<" (II) or ">" (MM)."""
    mark = b"II" if order == "<" else b"MM"
    entries = [(0xB000, 7, 4, b"0100"), (0xB001, 4, 1, struct.pack(order + "I", 2))]
    entries.append((0xB002, 7, 32, struct.pack(order + "I", 50)))
    ifd = struct.pack(order + "H", len(entries))
    ifd += b"".join(struct.pack(order + "HHI", tag, kind, count) + value for tag, kind, count, value in entries)
    ifd += struct.pack(order + "I", 0)
    index = struct.pack(order + "IIIHH", 0x030000, primary_size, 0, 0, 0)
    index += struct.pack(order + "IIIHH", 0, gain_map_size, gain_map_offset, 0, 0)
    return _segment(0xE2, MPF_SIGNATURE + mark + struct.pack(order + "HI", 42, 8) + ifd + index)


def assembled(
    primary: bytes,
    gain_map: bytes,
    metadata: Mapping[str, Sequence[float]],
    order: str = ">",
    container: bool = True,
    as_elements: bool = False,
) -> bytes:
    """An Ultra HDR JPEG of two plain JPEGs (SOI first) and the gain map's hdrgm: fields: each
    given its XMP after its SOI, the primary an MPF index; without Google's container directory
    when `container` is False (as Adobe writes them)."""
    gain = gain_map[:2] + gain_map_xmp(metadata, as_elements) + gain_map[2:]
    header = primary_xmp(len(gain) if container else None)
    # The MPF segment's byte-order mark: after SOI, the XMP, the segment's marker, length and MPF\0.
    mark = 2 + len(header) + 4 + len(MPF_SIGNATURE)
    size = len(primary) + len(header) + len(mpf_segment(0, 0, 0))
    return primary[:2] + header + mpf_segment(size, len(gain), size - mark, order) + primary[2:] + gain
