#!/usr/bin/python3
"""The tables of bench/RESULTS.md's desktop-app section from run_app_bench.sh's results.

  /usr/bin/python3 summarize.py RESULTS_DIR
"""
import glob
import json
import os
import statistics
import sys

LABEL = {"air_contig": "(a) contiguous", "air_zlib1": "(b) zlib1", "air_nc3_64bit": "(c) nc3 64-bit"}


def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(q * (len(v) - 1))))]


def ms(v):
    return f"{statistics.median(v) * 1000:.1f} ({pct(v, 0.9) * 1000:.1f}, {len(v)})" if v else "-"


def main():
    res = sys.argv[1]
    print("| file | viewer | TTFF s, median (min-max, n) | step ms b2b, median (p90, n) | "
          "step ms peer pacing | step ms 30 Hz key repeat (overtaken) | peak RSS MiB |")
    print("|---|---|---|---|---|---|---|")
    for key, label in LABEL.items():
        p = os.path.join(res, f"strata_{key}.json")
        if os.path.exists(p):
            d = json.load(open(p))
            runs = d["runs"]
            t = [r["ttff_s"] for r in runs if "ttff_s" in r]
            by = {r["series"]: r for r in runs if r.get("step_s")}
            cell = lambda s: ms(by[s]["step_s"]) if s in by else "-"  # noqa: E731
            hz = cell("hz") + (f" ({by['hz']['overtaken']})" if "hz" in by else "")
            rss = max((r.get("maxrss_kb") or 0) for r in runs) / 1024
            rss0 = max([(r.get("maxrss_kb") or 0) for r in runs if not r.get("step_s")] or [0]) / 1024
            plot = next((f"{r['plot']['width']}x{r['plot']['height']}" for r in runs if r.get("plot")), "?")
            print(f"| {label} | Strata (plot {plot}) | {statistics.median(t):.3f} ({min(t):.2f}-{max(t):.2f}, "
                  f"{len(t)}) | {cell('b2b')} | {cell('peer')} | {hz} | {rss:.0f} after 200 steps; "
                  f"{rss0:.0f} at the first frame |")
        p = os.path.join(res, f"ncview11_{key}.json")
        if os.path.exists(p):
            d = json.load(open(p))
            runs = d["runs"]
            t = [r["ttff_s"] for r in runs if "ttff_s" in r]
            steps = [x for r in runs for x in r.get("click_step_s", [])]
            play = [x for r in runs for x in r.get("play_interval_s", [])]
            rss = max((r.get("maxrss_kb") or 0) for r in runs) / 1024
            print(f"| {label} | ncview 1:1, click `>` | {statistics.median(t):.3f} ({min(t):.2f}-{max(t):.2f}, "
                  f"{len(t)}) | - | {ms(steps)} | `>>` animate: {ms(play)} | {rss:.0f} |")
    for f in sorted(glob.glob(os.path.join(res, "probe_*.txt"))):
        print(f"\n{os.path.basename(f)}:")
        print(open(f).read().rstrip())


if __name__ == "__main__":
    sys.exit(main())
