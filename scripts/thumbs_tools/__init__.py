"""The project's tooling in Python: the benchmarks (`bench`), what they share (`runner`,
`figures`, `events`, `report`, `jpeg`), and the check that the package graph declares every
import (`package_graph`). Run from scripts/ (or with it on PYTHONPATH): `python3 -m
thumbs_tools.bench.peers --help`."""
