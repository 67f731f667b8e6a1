"""Where the tooling finds the repository, its scripts and the shared test files beside it."""

from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
SCRIPTS = REPOSITORY / "scripts"
SHARED = REPOSITORY.parent / "shared"  # ../shared: photos/ and media/, with their MANIFEST.tsv
