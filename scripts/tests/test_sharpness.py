"""bench-sharpness: the measures of detail and level difference, the goal, a fill's geometry."""

from typing import Any

import pytest

from thumbs_tools.bench.sharpness import (
    detail_ratio,
    fill_geometry,
    laplacian_energy,
    level_difference,
    luma,
    meets_goal,
)

numpy = pytest.importorskip("numpy")


def grey(rows: list[list[float]]) -> Any:
    """An H×W×3 picture whose three channels are `rows`."""
    return numpy.repeat(numpy.asarray(rows, dtype=numpy.float64)[..., None], 3, axis=2)


def test_luma_weighs_the_channels_as_pillow() -> None:
    picture = numpy.zeros((1, 3, 3))
    picture[0, 0, 0], picture[0, 1, 1], picture[0, 2, 2] = 255, 255, 255
    assert luma(picture)[0].tolist() == pytest.approx([0.299 * 255, 0.587 * 255, 0.114 * 255])


def test_laplacian_energy_is_zero_on_flat_and_linear_pictures() -> None:
    assert laplacian_energy(numpy.full((5, 5), 77.0)) == 0
    ramp = numpy.tile(numpy.arange(6, dtype=numpy.float64) * 10, (4, 1))
    assert laplacian_energy(ramp) == 0
    assert laplacian_energy(numpy.ones((2, 9))) == 0  # no inner pixel


def test_laplacian_energy_of_one_bright_pixel() -> None:
    picture = numpy.zeros((3, 3))
    picture[1, 1] = 1
    assert laplacian_energy(picture) == 16  # the one inner pixel: (-4)²


def test_detail_ratio_of_a_blurred_checkerboard_is_below_one() -> None:
    checker = grey([[255.0 * ((x + y) % 2) for x in range(8)] for y in range(8)])
    blurred = 0.5 * checker + 0.5 * 127.5
    assert detail_ratio(checker, checker) == 1
    assert detail_ratio(blurred, checker) == pytest.approx(0.25)
    assert detail_ratio(checker, blurred) == pytest.approx(4)
    flat = grey([[9.0] * 4] * 4)
    assert detail_ratio(flat, flat) == 1


def test_level_difference_is_the_mean_absolute_difference() -> None:
    a = grey([[10.0, 20.0], [30.0, 40.0]])
    b = grey([[12.0, 18.0], [30.0, 40.0]])
    assert level_difference(a, b) == pytest.approx(1.0)
    assert level_difference(b, a) == pytest.approx(1.0)


def test_the_goal_is_at_least_nine_tenths_of_the_detail_within_three_levels() -> None:
    assert meets_goal(0.9, 3.0)
    assert meets_goal(1.4, 0.2)
    assert not meets_goal(0.89, 1.0)
    assert not meets_goal(1.0, 3.01)


def test_a_fill_covers_the_box_and_crops_whole_pixels_at_the_centre() -> None:
    assert fill_geometry((400, 200), (100, 100)) == ((200, 100), (50, 0))
    assert fill_geometry((200, 400), (100, 100)) == ((100, 200), (0, 50))
    assert fill_geometry((512, 341), (256, 256)) == ((384, 256), (64, 0))
    assert fill_geometry((320, 235), (235, 235)) == ((320, 235), (42, 0))
