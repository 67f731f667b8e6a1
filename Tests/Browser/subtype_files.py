"""Files of photo subtypes the grid test copies into its library, made here from a plain JPEG:
a Google motion photo and an iPhone burst's frame."""

from __future__ import annotations

import subprocess
from pathlib import Path


def motion_photo(still: Path, work: Path) -> bytes:
    """A Google motion photo: `still` with the XMP packet of the Motion Photo format and two
    seconds of H.264 appended (made by the ffmpeg command)."""
    movie = work / "motion.mp4"
    subprocess.run(
        [
            "ffmpeg",
            "-v",
            "error",
            "-y",
            "-f",
            "lavfi",
            "-i",
            "testsrc=size=320x240:rate=15",
            "-t",
            "2",
            "-c:v",
            "libx264",
            "-pix_fmt",
            "yuv420p",
            "-movflags",
            "+faststart",
            movie,
        ],
        check=True,
        timeout=60,
    )
    length = movie.stat().st_size
    packet = (
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        '<rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"'
        ' xmlns:Container="http://ns.google.com/photos/1.0/container/"'
        ' xmlns:Item="http://ns.google.com/photos/1.0/container/item/"'
        ' GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1" GCamera:MotionPhotoPresentationTimestampUs="0">'
        "<Container:Directory><rdf:Seq>"
        '<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary"'
        ' Item:Length="0" Item:Padding="0"/></rdf:li>'
        '<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto"'
        f' Item:Length="{length}"/></rdf:li>'
        "</rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>"
    ).encode()
    payload = b"http://ns.adobe.com/xap/1.0/\0" + packet
    jpeg = still.read_bytes()
    segment = b"\xff\xe1" + (len(payload) + 2).to_bytes(2, "big") + payload
    return jpeg[:2] + segment + jpeg[2:] + movie.read_bytes()


def burst_frame(still: Path, burst: str) -> bytes:
    """`still` as an iPhone writes a burst's frame: EXIF with Make "Apple" and an Apple MakerNote
    holding BurstUUID (tag 0x000B), built here as exiftool writes no MakerNote from nothing."""

    def entry(tag: int, kind: int, count: int, value: int) -> bytes:
        return b"".join(n.to_bytes(w, "big") for n, w in ((tag, 2), (kind, 2), (count, 4), (value, 4)))

    text = burst.encode() + b"\0"
    note = b"Apple iOS\0\0\1MM\0\1" + entry(0x000B, 2, len(text), 14 + 2 + 12 + 4) + bytes(4) + text
    make = b"Apple\0"
    make_at = 8 + 2 + 2 * 12 + 4
    exif_at = make_at + len(make)
    tiff = b"MM\0\x2a\0\0\0\x08\0\x02" + entry(0x010F, 2, len(make), make_at) + entry(0x8769, 4, 1, exif_at)
    tiff += bytes(4) + make + b"\0\x01" + entry(0x927C, 7, len(note), exif_at + 2 + 12 + 4) + bytes(4) + note
    payload = b"Exif\0\0" + tiff
    jpeg = still.read_bytes()
    return jpeg[:2] + b"\xff\xe1" + (len(payload) + 2).to_bytes(2, "big") + payload + jpeg[2:]
