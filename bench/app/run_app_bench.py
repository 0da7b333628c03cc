#!/usr/bin/python3
"""Time Strata's window the way bench/peers/run_ncview.py times ncview: XTest input, timed to
the frame on screen. Needs Debian's python3-xlib and an X server (a private Xvfb; see
run_app_bench.sh), and a strata binary built with the GUI.

  DISPLAY=:78 /usr/bin/python3 run_app_bench.py FILE --strata build-bench/app/strata \
      --reps 5 --steps 200 --out res.json

The window prints, with STRATA_TRACE_FRAMES=1, a line on stderr at each frame it presents
(QOpenGLWidget::frameSwapped, after the GL swap has put the pixels into the X server):
    strata-frame <CLOCK_MONOTONIC ns> <ms from the request to present> <request -> ready ms>
                 <ready -> shown ms> <device->host bytes so far> <shown -> paint ms>
                 <paint ms, to the GPU's end of drawing> <swap ms: the display's presentation>
                 <of the paint: ms updating the scene> <ms issuing VTK's render>
(the last five -1 where the raster path painted; each step's are kept as "splits_ms").
CLOCK_MONOTONIC is the clock of Python's time.monotonic(), so the driver's times and the
window's compare directly.

With STRATA_TRACE_STARTUP=1 (always set here) it also prints, once each, the milestones on the
way to the first frame (strata/core/startup_trace.h):
    strata-startup <name> <CLOCK_MONOTONIC ns> <the process's peak RSS so far, kB>
process-start (the kernel's start time of the process, in 10 ms ticks, truncated: up to 10 ms
early), main, qapplication, window, open-begun, check-begun, check-ended (the open check in a
child process), netcdf-opened (netCDF-C's open and metadata here), open-delivered (the dataset
on the GUI thread), panel-filled, frame-requested, slab-read, coloured, frame-delivered (on the
GUI thread), painted, presented. Each rep keeps them as "startup_s", seconds after t0, and
"startup_peak_kb"; the summary's "startup_median_s" is each one's median over the reps, and a
table of them is printed (median, the step from the milestone before it, min-max, peak RSS).
The peak RSS at "presented" is the peak to the first frame as the window saw it.

Per repetition (a fresh process each time, its settings folder emptied first so that no
remembered view changes what opens):
  * t0 = time.monotonic() just before `/usr/bin/time -v strata FILE` is spawned.
  * TTFF = t0 -> the first strata-frame line (the window at its default size, 1400x900).
  * The first reps (one per name in --series) then step: the window is resized to --size
    (default 2240x1150; no window manager, so a plain XConfigureWindow) so that the frame is
    drawn at one screen pixel per cell; the plot rectangle is measured from a screenshot.
    Then --steps presses of the Right arrow key (XTest press + release), with the keyboard
    focus on the time slider, each to a time step not shown before in this process:
      - "b2b": the next press as soon as the previous step's frame is presented;
      - "peer": as the peers' ncview runs (run_ncview.py): wait for the frame, 50 ms, press;
      - "hz": presses at a fixed 1/--hz pace (30 Hz: 33.3 ms), as a held key's autorepeat
        sends them, whether or not the last frame is up yet. A press whose frame has not come
        when the next press is sent is "overtaken" (newest wins: its own frame may never be
        drawn); it is counted, and its latency is taken to the first frame that shows it or
        a later press.
    latency = the present time of the first frame whose request came after the press (the
    window's request time is its present time less the ms it prints) - the press time. Frames
    requested before the press (older steps still on their way) do not count for it.
  * VmHWM of the strata process read from /proc as soon as the first frame's line comes
    ("vmhwm_first_frame_kb": blurred by the load of the whole variable, which starts before the
    first frame is shown; the trace's peak at "presented" is the window's own) and again just
    before it is stopped, and the maximum RSS from /usr/bin/time -v.
"""
import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from Xlib import X, XK, display
from Xlib.ext import xtest

TMP = tempfile.gettempdir()


