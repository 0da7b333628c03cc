#!/usr/bin/python3
"""The Zarr benchmark's peers, side by side with bench_zarr in the same run: the same store read
whole by zarr-python and by xarray (open_zarr + .values), and xarray's time to the first frame
(open, isel of the first step, .values); where CuPy is installed, the read then cupy.asarray.
Where tensorstore is installed (the GPU machine, which may lack zarr-python and xarray), it is a
peer too: the store read whole, the first step, and the read then cupy.asarray. A peer that is
not installed prints one line saying so ("skipped") and the others go on. Where CuPy is
installed, the host-to-device copy of an array as large as the variable is timed alone: the part
to add to a read to the host made in a Python without CuPy.

    peer_zarr.py STORE [--var data] [--reps 3]
"""
import argparse
import json
import importlib.util
import os
import time

import numpy as np

p = argparse.ArgumentParser()
p.add_argument("store")
p.add_argument("--var", default="data")
p.add_argument("--reps", type=int, default=3)
a = p.parse_args()


def report(what, mode, fn, needs=()):
    missing = [m for m in needs if importlib.util.find_spec(m) is None]
    if missing:
        print(json.dumps({"measure": what, "mode": mode, "skipped": "not installed here: " + ", ".join(missing)}),
              flush=True)
        return
    t = []
    try:
        for _ in range(a.reps):
            t0 = time.perf_counter()
            out = fn()
            t.append(time.perf_counter() - t0)
    except Exception as e:  # a peer that is not installed: say so and go on
        print(json.dumps({"measure": what, "mode": mode, "skipped": str(e)[:200]}), flush=True)
        return
    t.sort()
    print(json.dumps({"measure": what, "mode": mode, "best_s": round(t[0], 4), "median_s": round(t[len(t) // 2], 4),
                      "gb_per_s": round(out.nbytes / t[0] / 1e9, 2)}), flush=True)


def zarr_read():
    import zarr
    return zarr.open_group(a.store, mode="r")[a.var][...]


def xr_first():
    import xarray as xr
    v = xr.open_zarr(a.store)[a.var]
    return v.isel({d: 0 for d in v.dims[:-2]}).values


def xr_read():
    import xarray as xr
    return xr.open_zarr(a.store)[a.var].values


def cupy_read():
    import cupy
    out = cupy.asarray(xr_read())
    cupy.cuda.Stream.null.synchronize()
    return out


def ts_open():
    import tensorstore as ts
    return ts.open({"driver": "zarr", "kvstore": {"driver": "file", "path": os.path.join(a.store, a.var)}},
                   open=True, read=True).result()


def ts_first():
    v = ts_open()
    return v[(0,) * (v.rank - 2)].read().result()


def ts_read():
    return ts_open().read().result()


def ts_cupy():
    import cupy
    out = cupy.asarray(ts_read())
    cupy.cuda.Stream.null.synchronize()
    return out


def h2d():
    """cupy.asarray of a NumPy array as large as the variable: what cupy.asarray adds to a read
    to the host, for a peer run in a Python without CuPy (Debian's, carried to the GPU machine)."""
    import cupy
    meta = json.load(open(os.path.join(a.store, a.var, ".zarray")))
    host = np.ones(meta["shape"], dtype=np.dtype(meta["dtype"]))
    t0 = time.perf_counter()
    out = cupy.asarray(host)
    cupy.cuda.Stream.null.synchronize()
    h2d.seconds.append(time.perf_counter() - t0)
    return out


h2d.seconds = []


report("time to first frame (open + one 2-D slab)", "xarray", xr_first, ("xarray", "zarr"))
report("time to first frame (open + one 2-D slab)", "tensorstore", ts_first, ("tensorstore",))
report("read to host", "zarr-python", zarr_read, ("zarr",))
report("read to host", "xarray", xr_read, ("xarray", "zarr"))
report("read to host", "tensorstore", ts_read, ("tensorstore",))
report("load onto the GPU", "xarray + cupy.asarray", cupy_read, ("xarray", "zarr", "cupy"))
report("load onto the GPU", "tensorstore + cupy.asarray", ts_cupy, ("tensorstore", "cupy"))
if importlib.util.find_spec("cupy") is not None and os.path.exists(os.path.join(a.store, a.var, ".zarray")):
    report("host to device copy alone (NumPy array to cupy.asarray, pageable)", "cupy", h2d, ("cupy",))
    print(json.dumps({"measure": "host to device copy alone, without allocating the host array",
                      "mode": "cupy", "best_s": round(min(h2d.seconds), 4)}), flush=True)
