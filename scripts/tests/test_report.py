"""The forms of the reports: tables, target lines, warnings."""

from thumbs_tools.report import Target, markdown_table, noisy_runs_warning


def test_markdown_table_aligns_the_first_column_left_and_the_rest_right() -> None:
    table = markdown_table(["tool", "images/s"], [["thumbs", 12.5], ["pillow", 7]])
    assert table == "| tool | images/s |\n|---|---:|\n| thumbs | 12.5 |\n| pillow | 7 |"


def test_markdown_table_takes_an_alignment_per_column() -> None:
    table = markdown_table(["a", "b", "c"], [["1", "2", ""]], ["r", "l", "r"])
    assert table.splitlines()[1:] == ["|---:|---|---:|", "| 1 | 2 |  |"]


def test_a_target_is_met_at_its_goal_and_above() -> None:
    assert Target("x", 1.5, 1.5).met
    assert not Target("x", 1.49, 1.5).met


def test_a_target_line_says_whether_it_was_met() -> None:
    assert Target("Thumbs ≥ 2× peer", 2.345, 2.0).line() == "- met: Thumbs ≥ 2× peer: 2.35× (goal 2×)"
    assert Target("Thumbs ≥ 1.5× peer", 1.2, 1.5).line() == "- MISSED: Thumbs ≥ 1.5× peer: 1.20× (goal 1.5×)"


def test_a_target_in_json_has_its_verdict() -> None:
    assert Target("t", 3.0, 2.0).json() == {"target": "t", "ratio": 3.0, "goal": 2.0, "met": True}


def test_a_quiet_run_gets_no_warning() -> None:
    assert noisy_runs_warning(0.01) == ""
    assert noisy_runs_warning(0.3).startswith("\n\n**Warning:** other processes took up to 30% of the machine")