class FrameLog:
    """The strata-frame lines of the child's stderr, read by a thread."""

    def __init__(self, stream):
        self.frames = []  # (t seconds monotonic, ms request->present)
        self.startup = {}  # milestone -> (t seconds monotonic, peak RSS kB), in the order they came
        self.trace = []  # the lines' numbers: ms request->present, ->ready, ready->shown
        self.other = []
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream):
        for raw in stream:
            line = raw.decode(errors="replace").rstrip("\n")
            m = re.match(r"strata-frame (\d+) ([0-9.]+)((?: [0-9.eE+-]+)*)$", line)
            s = re.match(r"strata-startup (\S+) (-?\d+) (\d+)$", line)
            with self.cond:
                if s:
                    self.startup.setdefault(s.group(1), (int(s.group(2)) / 1e9, int(s.group(3))))
                elif m:
                    rest = [float(v) for v in m.group(3).split()]
                    self.frames.append((int(m.group(1)) / 1e9, float(m.group(2)), rest))
                    if rest:
                        self.trace.append([float(m.group(2))] + rest)
                else:
                    self.other.append(line)
                self.cond.notify_all()

    def wait_after(self, t, timeout):
        """The first frame requested after time t (so showing what happened at t), or None.
        A frame's request time is its present time less the window's request->present ms."""
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                for f in self.frames:
                    if f[0] - f[1] / 1000.0 >= t:
                        return f
                left = end - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(left)


def find_window(d, pid, timeout=30):
    """The viewable top-level window of process `pid` (_NET_WM_PID)."""
    atom = d.intern_atom("_NET_WM_PID")
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for w in d.screen().root.query_tree().children:
            try:
                prop = w.get_full_property(atom, X.AnyPropertyType)
                g = w.get_geometry()
                attrs = w.get_attributes()
            except Exception:
                continue
            if prop and prop.value[0] == pid and g.width > 100 and attrs.map_state == X.IsViewable:
                return w
        time.sleep(0.01)
    return None


