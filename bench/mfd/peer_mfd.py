#!/usr/bin/python3
"""The peer of bench_mfd: the same steps with xarray.open_mfdataset(combine="by_coords") (Debian's
python3-xarray and python3-dask), each on a fresh open, page cache warm.

    peer_mfd.py DIR [--reps 3] [--no-mean]

Prints JSON lines like bench_mfd's."""
import glob
import json
import os
import statistics
import sys
import time

import numpy as np
import xarray as xr

d = sys.argv[1]
reps = int(sys.argv[sys.argv.index("--reps") + 1]) if "--reps" in sys.argv else 3
files = sorted(glob.glob(os.path.join(d, "*.nc")))
times = {k: [] for k in ["open", "first frame (721x1440)", "first series through a point",
                         "second series (handles cached)", "Hovmoller slab (time x lon)", "next Hovmoller step"]}
for r in range(reps):
    t0 = time.perf_counter()
    ds = xr.open_mfdataset(files, combine="by_coords")
    times["open"].append(time.perf_counter() - t0)
    n = ds.sizes["time"]
    steps = [("first frame (721x1440)", lambda: ds.tas.isel(time=n // 2).values),
             ("first series through a point", lambda: ds.tas.isel(lat=360, lon=720).values),
             ("second series (handles cached)", lambda: ds.tas.isel(lat=100, lon=10).values),
             ("Hovmoller slab (time x lon)", lambda: ds.tas.isel(lat=200).values),
             ("next Hovmoller step", lambda: ds.tas.isel(lat=201).values)]
    out = {}
    for name, f in steps:
        t0 = time.perf_counter()
        out[name] = f()
        times[name].append(time.perf_counter() - t0)
    s = out["first series through a point"]
    assert np.allclose(s - s[0], 0.01 * np.arange(n), atol=1e-3), "series out of order"
    ds.close()
for k, t in times.items():
    print(json.dumps({"measure": k, "best_s": round(min(t), 4), "median_s": round(statistics.median(t), 4),
                      "files": len(files), "peer": "xarray " + xr.__version__ + " open_mfdataset"}), flush=True)
if "--no-mean" not in sys.argv:
    ds = xr.open_mfdataset(files, combine="by_coords")
    t = []
    for r in range(max(1, reps - 1)):
        t0 = time.perf_counter()
        ds.tas.mean("time").values
        t.append(time.perf_counter() - t0)
    gb = ds.sizes["time"] * 721 * 1440 * 4 / 1e9
    print(json.dumps({"measure": "mean over time (dask)", "best_s": round(min(t), 4),
                      "median_s": round(statistics.median(t), 4), "files": len(files), "gb": round(gb, 2),
                      "gb_per_s": round(gb / min(t), 2), "peer": "xarray " + xr.__version__ + " open_mfdataset"}),
          flush=True)
