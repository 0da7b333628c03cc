#!/usr/bin/python3
"""The same view on two paths, compared cell by cell on screen: Strata opened on FILE once as
it runs (on a GPU: the device frame drawn through CUDA-GL interop) and once with
STRATA_CPU=1 (the host frame, raster painter). Each window is set to --size, so that the
frame is drawn at one screen pixel per cell, and grabbed from the X server; the frame's
rectangle is found in each picture (run_app_bench.plot_rect), and the two rectangles are
compared pixel by pixel.

  DISPLAY=:5 python3 compare_paths.py FILE --strata strata --out DIR

Writes DIR/path-default.png, DIR/path-cpu.png and DIR/compare-paths.json (the rectangles, the
renderer each window named, and the number of pixels whose channels differ by more than
--tolerance); exits 1 when the rectangles differ in size or any pixel differs by more."""
import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

from Xlib import X, display

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_app_bench as rb  # noqa: E402


def write_png(path, w, h, rgb):
    def chunk(tag, body):
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + rgb[y * w * 3:(y + 1) * w * 3] for y in range(h))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def grab(d, args, extra_env, name):
    home = tempfile.mkdtemp(prefix="strata-compare-")
    os.makedirs(os.path.join(home, "run"), mode=0o700)
    env = dict(os.environ, STRATA_TRACE_FRAMES="1", HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
               XDG_RUNTIME_DIR=os.path.join(home, "run"), **extra_env)
    proc = subprocess.Popen([args.strata, args.file], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    log = rb.FrameLog(proc.stderr)
    try:
        if log.wait_after(0, args.timeout) is None:
            raise RuntimeError(f"{name}: no frame within {args.timeout} s")
        win = rb.find_window(d, proc.pid)
        if win is None:
            raise RuntimeError(f"{name}: no window")
        w, h = (int(v) for v in args.size.split("x"))
        win.configure(x=0, y=0, width=w, height=h)
        d.sync()
        time.sleep(args.settle)
        rect = rb.plot_rect(d, win)
        g = win.get_geometry()
        img = win.get_image(0, 0, g.width, g.height, X.ZPixmap, 0xFFFFFFFF)
        stride = len(img.data) // g.height
        rgb = bytearray(g.width * g.height * 3)
        for y in range(g.height):
            row = img.data[y * stride:y * stride + 4 * g.width]
            rgb[y * g.width * 3:(y + 1) * g.width * 3] = bytes(
                c for x in range(g.width) for c in (row[4 * x + 2], row[4 * x + 1], row[4 * x]))
        write_png(os.path.join(args.out, f"path-{name}.png"), g.width, g.height, bytes(rgb))
        paths = sorted({ln for ln in log.other if ln.startswith("strata-path")})
        return {"rect": rect, "w": g.width, "h": g.height, "rgb": rgb, "paths": paths}
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(home, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--strata", required=True)
    ap.add_argument("--size", default="2240x1150")
    ap.add_argument("--settle", type=float, default=3.0)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--tolerance", type=int, default=2, help="largest channel difference taken as equal")
    ap.add_argument("--cells", default="",
                    help="WxH: the frame's cells; a pixel whose centre lies within 0.02 pixel of a cell "
                         "edge may show either cell (the GL's single-precision placement) and is skipped")
    ap.add_argument("--env", action="append", default=[], help="NAME=VALUE for both windows (QT_SCALE_FACTOR=2)")
    ap.add_argument("--name", default="", help="a suffix for the pictures and the JSON")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    d = display.Display()
    extra = dict(kv.split("=", 1) for kv in args.env)
    a = grab(d, args, dict(extra), "default" + args.name)
    b = grab(d, args, dict(extra, STRATA_CPU="1"), "cpu" + args.name)
    ra, rb_ = a["rect"], b["rect"]
    res = {"file": args.file, "env": extra, "size": args.size, "default": {"rect": ra, "paths": a["paths"]},
           "cpu": {"rect": rb_, "paths": b["paths"]}}
    ok = (ra["width"], ra["height"]) == (rb_["width"], rb_["height"]) and ra["width"] > 0
    if ok:
        differ, worst, skipped = 0, 0, 0
        nx, ny = (int(v) for v in args.cells.split("x")) if args.cells else (0, 0)

        def on_edge(i, pixels, cells):  # pixel i's centre within 0.02 px of a cell edge
            if not cells or pixels == cells:
                return False
            u = (i + 0.5) * cells / pixels
            return min(u - int(u), 1 - (u - int(u))) * pixels / cells < 0.02

        for y in range(ra["height"]):
            ia = ((ra["y"] + y) * a["w"] + ra["x"]) * 3
            ib = ((rb_["y"] + y) * b["w"] + rb_["x"]) * 3
            pa, pb = a["rgb"][ia:ia + ra["width"] * 3], b["rgb"][ib:ib + ra["width"] * 3]
            if pa == pb:
                continue
            for x in range(0, len(pa), 3):
                if on_edge(x // 3, ra["width"], nx) or on_edge(y, ra["height"], ny):
                    skipped += pa[x:x + 3] != pb[x:x + 3]
                    continue
                dmax = max(abs(pa[x] - pb[x]), abs(pa[x + 1] - pb[x + 1]), abs(pa[x + 2] - pb[x + 2]))
                worst = max(worst, dmax)
                differ += dmax > args.tolerance
        res.update(pixels=ra["width"] * ra["height"], differing=differ, worst_channel_difference=worst,
                   differing_on_cell_edges=skipped)
        ok = differ == 0
    res["same"] = ok
    print(json.dumps({k: v for k, v in res.items()}, indent=1))
    with open(os.path.join(args.out, f"compare-paths{args.name}.json"), "w") as f:
        json.dump(res, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
