"""Whether a traced run used only the Debian packages its scripts declared.

    python3 -m thumbs_tools.package_check TRACE MARKS [--requirements scripts/requirements.tsv]

TRACE is strace's output of the run and MARKS the folder `require` marked needs in
(scripts/check-packages makes both). Every file a process opened or ran is mapped to the Debian
package that ships it (dpkg's file lists; files no package ships, as the toolchain's, the
repository's or a virtual environment's, are not packages' and are left out). A package is
allowed to a process when it is Essential or of required priority (on every Debian system), is
one of the list's optional ones (read where installed, needed by none), or comes with a package
that the needs the process ran under take in scripts/requirements.tsv: the package, its Depends,
Pre-Depends and Recommends, recursively (what `apt-get install` of it installs). Any other
package used is a finding (a file in one of the list's scanned folders, which programs read
whole, is no use of its package): a script relies on it being installed, and on a machine where nothing
else installed it, the script fails. Exits 1 on a finding.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from .package_trace import Usage, usage

DPKG_INFO = Path("/var/lib/dpkg/info")
# Merged /usr: dpkg's lists name files where packages put them (/lib/…), which are below /usr.
MERGED = ("/lib/", "/lib64/", "/bin/", "/sbin/", "/libx32/", "/lib32/")


def merged(path: str) -> str:
    """`path` with merged /usr's folders named below /usr."""
    return "/usr" + path if path.startswith(MERGED) else path


def requirement_lines(text: str, source: str) -> Iterator[tuple[list[str], str]]:
    """The (needs, package) of each line of scripts/requirements.tsv's text from `source`."""
    for line in text.splitlines():
        fields = line.split("\t")
        if not line.startswith("#") and len(fields) >= 3 and fields[1] == source:
            yield fields[0].split(","), fields[2]


def scanned_folders(text: str) -> tuple[str, ...]:
    """The folders of scripts/requirements.tsv's `scanned` lines (merged /usr): programs read
    every file in them because it is there, so a file read there shows no use of its package."""
    return tuple(merged(folder.rstrip("/") + "/") for _, folder in requirement_lines(text, "scanned"))


def declared_needs(text: str, source: str = "debian") -> dict[str, set[str]]:
    """The Debian packages each need takes, from scripts/requirements.tsv's text (`source`
    optional: the packages allowed to every script, under the need *)."""
    needs: dict[str, set[str]] = {}
    for line_needs, package in requirement_lines(text, source):
        for need in line_needs:
            needs.setdefault(need, set()).add(package)
    return needs


def owners_from_lists(lists: Iterable[tuple[str, str]]) -> dict[str, str]:
    """File path (merged /usr) -> package, from (package, list text) pairs of dpkg's file lists."""
    owners: dict[str, str] = {}
    for package, text in lists:
        for path in text.splitlines():
            owners.setdefault(merged(path), package)
    return owners


def dpkg_owners(info: Path = DPKG_INFO) -> dict[str, str]:
    """File path -> package, for every package installed."""
    return owners_from_lists(
        (entry.name.removesuffix(".list").split(":")[0], entry.read_text(errors="replace"))
        for entry in info.glob("*.list")
    )


def depends_closure(output: str) -> set[str]:
    """The packages `apt-cache depends --recurse` printed: those recursed into (a line each) and
    the targets and providers under their dependencies (virtual ones in <>, `:any` dropped)."""
    packages = set()
    for line in output.splitlines():
        name = line.strip().lstrip("|")
        if ":" in name and " " in name:  # "Depends: target"
            name = name.split(":", 1)[1].strip()
        name = name.strip("<>").split(":")[0]
        if name:
            packages.add(name)
    return packages


def apt_closure(packages: Iterable[str]) -> set[str]:
    """`packages` with what installing them installs, as far as it is installed here."""
    names = sorted(packages)
    if not names:
        return set()
    excluded = ["--no-suggests", "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances"]
    result = subprocess.run(
        ["apt-cache", "depends", "--recurse", "--installed", *excluded, *names],
        capture_output=True,
        text=True,
        check=True,
    )
    return depends_closure(result.stdout) | set(names)


