"""What a library costs Thumbs as it grows, from a thousand photos to a million: the curve.

For each size N, a library of N small distinct JPEGs (160x120, ~3.4 KB, in 100 folders of a month
each, capture dates in EXIF: library.py) is generated once under ROOT/N/ and kept (ROOT/N.complete
marks it complete). Then, on a new cache:

1. `thumbs warm`, cold (two renditions like the default configuration: 256x256 fill, 1024x1024
   fit): wall time, photos per second, CPU use, peak RSS of the process tree (and its anon part).
2. The unchanged re-run, against `find ROOT/N -printf '%s %T@ %p\\n' >/dev/null` (the walk and
   stat of every file, page cache warm, best of 3): re-run ÷ find.
3. `thumbs serve` (no warm on start): seconds from its start until /healthz answers, its RssAnon
   then and after the lists, its VmHWM; then the first page of each list (/api/assets,
   /api/albums, /api/moments, one folder album's assets, a burst's frames), each asked 5 times
   with limit=200: median time, the answer's bytes and items, and whether limit=1 is honoured.
4. `thumbs albums` and `thumbs moments` (as tables, on a pipe): time to the first line, total
   time, peak RSS.
5. A move: the folder 2024-06 (1 % of the library) renamed, `thumbs warm` again (time, photos
   rendered), the cache's thumbnail and metadata entries before and after (`thumbs stats`); the
   folder is renamed back afterwards.

The targets judged: an unchanged re-run at least 100x faster than a cold warm, and a flat peak
anon RSS of the warm across sizes. Normally run through scripts/bench-scaling, which installs
Pillow and builds Thumbs.
"""
