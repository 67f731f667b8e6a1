"""Compares two Thumbs caches read straight from their LMDB files (python3-lmdb): the same
thumbnail keys with the same image bytes, the same metadata records, the same remembered
failures. What differs by nature is left out: when a thumbnail was made (bytes 10-18 of its
record, see StoredThumbnail) and when a failure was met (a failure record's last 8 bytes).
Exits 1 when the caches differ.

    python3 scripts/bench/compare_caches.py CACHE_A CACHE_B
"""
import sys

import lmdb


def tables(path):
    env = lmdb.open(path, readonly=True, lock=False, max_dbs=16, subdir=True)
    found = {}
    with env.begin() as txn:
        for name, strip in (
            (b"thumbnails", lambda v: v[:10] + v[18:]),
            (b"metadata", lambda v: v),
            (b"failures", lambda v: v[:-8]),
        ):
            db = env.open_db(name, txn=txn, create=False)
            found[name.decode()] = {bytes(k): strip(bytes(v)) for k, v in txn.cursor(db=db)}
    env.close()
    return found


def main():
    first, second = tables(sys.argv[1]), tables(sys.argv[2])
    same = True
    for name in first:
        a, b = first[name], second[name]
        only_a, only_b = a.keys() - b.keys(), b.keys() - a.keys()
        differing = [k for k in a.keys() & b.keys() if a[k] != b[k]]
        print(
            "compare-caches: %s: %d and %d entries, %d only in the first, %d only in the second, %d differ"
            % (name, len(a), len(b), len(only_a), len(only_b), len(differing))
        )
        same = same and not only_a and not only_b and not differing
    print("compare-caches: " + ("the same keys and bytes" if same else "DIFFERENT"))
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