def plot_rect(d, win):
    """The frame's rectangle in the window, from a screenshot: the longest runs of rows and
    columns where most pixels are coloured (not grey, not white, not black)."""
    g = win.get_geometry()
    img = win.get_image(0, 0, g.width, g.height, X.ZPixmap, 0xFFFFFFFF)
    data, w, h = img.data, g.width, g.height
    stride = len(data) // h
    coloured = bytearray(w * h)
    for y in range(h):
        row = data[y * stride:(y + 1) * stride]
        for x in range(w):
            b, gg, r = row[4 * x], row[4 * x + 1], row[4 * x + 2]
            coloured[y * w + x] = (max(r, gg, b) - min(r, gg, b)) > 30
    cols = [sum(coloured[y * w + x] for y in range(0, h, 2)) for x in range(w)]
    rows = [sum(coloured[y * w + x] for x in range(0, w, 2)) for y in range(h)]

    def longest(counts, need):
        best, start, run = (0, 0), None, 0
        for i, c in enumerate(counts + [0]):
            if c >= need:
                start = i if start is None else start
            elif start is not None:
                if i - start > best[1] - best[0]:
                    best = (start, i)
                start = None
        return best

    x0, x1 = longest(cols, 100)
    y0, y1 = longest(rows, 200)
    return {"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0, "window": [w, h]}


def click(d, x, y):
    xtest.fake_input(d, X.MotionNotify, x=x, y=y)
    d.sync()
    time.sleep(0.05)
    xtest.fake_input(d, X.ButtonPress, 1)
    xtest.fake_input(d, X.ButtonRelease, 1)
    d.sync()


def press(d, keycode):
    t = time.monotonic()
    xtest.fake_input(d, X.KeyPress, keycode)
    xtest.fake_input(d, X.KeyRelease, keycode)
    d.sync()
    return t


def child_pid(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = f.read().split()
        return int(kids[0]) if kids else None
    except OSError:
        return None


def vm_hwm_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            m = re.search(r"VmHWM:\s+(\d+) kB", f.read())
        return int(m.group(1)) if m else None
    except OSError:
        return None


def step_series(d, log, keycode, n, pace_s, gap_s, timeout):
    """n presses; returns latencies (s) and the number of presses overtaken."""
    lat, overtaken, splits = [], 0, []
    presses = []
    if pace_s is None:  # back-to-back
        for i in range(n):
            tc = press(d, keycode)
            f = log.wait_after(tc, timeout)
            if f is None:
                raise RuntimeError(f"no frame after press {i}")
            lat.append(f[0] - tc)
            splits.append(split(f, tc))
            if gap_s:
                time.sleep(gap_s)
        return lat, 0, splits
    start = time.monotonic() + 0.05
    for i in range(n):
        target = start + i * pace_s
        while time.monotonic() < target:
            time.sleep(min(0.001, max(0.0, target - time.monotonic())))
        presses.append(press(d, keycode))
    last = log.wait_after(presses[-1], timeout)
    if last is None:
        raise RuntimeError("no frame after the last press")
    for i, tc in enumerate(presses):
        f = log.wait_after(tc, timeout)
        lat.append(f[0] - tc)
        splits.append(split(f, tc))
        if i + 1 < len(presses) and f[0] > presses[i + 1]:
            overtaken += 1
    return lat, overtaken, splits


def split(f, tc):
    """Where a step's time went, in ms, from the frame's trace line (see the window's
    onPresented): press -> request, request -> ready, ready -> shown, shown -> paint, paint (to
    the GPU's end of drawing), and the swap (the display's presentation); the last three are
    None where the raster path painted. Also the device->host bytes so far."""
    t, req_to_present, rest = f
    out = {"press_to_request": (t - req_to_present / 1000.0 - tc) * 1000}
    names = ["request_to_ready", "ready_to_shown", "d2h_bytes", "shown_to_paint", "paint", "swap",
             "paint_prepare", "paint_render_issue"]
    for name, v in zip(names, rest):
        out[name] = None if (v < 0 and name not in ("request_to_ready", "ready_to_shown", "d2h_bytes")) else v
    return out


def reduce_series(d, log, n, timeout):
    """n switches of the focused time chip between Reduce (R: mean over time) and Slice (S);
    returns the latencies (s) and splits. The first R computes the mean; later ones may come
    from the frame cache."""
    lat, splits = [], []
    keys = [d.keysym_to_keycode(XK.string_to_keysym(k)) for k in ("R", "S")]
    for i in range(n):
        tc = press(d, keys[i % 2])
        f = log.wait_after(tc, timeout)
        if f is None:
            raise RuntimeError(f"no frame after switch {i}")
        lat.append(f[0] - tc)
        splits.append(split(f, tc))
        time.sleep(0.05)
    return lat, splits


SERIES = {  # name: (pace between presses or None for back-to-back, pause after each frame)
    "b2b": (None, 0.0),     # the next press as soon as the frame is presented
    "peer": (None, 0.05),   # as the peers' ncview runs: wait for the frame, 50 ms, press
    "hz": ("hz", 0.0),      # a held key's autorepeat: presses at --hz whatever is shown
    "reduce": None,         # the time chip switched between Reduce and Slice (--chip)
}


def one_run(args, rep, d, series):
    home = os.path.join(TMP, "appbench", "home")
    if not args.keep_home or rep == 0:  # no remembered views, no recent files, no GL shader cache
        shutil.rmtree(home, ignore_errors=True)
    os.makedirs(os.path.join(home, "run"), mode=0o700, exist_ok=True)
    time_path = os.path.join(TMP, "appbench", f"time_{os.getpid()}.txt")
    if os.path.exists(time_path):
        os.remove(time_path)
    env = dict(os.environ, STRATA_TRACE_FRAMES="1", STRATA_TRACE_STARTUP="1", HOME=home,
               XDG_CONFIG_HOME=os.path.join(home, ".config"),
               XDG_RUNTIME_DIR=os.path.join(home, "run"))
    env.update(dict(kv.split("=", 1) for kv in args.env))
    cmd = ["/usr/bin/time", "-v", "-o", time_path, args.strata] + args.strata_opts + [args.file]
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            cwd=os.path.join(TMP, "appbench"))
    log = FrameLog(proc.stderr)
    res = {"rep": rep, "cmd": " ".join(cmd)}
    try:
        first = log.wait_after(0, args.timeout)
        if first is None:
            raise RuntimeError("no frame within the timeout")
        res["ttff_s"] = first[0] - t0
        res["first_request_to_present_ms"] = first[1]
        res["first_frame_request_s"] = first[0] - first[1] / 1000.0 - t0
        kid = child_pid(proc.pid)
        res["vmhwm_first_frame_kb"] = vm_hwm_kb(kid) if kid else None
        if series:
            win = find_window(d, child_pid(proc.pid))
            if win is None:
                raise RuntimeError("no Strata window found")
            w, h = (int(v) for v in args.size.split("x"))
            win.configure(x=0, y=0, width=w, height=h)
            d.sync()
            time.sleep(1.0)  # the relayout and its repaint
            win.set_input_focus(X.RevertToParent, X.CurrentTime)
            d.sync()
            time.sleep(0.3)
            # The keyboard focus starts in the play-rate spin box, which takes the arrow keys
            # for its cursor; a click on the time slider's handle (at index 0, the left end
            # of the slider) gives the focus to the slider, where Right steps by one.
            hx, hy = (int(v) for v in args.handle.split(","))
            keycode = d.keysym_to_keycode(XK.string_to_keysym("Right"))
            # one press to check that the key reaches the slider, and to measure the plot
            for attempt in range(5):
                click(d, hx, h - hy)
                time.sleep(0.3 + attempt)
                tc = press(d, keycode)
                if log.wait_after(tc, 3 + 2 * attempt) is not None:
                    break
            else:
                subprocess.run(["import", "-window", "root", os.path.join(TMP, "appbench", "nostep.png")])
                raise RuntimeError("the Right key did not step the view")
            time.sleep(0.3)
            res["plot"] = plot_rect(d, win)
            time.sleep(args.settle)
            perf = None
            if args.perf:  # a profile of the back-to-back steps (perf record, call graphs)
                perf = subprocess.Popen(["perf", "record", "-e", "cpu-clock", "-F", "2000", "-g",
                                         "--call-graph", "dwarf,16384", "-o", args.perf, "-p",
                                         str(child_pid(proc.pid))],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(1.0)
            if series == "reduce":  # the time chip, focused by a click, then R and S in turn
                cx, cy = (int(v) for v in args.chip.split(","))
                click(d, cx, cy)
                time.sleep(0.5)
                lat, splits = reduce_series(d, log, args.steps, 30)
                over = 0
            else:
                pace, gap = SERIES[series]
                lat, over, splits = step_series(d, log, keycode, args.steps, 1.0 / args.hz if pace else None,
                                                gap, 30)
            res["splits_ms"] = splits
            res["series"] = series
            res["step_s"] = lat
            res["overtaken"] = over
            if perf:
                perf.send_signal(signal.SIGINT)
                perf.wait()
        kid = child_pid(proc.pid)
        res["vmhwm_kb"] = vm_hwm_kb(kid) if kid else None
    except RuntimeError as e:
        res["error"] = str(e)
    kid = child_pid(proc.pid)
    if kid:
        os.kill(kid, signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        if kid:
            os.kill(kid, signal.SIGKILL)
        proc.wait()
    txt = open(time_path).read() if os.path.exists(time_path) else ""
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", txt)
    res["maxrss_kb"] = int(m.group(1)) if m else None
    res["stderr_other"] = [ln for ln in log.other if "XDG_RUNTIME_DIR" not in ln][:20]
    res["trace_ms"] = log.trace  # per frame: request->present, request->ready, ready->shown
    with log.cond:
        res["startup_s"] = {name: t - t0 for name, (t, _) in log.startup.items()}
        res["startup_peak_kb"] = {name: kb for name, (_, kb) in log.startup.items()}
    return res


def startup_medians(runs):
    """Each milestone's median over the runs (seconds after the spawn), in the order of the
    run with the most; with its min and max, and its step: the median less the one before."""
    traced = [r for r in runs if r.get("startup_s")]
    if not traced:
        return []
    order = max((r["startup_s"] for r in traced), key=len)
    out = []
    for name in order:
        v = [r["startup_s"][name] for r in traced if name in r["startup_s"]]
        kb = [r["startup_peak_kb"][name] for r in traced if name in r.get("startup_peak_kb", {})]
        out.append({"milestone": name, "median_s": statistics.median(v), "min_s": min(v), "max_s": max(v),
                    "n": len(v), "peak_rss_kb": statistics.median(kb) if kb else None})
    ttff = [r["ttff_s"] for r in runs if "ttff_s" in r]
    if ttff:  # the driver's own: the strata-frame line seen
        out.append({"milestone": "ttff (driver)", "median_s": statistics.median(ttff), "min_s": min(ttff),
                    "max_s": max(ttff), "n": len(ttff)})
    for i, row in enumerate(out):
        row["step_s"] = row["median_s"] - (out[i - 1]["median_s"] if i else 0.0)
    return out


def print_startup(rows):
    print(f"{'milestone':<16} {'median ms':>9} {'step ms':>8} {'peak MiB':>8}   min-max ms (n)")
    for r in rows:
        rss = f"{r['peak_rss_kb'] / 1024:8.1f}" if r.get("peak_rss_kb") else f"{'-':>8}"
        print(f"{r['milestone']:<16} {r['median_s'] * 1000:9.1f} {r['step_s'] * 1000:8.1f} {rss}   "
              f"{r['min_s'] * 1000:.1f}-{r['max_s'] * 1000:.1f} ({r['n']})")


def split_medians(splits):
    out = {}
    for name in splits[0] if splits else []:
        v = [s[name] for s in splits if s.get(name) is not None]
        if v:
            out[name] = max(v) if name == "d2h_bytes" else statistics.median(v)
    if splits and splits[0].get("d2h_bytes") is not None:
        out["d2h_bytes_added"] = splits[-1]["d2h_bytes"] - splits[0]["d2h_bytes"]
    return out


def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(q * (len(v) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--strata", required=True)
    ap.add_argument("--strata-opts", default="", help="extra options, space separated")
    ap.add_argument("--env", action="append", default=[], help="NAME=VALUE for the child")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--series", default="b2b,peer,hz",
                    help="step series of the first reps, one each: b2b, peer (50 ms after each "
                         "frame), hz (presses at --hz)")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--hz", type=float, default=30.0)
    ap.add_argument("--settle", type=float, default=0.5)
    ap.add_argument("--size", default="2240x1150")
    ap.add_argument("--handle", default="312,72",
                    help="the time slider's handle: x from the left, y from the bottom of the window")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--keep-home", action="store_true",
                    help="empty the settings folder only before the first rep: later reps start as a "
                         "user's second launch (remembered view, the GL driver's shader cache)")
    ap.add_argument("--chip", default="902,41",
                    help="x,y of the time chip in the window at --size (series 'reduce')")
    ap.add_argument("--perf", default="", help="perf record the back-to-back steps into this file")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    args.strata_opts = args.strata_opts.split()
    args.strata = os.path.abspath(args.strata)
    os.makedirs(os.path.join(TMP, "appbench"), exist_ok=True)
    d = display.Display()
    runs = []
    series = [x for x in args.series.split(",") if x]
    for rep in range(args.reps):
        r = one_run(args, rep, d, series[rep] if rep < len(series) else None)
        runs.append(r)
        steps = ""
        if r.get("step_s"):
            sm = split_medians(r["splits_ms"])
            steps = (f"split {json.dumps({k: round(v, 3) for k, v in sm.items()})}  "
                     f"{r['series']} steps: median {pct(r['step_s'], 0.5) * 1000:.1f} ms, p90 "
                     f"{pct(r['step_s'], 0.9) * 1000:.1f} ms, overtaken {r['overtaken']}, plot "
                     f"{r['plot']['width']}x{r['plot']['height']}  ")
        print(f"rep {rep}: ttff {r.get('ttff_s', float('nan')):.3f} s  {steps}hwm {r.get('vmhwm_kb')} kB"
              f"  maxrss {r['maxrss_kb']} kB {r.get('error', '')}", flush=True)
        time.sleep(0.5)
    ttff = [r["ttff_s"] for r in runs if "ttff_s" in r]
    summary = {
        "ttff_median_s": statistics.median(ttff) if ttff else None,
        "ttff_min_s": min(ttff) if ttff else None,
        "ttff_max_s": max(ttff) if ttff else None,
        "ttff_n": len(ttff),
        "maxrss_kb_max": max((r["maxrss_kb"] or 0) for r in runs),
        "maxrss_kb_ttff_only": max([(r["maxrss_kb"] or 0) for r in runs if not r.get("step_s")] or [0]),
        "vmhwm_kb_max": max((r.get("vmhwm_kb") or 0) for r in runs),
        "vmhwm_first_frame_kb_max": max((r.get("vmhwm_first_frame_kb") or 0) for r in runs),
        "startup_median_s": startup_medians(runs),
    }
    for r in runs:
        if r.get("step_s"):
            v = r["step_s"]
            summary[r["series"]] = {"median_ms": statistics.median(v) * 1000, "p90_ms": pct(v, 0.9) * 1000,
                                    "n": len(v), "overtaken": r["overtaken"], "plot": r["plot"],
                                    "first_ms": v[0] * 1000, "split_median_ms": split_medians(r["splits_ms"])}
    print_startup(summary["startup_median_s"])
    print("summary", json.dumps(summary), flush=True)
    with open(args.out, "w") as f:
        json.dump({"file": args.file, "args": vars(args), "summary": summary, "runs": runs}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
