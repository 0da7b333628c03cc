#!/usr/bin/env python3
"""Dask-backed data through Strata (issue 38's figures), on a LocalCluster of two worker
processes here:

    dask_bench.py [--shape 365,361,720] [--chunk 30] [--reps 3] [--dir DIR]

writes a zlib-compressed float32 netCDF-4 series of that shape (chunked by --chunk steps) and
times, with the page cache warm:
  first_frame     the first frame of the Dask-backed variable through Strata's frame pipeline
                  (_strata._compute_frame: what the window computes), client and cluster warm
  step            each next step (one chunk's region each), against one_chunk: the compute of
                  one whole chunk of the same array on the same cluster
  mean_time       the mean over time as the window asks for it (a Dask reduction by Strata)
                  against xarray's own ds.tas.mean("time").compute()
  read_strata / read_netcdf4
                  every chunk read in the workers (a sum over the whole array) with
                  engine="strata" and engine="netcdf4", the same chunks
Prints JSON lines (best and median seconds); figures go to bench/RESULTS.md, never into tests."""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

import numpy as np

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shape", default="365,361,720")
    p.add_argument("--chunk", type=int, default=30)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--dir", default=None)
    args = p.parse_args()
    nt, ny, nx = (int(n) for n in args.shape.split(","))

    import netCDF4  # noqa: E402
    import xarray as xr  # noqa: E402
    from dask.distributed import Client, LocalCluster  # noqa: E402

    import strata  # noqa: E402
    from strata import _strata  # noqa: E402
    from strata.convert import _strata_dataset  # noqa: E402


    def timed(fn, reps=None):
        reps = reps or args.reps
        times = []
        for _ in range(reps):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        # The first is the one to quote where a result may still be in the workers' memory
        # when the same computation comes again (distributed forgets keys asynchronously).
        return {"first_s": round(times[0], 4), "best_s": round(min(times), 4),
                "median_s": round(statistics.median(times), 4)}


    def say(name, **fields):
        print(json.dumps({"bench": name, **fields}), flush=True)


    tmp = tempfile.TemporaryDirectory(dir=args.dir)
    path = os.path.join(tmp.name, "series.nc")
    with netCDF4.Dataset(path, "w") as f:
        f.createDimension("time", nt)
        f.createDimension("lat", ny)
        f.createDimension("lon", nx)
        f.createVariable("lat", "f8", ("lat",))[:] = np.linspace(-90, 90, ny)
        f.createVariable("lon", "f8", ("lon",))[:] = np.linspace(0, 360, nx, endpoint=False)
        v = f.createVariable("tas", "f4", ("time", "lat", "lon"), chunksizes=(args.chunk, ny, nx), zlib=True,
                             complevel=1)
        rng = np.random.default_rng(0)
        for t in range(0, nt, args.chunk):
            n = min(args.chunk, nt - t)
            v[t:t + n] = (rng.standard_normal((n, ny, nx)) * 10 + 280).astype(np.float32)
    say("file", shape=[nt, ny, nx], chunk=args.chunk, bytes=nt * ny * nx * 4, on_disk=os.path.getsize(path))

    cluster = LocalCluster(processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None)
    client = Client(cluster)
    chunks = {"time": args.chunk}
    ds = xr.open_dataset(path, engine="strata", chunks=chunks)
    held, _, _ = _strata_dataset(ds.tas)


    def frame(t=None, reductions=()):
        indices = [] if t is None else [("time", t)]
        return strata.as_array(_strata._compute_frame(held, "tas", "lon", "lat", indices, list(reductions), "cpu"))


    t0 = time.perf_counter()
    frame(0)
    say("first_frame", seconds=round(time.perf_counter() - t0, 4), note="client and workers started before")
    steps = []
    for t in range(1, min(nt, 3 * args.chunk), 7):
        t0 = time.perf_counter()
        frame(t)
        steps.append(time.perf_counter() - t0)
    say("step", best_s=round(min(steps), 4), median_s=round(statistics.median(steps), 4), n=len(steps))
    say("one_chunk", **timed(lambda: ds.tas[args.chunk:2 * args.chunk].compute()))
    say("mean_time_xarray", **timed(lambda: ds.tas.mean("time").compute()))
    say("mean_time_strata_dask", **timed(lambda: frame(reductions=[("time", "mean")])))
    ref = xr.open_dataset(path, engine="netcdf4", chunks=chunks)
    say("read_strata", **timed(lambda: float(ds.tas.sum().compute())))
    say("read_netcdf4", **timed(lambda: float(ref.tas.sum().compute())))
    client.close()
    cluster.close()
    sys.exit(0)


if __name__ == "__main__":  # the workers (processes spawned) import this file: nothing at import
    main()