def baseline_packages() -> set[str]:
    """Debian's Essential and required packages installed here, with their dependencies."""
    result = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Package}\t${Essential}\t${Priority}\t${db:Status-Abbrev}\n"],
        capture_output=True,
        text=True,
        check=True,
    )
    base = set()
    for line in result.stdout.splitlines():
        package, essential, priority, status = [*line.split("\t"), "", "", ""][:4]
        if status.startswith("ii") and (essential == "yes" or priority == "required"):
            base.add(package)
    return apt_closure(base)


@dataclass(frozen=True)
class Finding:
    """A package a script used that its needs do not install."""

    script: str
    needs: frozenset[str]
    package: str
    path: str
    program: str

    def line(self) -> str:
        needs = ", ".join(sorted(self.needs)) or "none declared"
        where = self.script or "the command itself"
        return (
            f"{where} (needs: {needs}) uses {self.package}, which no need of it installs: "
            f"{self.path} (by {self.program or 'its process'})"
        )


class PackageJudge:
    """Decides, per set of needs, which packages are allowed, and finds the uses that are not."""

    def __init__(
        self,
        needs: Mapping[str, set[str]],
        owners: Mapping[str, str],
        baseline: set[str],
        scanned: tuple[str, ...] = (),
    ) -> None:
        self.needs = needs
        self.owners = owners
        self.baseline = baseline
        self.scanned = scanned
        self.closures: dict[str, set[str]] = {}

    def allowed(self, needs: frozenset[str]) -> set[str]:
        """The packages a process under `needs` may use."""
        allowed = set(self.baseline)
        for need in needs:
            if need not in self.closures:
                self.closures[need] = apt_closure(self.needs.get(need, set()))
            allowed |= self.closures[need]
        return allowed

    def owner(self, path: str) -> str | None:
        """The package that ships the file `path` (followed through links), if one does."""
        real = os.path.realpath(path)
        if not os.path.isfile(real) or merged(real).startswith(self.scanned) or merged(path).startswith(self.scanned):
            return None
        return self.owners.get(merged(real)) or self.owners.get(merged(path))

    def findings(self, used: Usage) -> list[Finding]:
        """Each package used and not allowed, once per script, with the first file that showed it."""
        found: dict[tuple[str, str], Finding] = {}
        for needs, paths in used.by_needs.items():
            allowed = self.allowed(needs)
            for path, (script, program) in sorted(paths.items()):
                package = self.owner(path)
                if package is not None and package not in allowed and (script, package) not in found:
                    found[(script, package)] = Finding(script, needs, package, path, program)
        return sorted(found.values(), key=lambda finding: (finding.script, finding.package))


def main() -> None:
    """Judges a trace; exits 1 on a finding."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace", type=Path, help="strace's output")
    parser.add_argument("marks", help="the folder require marked needs in")
    requirements = Path(__file__).resolve().parent.parent / "requirements.tsv"
    parser.add_argument("--requirements", type=Path, default=requirements, help="the declared list")
    arguments = parser.parse_args()
    with arguments.trace.open(errors="replace") as lines:
        used = usage(lines, arguments.marks)
    requirements = arguments.requirements.read_text()
    optional = {package for _, package in requirement_lines(requirements, "optional")}
    judge = PackageJudge(
        declared_needs(requirements), dpkg_owners(), baseline_packages() | optional, scanned_folders(requirements)
    )
    findings = judge.findings(used)
    files = sum(len(paths) for paths in used.by_needs.values())
    for finding in findings:
        print(f"check-packages: FAIL: {finding.line()}", file=sys.stderr)
    summary = f"{used.processes} processes, {used.marks} needs declared, {files} files used"
    if findings:
        sys.exit(
            f"check-packages: {len(findings)} use(s) of packages that {arguments.requirements.name} "
            f"does not install for the script that used them ({summary}): add each to the script's needs"
        )
    print(f"check-packages: ok: every Debian package used comes with the needs declared ({summary})", file=sys.stderr)


if __name__ == "__main__":
    main()
