"""bench-serve's report: the table of figures and targets, and what else the run saw."""

from __future__ import annotations

from typing import Any

from ...figures import mb
from ...report import markdown_table
from .settings import RENDITIONS, TARGET_P99_MS, TARGET_RATE, TARGET_RSS


def verdict(ok: bool) -> str:
    """The last column of a row with a target."""
    return "**met**" if ok else "**missed**"


def report(data: dict[str, Any]) -> str:
    """The markdown report of a run's figures (what `run` gathered)."""
    cached, mix, cold, warmed = data["cached"], data["mixed"], data["storm"], data["warm"]
    t, n = cached["thumbs"], cached["nginx"]
    rate_ratio = t["rate"] / n["rate"]
    rss_ratio = cold["peak_rss"] / warmed["peak_rss"]
    all_ok = cold["ok"] == cold["urls"]
    rows = [
        [
            "cached hits: requests/s",
            f"{t['rate']:,.0f}",
            f"{n['rate']:,.0f}",
            f"{rate_ratio:.2f}×",
            f"≥ {TARGET_RATE}× nginx",
            verdict(rate_ratio >= TARGET_RATE),
        ],
        [
            "cached hits: p50",
            f"{t['p50_ms']:.2f} ms",
            f"{n['p50_ms']:.2f} ms",
            f"{t['p50_ms'] / n['p50_ms']:.2f}×",
            "",
            "",
        ],
        [
            "cached hits: p99",
            f"{t['p99_ms']:.2f} ms",
            f"{n['p99_ms']:.2f} ms",
            f"{t['p99_ms'] / n['p99_ms']:.2f}×",
            f"≤ {TARGET_P99_MS:g} ms",
            verdict(t["p99_ms"] <= TARGET_P99_MS),
        ],
        [
            "`/healthz` (no cache, no image), once",
            f"{cached['healthz']['rate']:,.0f}/s, "
            f"p50 {cached['healthz']['p50_ms']:.2f} ms, p99 {cached['healthz']['p99_ms']:.2f} ms",
            "",
            f"{cached['healthz']['rate'] / n['rate']:.2f}×",
            "",
            "",
        ],
        [
            "cached hits: errors (non-2xx/3xx, socket)",
            str(t["errors"]),
            str(n["errors"]),
            "",
            "0",
            verdict(t["errors"] == 0),
        ],
        [
            "cold storm: URLs answered 200 with a valid JPEG",
            f"{cold['ok']:,} of {cold['urls']:,} in {cold['seconds']:.0f} s",
            "",
            "",
            "all",
            verdict(all_ok),
        ],
        [
            "cold storm: answers larger than the rendition's box",
            f"{cold['oversize']:,} {cold['oversize_by_rendition'] or ''}".strip(),
            "",
            "",
            "0",
            verdict(cold["oversize"] == 0),
        ],
        [
            "cold storm: 503 answers (retried)",
            f"{cold['busy_answers']:,} ({cold['retried_urls']:,} URLs)",
            "",
            "",
            "allowed",
            "",
        ],
        [
            "cold storm: peak RSS (VmHWM) vs `thumbs warm`",
            f"{mb(cold['peak_rss']):.0f} MB",
            f"warm {mb(warmed['peak_rss']):.0f} MB",
            f"{rss_ratio:.2f}×",
            f"≤ {TARGET_RSS}×",
            verdict(rss_ratio <= TARGET_RSS),
        ],
        [
            f"mixed {data['args']['mixed_duration']} s: requests, errors",
            f"{mix['requests']:,} cached ({mix['rate']:,.0f}/s) + {mix['misses']['requests']:,} misses, "
            f"{mix['errors']} errors",
            "",
            "",
            "0 errors",
            verdict(mix["errors"] == 0 and mix["alive"]),
        ],
        [
            "mixed: RSS start → ¼ → ½ → ¾ → end (max)",
            " → ".join(f"{mb(v):.0f}" for v in [mix["rss_start"], *mix["rss_quarters"], mix["rss_end"]])
            + f" MB (max {mb(mix['rss_max']):.0f}; last ¼ {mb(mix['rss_last_quarter'][0]):.0f}–"
            f"{mb(mix['rss_last_quarter'][1]):.0f})",
            "",
            "",
            "flat",
            "",
        ],
    ]
    table = markdown_table(
        ["measurement", "thumbs serve", "nginx / peer", "ratio", "target", ""],
        rows,
        align=["l", "r", "r", "r", "l", "l"],
    )
    machine = data["machine"]
    renditions = ", ".join(" ".join((r["name"], r["size"], r["mode"])) for r in RENDITIONS)
    lines = [
        f"Machine: {machine['nproc']} cores ({machine['cpu']}), {machine['memory_gib']} GiB, {machine['os']}; "
        f"{data['nginx_version']}, {data['wrk_version']}; load average {data['load_before']} before, "
        f"{data['load_after']} after.",
        f"Library: {data['library']['photos']} photos ({data['library']['origin']}) × "
        f"{data['library']['copies']} copies = {data['library']['assets']} assets; "
        f"{len(RENDITIONS)} renditions ({renditions}).",
        f"Cached hits: wrk -t{data['args']['threads']} -c{data['args']['connections']} "
        f"-d{data['args']['duration']}s --latency over {data['exported']} grid URLs, "
        f"{data['args']['rounds']} rounds alternating thumbs and nginx, medians shown "
        f"(thumbs requests/s per round: {', '.join(f'{r:,.0f}' for r in t['rates'])}; "
        f"nginx: {', '.join(f'{r:,.0f}' for r in n['rates'])}). CPU used during the runs (medians): "
        f"thumbs {t['server_cores']:.2f} cores with wrk {t['wrk_cores']:.2f}; nginx {n['server_cores']:.2f} "
        f"with wrk {n['wrk_cores']:.2f}; other processes at most {max(t['other_share_max'], n['other_share_max']):.0%} "
        f"of the machine.",
        "",
        table,
        "",
        f"Warm: `thumbs warm` {warmed['seconds']:.1f} s, peak RSS {mb(warmed['peak_rss']):.0f} MB "
        f"(`/usr/bin/time -v`). Storm: slowest URL {cold['slowest']:.0f} s, at most {cold['max_busy']} "
        f"503s for one URL, {cold['connection_errors']} connection errors, statuses {cold['statuses']}, "
        f"e.g. {'; '.join(cold['examples'][:2]) or 'nothing wrong'}; "
        f"sampled peak RSS {mb(cold['peak_sampled_rss']):.0f} MB (anon {mb(cold['peak_sampled_anon']):.0f} MB), "
        f"{mb(cold['rss_after']):.0f} MB after; server {'alive' if cold['alive'] else 'DEAD'} at the end.",
        f"Mixed: cached side statuses {dict(sorted(mix['statuses'].items()))}, p50 {mix['p50_ms']:.2f} ms, "
        f"p99 {mix['p99_ms']:.2f} ms; misses statuses {dict(sorted(mix['misses']['statuses'].items()))}, "
        f"p50 {mix['misses']['p50_ms']:.0f} ms, p99 {mix['misses']['p99_ms']:.0f} ms; non-2xx/3xx "
        f"{mix['non_2xx_3xx'] + mix['misses']['non_2xx_3xx']}, socket errors {mix['socket_errors']} "
        f"{mix['misses']['socket_errors']}; thumbnails by tier {mix['tiers']}; "
        f"anon RSS {mb(mix['anon_start']):.0f} → {mb(mix['anon_end']):.0f} MB (max {mb(mix['anon_max']):.0f}). "
        f"thumbs RSS before/after the cached hits: {mb(cached['thumbs_rss_before']):.0f} / "
        f"{mb(cached['thumbs_rss_after']):.0f} MB. Exit status of the two servers on SIGTERM: "
        f"{data['warm_server_exit']}, {data['storm_server_exit']}.",
    ]
    return "\n".join(lines)
