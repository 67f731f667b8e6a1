"""Compares two Thumbs caches read straight from their LMDB files (python3-lmdb): the same
thumbnail keys with the same image bytes, the same metadata records, the same remembered
failures. What differs by nature is left out: when a thumbnail was made (bytes 10-18 of its
record, see StoredThumbnail) and when a failure was met (a failure record's last 8 bytes).
Exits 1 when the caches differ.

    python3 -m thumbs_tools.bench.caches CACHE_A CACHE_B    (with scripts/ on PYTHONPATH)
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import lmdb


def tables(path: str) -> dict[str, dict[bytes, bytes]]:
    """Every record of the cache's three tables, without what differs by nature."""
    env = lmdb.open(path, readonly=True, lock=False, max_dbs=16, subdir=True)
    found = {}
    strips: list[tuple[bytes, Callable[[bytes], bytes]]] = [
        (b"thumbnails", lambda v: v[:10] + v[18:]),
        (b"metadata", lambda v: v),
        (b"failures", lambda v: v[:-8]),
    ]
    with env.begin() as txn:
        for name, strip in strips:
            db = env.open_db(name, txn=txn, create=False)
            found[name.decode()] = {bytes(k): strip(bytes(v)) for k, v in txn.cursor(db=db)}
    env.close()
    return found


def main() -> None:
    """Compares the two caches named on the command line."""
    first, second = tables(sys.argv[1]), tables(sys.argv[2])
    same = True
    for name in first:
        a, b = first[name], second[name]
        only_a, only_b = a.keys() - b.keys(), b.keys() - a.keys()
        differing = [k for k in a.keys() & b.keys() if a[k] != b[k]]
        print(
            f"compare-caches: {name}: {len(a)} and {len(b)} entries, {len(only_a)} only in the first, "
            f"{len(only_b)} only in the second, {len(differing)} differ"
        )
        same = same and not only_a and not only_b and not differing
    print("compare-caches: " + ("the same keys and bytes" if same else "DIFFERENT"))
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
