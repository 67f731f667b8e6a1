"""Checks that the package graph is the architecture: every module a Swift target imports is one
it declares in Package.swift.

The targets and their dependencies come from `swift package dump-package` (the manifest as
SwiftPM evaluates it); the imports from the target's .swift files. A dependency on a target of
the package counts by the target's name, one on a product of another package by the product's
name. The toolchain's own modules (Foundation, Glibc, Dispatch, XCTest, Testing…) need no
declaration.

    python3 -m thumbs_tools.package_graph [PACKAGE_DIR...]    (default: the repository)

prints each import that is not declared, with where it is, and each target that must link no
codec but reaches one through its dependencies (the store, the renderer seam and the layers above
it, with their tests and test programs), and exits 1 when there is one.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .paths import REPOSITORY

# What the Swift toolchain and the C library bring, which no manifest declares.
TOOLCHAIN_MODULES = frozenset(
    {
        "Swift",
        "_Concurrency",
        "_StringProcessing",
        "_Volatile",
        "Cxx",
        "CxxStdlib",
        "Distributed",
        "Observation",
        "RegexBuilder",
        "Synchronization",
        "Foundation",
        "FoundationEssentials",
        "FoundationInternationalization",
        "FoundationNetworking",
        "FoundationXML",
        "CoreFoundation",
        "Dispatch",
        "Glibc",
        "Musl",
        "Darwin",
        "Android",
        "WinSDK",
        "XCTest",
        "Testing",
    }
)

_IMPORT = re.compile(
    r"^\s*(?:@[\w]+(?:\([^)]*\))?\s+)*"  # attributes: @testable, @preconcurrency, @_exported…
    r"(?:(?:public|package|internal|fileprivate|private)\s+)?"  # access-level imports
    r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?"  # import kind X.y
    r"([A-Za-z_]\w*)"
)
# The targets that must build without a codec: the store is the vocabulary of ThumbsCore and
# LMDB, and its tests and test programs prove it by linking nothing else; the layers above the
# renderer seam (ThumbsRendering) know images only through it, imaging being plugged in where
# the factory and the command assemble Thumbs; their tests render with ThumbsTesting's
# InMemoryRenderer.
CODEC_FREE = (
    "ThumbsStore",
    "ThumbsStoreTests",
    "thumbs-store-worker",
    "thumbs-journal-fault",
    "ThumbsRendering",
    "ThumbsRenderingTests",
    "ThumbsLibrary",
    "ThumbsLibraryTests",
    "ThumbsPipeline",
    "ThumbsPipelineTests",
    "ThumbsFreedesktop",
    "ThumbsFreedesktopTests",
    "ThumbsSettings",
    "ThumbsServer",
    "ThumbsServerTests",
    "ThumbsTesting",
    "ThumbsTestingTests",
)
# Every target that decodes or encodes pixels, or links a library that does.
CODECS = frozenset(
    {
        "ThumbsImaging",
        "ThumbsIsolation",
        "CVips",
        "CVipsShim",
        "CFFmpeg",
        "CVideoShim",
        "CToneMap",
        "CLibRaw",
        "CRawShim",
        "CHeif",
        "CHeifShim",
        "CAvif",
        "CAvifShim",
        "CJpegShim",
        "CResample",
        "CPNGEncoder",
    }
)

_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)


@dataclass(frozen=True)
class Import:
    """A module a file imports, and where."""

    module: str
    file: Path
    line: int


@dataclass(frozen=True)
class Target:
    """A target of the manifest: its name, where its sources are, what it may import."""

    name: str
    sources: tuple[Path, ...]
    declared: frozenset[str]


@dataclass(frozen=True)
class Undeclared:
    """An import of a module its target does not declare."""

    target: str
    imported: Import

    def __str__(self) -> str:
        where = f"{self.imported.file}:{self.imported.line}"
        return f"{self.target} imports {self.imported.module} without declaring it ({where})"


def imports_of(text: str, file: Path) -> list[Import]:
    """The modules `text` (Swift source) imports, one per import declaration.

    Block comments are blanked first (keeping their lines, for the line numbers); a line
    comment cannot hold an import declaration at its start.
    """
    text = _BLOCK_COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        match = _IMPORT.match(line)
        if match:
            found.append(Import(match.group(1), file, number))
    return found


def dependency_name(dependency: Mapping[str, Any]) -> str:
    """The module name a dependency of the dumped manifest stands for.

    byName and target dependencies name a target (or a product of the same name); product
    dependencies name a product of another package.
    """
    for kind in ("byName", "target", "product"):
        if kind in dependency:
            return str(dependency[kind][0])
    raise ValueError(f"a dependency of an unknown kind: {dict(dependency)}")


def targets_of(manifest: Mapping[str, Any], root: Path) -> list[Target]:
    """The targets of a dumped manifest with Swift sources, each with its .swift files."""
    targets = []
    for target in manifest["targets"]:
        if target["type"] in ("system", "binary", "plugin"):
            continue
        default = "Tests" if target["type"] == "test" else "Sources"
        folder = root / (target.get("path") or f"{default}/{target['name']}")
        excluded = [folder / path for path in target.get("exclude") or []]
        chosen = [folder / path for path in target.get("sources") or ["."]]
        files = sorted(
            file
            for base in chosen
            for file in ([base] if base.is_file() else base.rglob("*.swift"))
            if file.suffix == ".swift" and not any(file.is_relative_to(e) for e in excluded)
        )
        declared = frozenset(dependency_name(d) for d in target["dependencies"])
        targets.append(Target(target["name"], tuple(files), declared))
    return targets


def undeclared(targets: Iterable[Target]) -> list[Undeclared]:
    """Every import of a module that is neither its own target, declared, nor the toolchain's."""
    found = []
    for target in targets:
        allowed = target.declared | TOOLCHAIN_MODULES | {target.name}
        for file in target.sources:
            for imported in imports_of(file.read_text(errors="replace"), file):
                if imported.module not in allowed:
                    found.append(Undeclared(target.name, imported))
    return found


