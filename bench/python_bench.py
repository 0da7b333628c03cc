#!/usr/bin/env python3
"""The Python module's figures, side by side with the stack a scientist would use (run on the
GPU machine with CuPy; the window's figure needs a display):

    python_bench.py open FILE [--var air] [--reps 3]
        strata.open(FILE, device="cuda")[var] against xr.open_dataset(FILE, engine="netcdf4")
        (h5py's read where that engine is missing) followed by cupy.asarray (what cupy-xarray's
        as_cupy() does), page cache warm.
    python_bench.py show [--shape 1000,721,1440] [--reps 3]
        strata.show(da_cupy) until view.frame() returns (the frame ready on the device; a new
        window each time), against da.get() then matplotlib's imshow saved to a PNG.

Prints JSON lines: best and median seconds; figures go to bench/RESULTS.md, never into tests."""
import argparse
import json
import os
import tempfile
import time

p = argparse.ArgumentParser()
p.add_argument("what", choices=["open", "show"])
p.add_argument("file", nargs="?")
p.add_argument("--var", default="air")
p.add_argument("--shape", default="1000,721,1440")
p.add_argument("--reps", type=int, default=3)
p.add_argument("--device", default="cuda", help='"cpu": NumPy on both sides (no CuPy needed)')
a = p.parse_args()


def timed(label, fn, nbytes=None):
    t = []
    for _ in range(a.reps):
        t0 = time.perf_counter()
        fn()
        t.append(time.perf_counter() - t0)
    t.sort()
    row = {"measure": label, "best_s": round(t[0], 4), "median_s": round(t[len(t) // 2], 4)}
    if nbytes:
        row["gb_per_s"] = round(nbytes / t[0] / 1e9, 2)
    print(json.dumps(row), flush=True)


import numpy as np  # noqa: E402
import xarray as xr  # noqa: E402

if a.device == "cpu":
    cupy = None
else:
    import cupy

import strata  # noqa: E402

if a.what == "open":
    def ours():
        v = strata.open(a.file, device=a.device)[a.var].data
        if cupy is not None:
            cupy.cuda.get_current_stream().synchronize()
        return v

    def peer():
        try:
            with xr.open_dataset(a.file, engine="netcdf4") as ds:
                v = ds[a.var].values
        except (ImportError, ValueError):  # no netcdf4 engine (the GPU machine): h5py, as peer_ingest.py
            import h5py
            with h5py.File(a.file, "r") as f:
                v = f[a.var][...]
        if cupy is not None:
            v = cupy.asarray(v)
            cupy.cuda.get_current_stream().synchronize()
        return v

    n = ours().nbytes
    print(json.dumps({"file": a.file, "var": a.var, "bytes": n, "device": a.device}))
    timed("strata.open to " + ("NumPy" if cupy is None else "CuPy"), ours, n)
    timed("xarray netcdf4" + ("" if cupy is None else " + cupy.asarray (as_cupy)"), peer, n)
else:
    shape = tuple(int(s) for s in a.shape.split(","))
    data = cupy.random.default_rng(1).standard_normal(shape, dtype=cupy.float32)
    da = xr.DataArray(data, dims=("time", "lat", "lon"), name="t")

    def ours():
        view = strata.show(da)
        view.frame()
        cupy.cuda.get_current_stream().synchronize()
        view.close()

    def peer():
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        host = da.data.get()  # the whole array, as the peer does
        fig, ax = plt.subplots()
        ax.imshow(host[0])
        fig.savefig(os.path.join(tempfile.gettempdir(), "peer.png"))
        plt.close(fig)

    timed("strata.show to frame ready on the device", ours)
    try:
        timed("da.get() + matplotlib imshow to PNG (one frame)", peer)
    except ImportError as e:
        print(json.dumps({"measure": "matplotlib", "skipped": str(e)}))
