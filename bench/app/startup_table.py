#!/usr/bin/python3
"""The tables of run_startup_bench.sh: time to first frame, Strata beside ncview, and where
Strata's goes (its startup trace), from the JSON files of RESULTS_DIR
(strata_<file>_<round>.json from run_app_bench.py, ncview_<file>_<round>.json from the peers'
run_ncview.py). Markdown, for bench/RESULTS.md.

  /usr/bin/python3 startup_table.py RESULTS_DIR
"""
import glob
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_app_bench import startup_medians  # noqa: E402

LABEL = {"air_contig": "contiguous netCDF-4", "air_zlib1": "zlib netCDF-4",
         "air_nc3_64bit": "netCDF-3 64-bit offset"}
# What each step (from the milestone before) is.
STEP = {
    "process-start": "the spawn to the fork of strata by `/usr/bin/time`; /proc's 10 ms ticks, truncated",
    "main": "exec and dynamic linking (95 libraries), static initialisation",
    "check-begun": "the open check's child forked: it runs while Qt starts and the window is built",
    "qapplication": "QApplication: the X connection, the platform plugin, fonts",
    "window": "the main window built (menus, panels, docks; the coastline file opened)",
    "open-begun": "the window shown, the open asked for",
    "check-ended": "the check's answer taken on the opener's thread (waited for if it had not come)",
    "netcdf-opened": "netCDF-C's open and metadata in this process (the Dataset)",
    "open-delivered": "to the GUI thread, busy meanwhile with the window's first paint",
    "panel-filled": "the dataset panel filled",
    "frame-requested": "the rest of onOpened before the request: the view chosen (last view, default)",
    "slab-read": "the first slab read and decoded on the frame service's worker",
    "coloured": "colour-mapped on the worker",
    "frame-delivered": "to the GUI thread (waits while it fills the slice panel, units button and dimension bar)",
    "painted": "the raster paint (frame, coastlines, axes, colour bar)",
    "presented": "to the presentation (a queued signal)",
    "ttff (driver)": "the strata-frame line read by the driver",
}


def runs_of(res, viewer, key):
    out = []
    for p in sorted(glob.glob(os.path.join(res, f"{viewer}_{key}_*.json"))):
        out += json.load(open(p))["runs"]
    return out


def span(v):
    return f"{statistics.median(v):.3f} s ({min(v):.3f}–{max(v):.3f})" if v else "–"


def steps_table(res, keys):
    """Strata's steps (the Right key, 50 ms after each frame) beside ncview's (its ">" button, as
    the peers click it), from the same run; medians and 90th percentiles in ms."""
    rows = []
    for key in keys:
        s = glob.glob(os.path.join(res, f"steps_strata_{key}.json"))
        n = glob.glob(os.path.join(res, f"steps_ncview_{key}.json"))
        if not s or not n:
            continue
        ls = [v for r in json.load(open(s[0]))["runs"] for v in r.get("step_s", [])]
        ln = [v for r in json.load(open(n[0]))["runs"] for v in r.get("click_step_s", [])]
        if not ls or not ln:
            rows.append(f"| {LABEL[key]} | {len(ls)} steps | {len(ln)} steps | – |")
            continue
        q = lambda v, p: sorted(v)[min(len(v) - 1, int(p * len(v)))] * 1000  # noqa: E731
        ms, mn = statistics.median(ls) * 1000, statistics.median(ln) * 1000
        rows.append(f"| {LABEL[key]} | {ms:.1f} ms (p90 {q(ls, 0.9):.1f}, n {len(ls)}) | "
                    f"{mn:.1f} ms (p90 {q(ln, 0.9):.1f}, n {len(ln)}) | {ms / mn:.2f}× |")
    if rows:
        print("\nA step, 50 ms after the last frame (Strata: → to the frame presented; ncview 1:1: a "
              "click on > to its XPutImage synced):\n")
        print("| file | Strata | ncview 1:1 | Strata / ncview |")
        print("|---|---|---|---|")
        print("\n".join(rows))


def main():
    res = sys.argv[1]
    keys = [k for k in LABEL if glob.glob(os.path.join(res, f"strata_{k}_*.json"))]
    print("| file | Strata, time to first frame | ncview 1:1 | Strata / ncview | Strata's peak RSS to the first "
          "frame (ncview's, to its first frame and one more) |")
    print("|---|---|---|---|---|")
    medians = {}
    for key in keys:
        s, n = runs_of(res, "strata", key), runs_of(res, "ncview", key)
        ts = [r["ttff_s"] for r in s if "ttff_s" in r]
        tn = [r["ttff_s"] for r in n if "ttff_s" in r]
        ratio = statistics.median(ts) / statistics.median(tn) if ts and tn else float("nan")
        hwm = [r["startup_peak_kb"]["presented"] / 1024 for r in s if "presented" in r.get("startup_peak_kb", {})]
        rss_n = [r["maxrss_kb"] / 1024 for r in n if r.get("maxrss_kb")]
        rss = (f"{statistics.median(hwm):.0f} MiB ({min(hwm):.0f}–{max(hwm):.0f})" if hwm else "–") + (
            f" ({statistics.median(rss_n):.0f} MiB)" if rss_n else "")
        print(f"| {LABEL[key]} | {span(ts)} | {span(tn)} | {ratio:.2f}× | {rss} |")
        medians[key] = {r["milestone"]: r for r in startup_medians(s)}
        errors = [r["error"] for r in s + n if r.get("error")]
        if errors:
            print(f"|  errors: {'; '.join(errors)} |")
    if not medians:
        return
    print("\nStrata's milestones, ms after the spawn, median over the rounds (the step from the one before):\n")
    print("| milestone | " + " | ".join(LABEL[k] for k in keys) + " | peak RSS MiB | the step is |")
    print("|---|" + "---:|" * len(keys) + "---:|---|")
    names = list(max(medians.values(), key=len))
    for name in names:
        cells, peaks = [], []
        for k in keys:
            row = medians[k].get(name)
            cells.append(f"{row['median_s'] * 1000:.1f} ({row['step_s'] * 1000:+.1f})" if row else "–")
            if row and row.get("peak_rss_kb"):
                peaks.append(f"{row['peak_rss_kb'] / 1024:.0f}")
        print(f"| {name} | " + " | ".join(cells) + f" | {' / '.join(peaks)} | {STEP.get(name, '')} |")
    steps_table(res, keys)


if __name__ == "__main__":
    sys.exit(main())