def reachable(manifest: Mapping[str, Any], name: str) -> frozenset[str]:
    """The targets of the manifest that `name` depends on, directly or through others."""
    dependencies = {
        target["name"]: [dependency_name(d) for d in target["dependencies"]] for target in manifest["targets"]
    }
    reached: set[str] = set()
    pending = [name]
    while pending:
        for dependency in dependencies.get(pending.pop(), []):
            if dependency in dependencies and dependency not in reached:
                reached.add(dependency)
                pending.append(dependency)
    return frozenset(reached)


def codecs_reached(manifest: Mapping[str, Any]) -> dict[str, frozenset[str]]:
    """For each of ``CODEC_FREE`` the manifest has, the codecs it reaches, when it reaches any."""
    names = {target["name"] for target in manifest["targets"]}
    found = {}
    for name in CODEC_FREE:
        if name in names and (codecs := reachable(manifest, name) & CODECS):
            found[name] = codecs
    return found


def dump_package(root: Path) -> dict[str, Any]:
    """The manifest of the package at `root`, as SwiftPM evaluates it."""
    done = subprocess.run(["swift", "package", "dump-package"], cwd=root, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"swift package dump-package failed in {root}:\n{done.stderr.strip()}")
    manifest: dict[str, Any] = json.loads(done.stdout)
    return manifest


def main(arguments: list[str]) -> int:
    """Checks each package named (default: the repository's); 1 when an import is undeclared."""
    if arguments[:1] in (["-h"], ["--help"]):
        print((__doc__ or "").strip())
        return 0
    roots = [Path(argument) for argument in arguments] or [REPOSITORY]
    problems: list[str] = []
    for root in roots:
        manifest = dump_package(root)
        problems += [str(problem) for problem in undeclared(targets_of(manifest, root))]
        for name, codecs in codecs_reached(manifest).items():
            problems.append(f"{name} must link no codec but depends on {', '.join(sorted(codecs))}")
    for problem in problems:
        print(f"package graph: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
