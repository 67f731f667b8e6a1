"""Reading a JPEG's size from its start-of-frame marker."""

import pytest
from jpeg_bytes import jpeg

from thumbs_tools.jpeg import complete_jpeg_size, jpeg_size


@pytest.mark.parametrize("frame", [0xC0, 0xC1, 0xC2, 0xCF])
def test_the_size_comes_from_the_first_frame(frame: int) -> None:
    assert jpeg_size(jpeg(1024, 683, frame)) == (1024, 683)


def test_what_is_not_a_jpeg_has_no_size() -> None:
    assert jpeg_size(b"\x89PNG\r\n\x1a\n" + bytes(40)) is None
    assert jpeg_size(b"\xff\xd8\x00\x00" + bytes(40)) is None


def test_a_frame_of_zero_size_has_no_size() -> None:
    assert jpeg_size(jpeg(0, 683)) is None


def test_a_complete_jpeg_ends_with_its_end_marker() -> None:
    assert complete_jpeg_size(jpeg(256, 256)) == (256, 256)
    assert complete_jpeg_size(jpeg(256, 256, end=False)) is None
