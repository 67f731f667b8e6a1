#!/usr/bin/env python3
"""`thumbs serve` over HTTP on loopback: cached hits against nginx, a cold storm, a mixed run.

One run, in this order, on a library of real photos (../shared/photos without broken/, the
photos libvips decodes, copied COPIES times under other folders), or of generated ones when
../shared/photos is absent:

1. `thumbs warm` of the library with four renditions (grid 256x256 fill, small 128x128 fill,
   medium 512x512 fit, preview 1024x1024 fit) into a new cache, under `/usr/bin/time -v`: its
   "Maximum resident set size" is what the storm's memory is compared with.
2. `thumbs serve` on that cache (`warmOnStart: false`, port chosen by the system), and nginx
   (its own prefix and configuration: `worker_processes auto`, `access_log off`, sendfile,
   keep-alive, open_file_cache) serving a folder into which every grid thumbnail was
   exported from the server, at the same paths: both answer the same bytes at the same URLs
   (checked, URL by URL).
3. Cached hits: wrk (CONNECTIONS connections, THREADS threads, DURATION seconds, `--latency`)
   with a Lua script cycling over every grid URL, thumbs then nginx, ROUNDS times after a
   short warm-up of each; the median of the rounds is reported for each figure. Then one run
   of `/healthz`, the cheapest route the server has: the HTTP stack's share of a hit.
4. Mixed run: MIXED seconds against the same server. CONNECTIONS - 2 connections cycle over 20
   requests: 11 grid hits, 1 small and 1 medium hit, 2 preview hits with `?v=` (immutable
   URLs), 4 revalidations with the grid's ETag in If-None-Match (304), 1 listing page; 2 more
   connections ask, one after the other, for renditions that were not warmed (two fill sizes
   of every asset: each a real render). Counts the statuses of both and samples the server's
   RSS every second.
5. Cold storm: a new, empty cache, `thumbs serve` with the four renditions and
   `warmOnStart: false`, then every (asset, rendition) URL, at least 1,000, requested at once
   by as many client threads; a 503 (the render bound, `maxPendingRenders`) is retried after its
   Retry-After until each URL is answered 200 with a complete JPEG. An answer larger than its
   rendition's box is counted apart. The server's peak RSS (VmHWM) is compared with the warm's.

With `--against PATH` (another thumbs binary), only the cached hits are measured, of both builds,
alternated round by round on one warmed cache (versus.py): what a change to the HTTP path costs
or saves.

wrk and both servers share the machine's cores: the figures are those of one machine serving
itself, not of a server alone. Normally run through scripts/bench-serve, which installs nginx
and wrk and builds Thumbs.
"""
