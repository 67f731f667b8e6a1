"""The runner: the commands it builds, what it reads in /proc, and a run of a real command."""

import os
import sys
from pathlib import Path

import pytest

from thumbs_tools import runner


def test_parallel_shell_commands_execs_each_command_on_every_core(tmp_path: Path) -> None:
    items = tmp_path / "items"
    command = runner.parallel_shell_commands(["vipsthumbnail a.jpg", "vipsthumbnail 'b c.jpg'"], items)
    assert command == ["xargs", "-0", "-a", str(items), "-n", "1", "-P", str(runner.cores()), "sh", "-c"]
    assert items.read_bytes() == b"exec vipsthumbnail a.jpg\0exec vipsthumbnail 'b c.jpg'\0"


def test_commands_that_cannot_be_execed_end_in_a_plain_failure() -> None:
    items = runner.shell_items(["exiftool -b x.crw | vipsthumbnail stdin"], exec_each=False)
    assert items == b"exiftool -b x.crw | vipsthumbnail stdin || exit 1\0"


def test_parallel_shell_commands_runs_every_command(tmp_path: Path) -> None:
    commands = [f"touch {tmp_path / str(n)}" for n in range(5)]
    result = runner.run(runner.parallel_shell_commands(commands, tmp_path / "items"))
    assert result.returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "items") == ["0", "1", "2", "3", "4"]


def test_run_gives_the_exit_status_the_output_and_a_memory_figure() -> None:
    code = "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"
    result = runner.run([sys.executable, "-c", code], env={"THUMBS_TOOLS_TEST": "1"})
    assert (result.returncode, result.stdout, result.stderr) == (3, "out\n", "err\n")
    assert result.peak_rss > 0  # at least the root's own high-water mark from wait4


def test_run_passes_the_environment_it_adds() -> None:
    result = runner.run(
        [sys.executable, "-c", "import os; print(os.environ['THUMBS_TOOLS_TEST'])"], env={"THUMBS_TOOLS_TEST": "x"}
    )
    assert result.stdout == "x\n"


def test_parent_and_cpu_ticks_are_read_after_the_command_name() -> None:
    # The command name may hold spaces and parentheses.
    stat = "4242 (a (b) c) S 17 4242 4242 0 -1 4194560 100 0 0 0 250 31 0 0 20 0 1 0 1000 0 0"
    assert runner.parent_of_stat(stat) == 17
    assert runner.cpu_ticks_of_stat(stat) == 281


def test_status_bytes_reads_a_field_in_kilobytes() -> None:
    status = ["Name:\tthumbs\n", "VmHWM:\t  2048 kB\n", "VmRSS:\t  1024 kB\n", "RssAnon:\t 512 kB\n"]
    assert runner.status_bytes(status, "VmRSS") == 1024 * 1024
    assert runner.status_bytes(status, "RssAnon") == 512 * 1024
    assert runner.status_bytes(status, "RssFile") is None


def test_this_process_is_among_its_parents_children() -> None:
    assert os.getpid() in runner.children(os.getppid())


def test_status_field_of_an_ended_process_is_none() -> None:
    # Pid numbers stop below 2^22 on Linux.
    assert runner.status_field(1 << 23, "VmRSS") is None


def test_noise_is_the_share_of_the_machine_beyond_the_clock_slack() -> None:
    # 1.03 s of other CPU over 10 s on 2 cores: 1 s beyond the slack, 5 % of the machine.
    assert runner.noise_share(1.03, 10.0, 2) == pytest.approx(0.05)
    assert runner.noise_share(0.01, 10.0, 2) == 0.0


def test_a_noisy_run_is_flagged() -> None:
    assert runner.noise_warning(runner.NOISY) == ""
    assert runner.noise_warning(0.2) == " (other processes took 20% of the machine: not a clean measurement)"


def test_run_times_a_command_to_its_exit_not_to_the_next_sample() -> None:
    # `true` ends in about a millisecond; a wall time ending on the next memory sample would be
    # at least SAMPLE_INTERVAL. The shortest of a few runs leaves out a busy machine's delays.
    assert min(runner.run(["true"]).wall for _ in range(5)) < runner.SAMPLE_INTERVAL
