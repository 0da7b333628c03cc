#!/usr/bin/env python3
"""Dask-backed data through Strata (issue 38's figures), on a LocalCluster of two worker
processes here:

    dask_bench.py [--shape 365,361,720] [--chunk 30] [--reps 3] [--dir DIR]
    dask_bench.py --synthetic-gb 10 [--chunk 24] [--reps 2] [--frames-only] [--check-area-mean]
    dask_bench.py --file PATH [--var air] [--chunk 30] [--reps 3]

With --file, an existing file (the peers' air_zlib1.nc, say) is read whole in the workers, a sum
of every chunk, with engine="strata" and engine="netcdf4" in turn, chunks of --chunk steps along
its first dim (read_strata / read_netcdf4, one of each per round, the order alternating).

writes a zlib-compressed float32 netCDF-4 series of that shape (chunked by --chunk steps) and
times, with the page cache warm (with --synthetic-gb, no file: a float32 array of that many GB
of 721 x 1440 steps whose values a function computes region by region in the workers, chunked
by --chunk steps, with the same figures and area_mean):
  first_frame     the first frame of the Dask-backed variable through Strata's frame pipeline
                  (_strata._compute_frame: what the window computes), client and cluster warm;
                  with --synthetic-gb also of three other arrays as big (first_frame_other_variables)
  step            each next step (one chunk's region each), against one_chunk: the compute of
                  one whole chunk of the same array on the same cluster (one_chunk_on_worker:
                  computed and kept there, nothing sent back), and step_dask_alone: xarray's
                  ds.tas[t].compute() of other steps; step_told: steps with a progress listener
                  (as strata.show's status bar has)
  mean_time       the mean over time as the window asks for it (a Dask reduction by Strata)
                  against xarray's own ds.tas.mean("time").compute()
  read_strata / read_netcdf4
                  every chunk read in the workers (a sum over the whole array) with
                  engine="strata" and engine="netcdf4", the same chunks
  area_mean       (--synthetic-gb) the cos(latitude)-weighted mean of every step as the window
                  asks for it (one Dask reduction by Strata) against xarray's
                  ds.tas.weighted(cos(lat)).mean(("lat", "lon")).compute()
Prints JSON lines (best and median seconds); figures go to bench/RESULTS.md, never into tests."""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

import numpy as np


class Synthetic:
    """A float32 (time, lat, lon) array computed where it is read, region by region: a smooth
    field that drifts with time, plus an offset per step (no two steps alike), 1 % NaN moving a cell a step.
    Pickles as its shape and seed (what a worker needs to compute any region)."""

    def __init__(self, shape, seed=0):
        self.shape = tuple(shape)
        self.seed = seed
        self.dtype = np.dtype(np.float32)
        self.ndim = 3

    def __reduce__(self):
        return (Synthetic, (self.shape, self.seed))

    def __getitem__(self, key):
        key = tuple(key) + (slice(None),) * (3 - len(tuple(key)))
        t, y, x = (np.atleast_1d(np.arange(n)[k]) for n, k in zip(self.shape, key))
        lat = np.deg2rad(np.linspace(-90, 90, self.shape[1]))[y]
        lon = np.deg2rad(np.linspace(0, 360, self.shape[2], endpoint=False))[x]
        field = (280 + 30 * np.cos(lat)[:, None] + 5 * np.sin(2 * lon)[None, :]).astype(np.float32)
        out = field[None] + (0.01 * t + np.sin(t + self.seed))[:, None, None].astype(np.float32)
        missing = ((y[:, None] * 104729 + np.arange(self.shape[2])[None, :] * 7919) % 100) == 0
        for i, step in enumerate(t):  # the missing cells move east a cell a step
            out[i][np.roll(missing, int(step), axis=1)[:, x]] = np.nan
        return out[tuple(0 if isinstance(k, (int, np.integer)) else slice(None) for k in key)]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shape", default="365,361,720")
    p.add_argument("--chunk", type=int, default=30)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--dir", default=None)
    p.add_argument("--synthetic-gb", type=float, default=0)
    p.add_argument("--frames-only", action="store_true", help="first frame and steps, no whole-array pass")
    p.add_argument("--check-area-mean", action="store_true", help="compare the area means once first")
    p.add_argument("--file", default=None, help="an existing file: read it whole with both engines")
    p.add_argument("--var", default="air", help="--file's variable")
    args = p.parse_args()
    if args.file:
        read_file(args)
        return
    nt, ny, nx = (int(n) for n in args.shape.split(","))
    if args.synthetic_gb:
        ny, nx = 721, 1440
        nt = int(args.synthetic_gb * 1e9 / (ny * nx * 4))

    import dask.array as da  # noqa: E402
    import netCDF4  # noqa: E402
    import xarray as xr  # noqa: E402
    from dask.distributed import Client, LocalCluster, wait  # noqa: E402

    import strata  # noqa: E402
    from strata import _strata  # noqa: E402
    from strata.convert import _strata_dataset  # noqa: E402


    def timed(fn, reps=None):
        reps = reps or args.reps
        times = []
        for _ in range(reps):
            time.sleep(1)  # the last result forgotten by the workers, not found there again
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        # The first is the one to quote where a result may still be in the workers' memory
        # when the same computation comes again (distributed forgets keys asynchronously).
        return {"first_s": round(times[0], 4), "best_s": round(min(times), 4),
                "median_s": round(statistics.median(times), 4)}


    def say(name, **fields):
        print(json.dumps({"bench": name, **fields}), flush=True)


    if args.synthetic_gb:
        data = da.from_array(Synthetic((nt, ny, nx)), chunks=(args.chunk, ny, nx), asarray=False)
        coords = {"lat": ("lat", np.linspace(-90, 90, ny), {"units": "degrees_north"}),
                  "lon": ("lon", np.linspace(0, 360, nx, endpoint=False), {"units": "degrees_east"})}
        tas = xr.DataArray(data, dims=("time", "lat", "lon"), coords=coords, name="tas")
        ds = tas.to_dataset()
        say("synthetic", shape=[nt, ny, nx], chunk=args.chunk, bytes=nt * ny * nx * 4,
            chunks=len(data.chunks[0]), note="computed region by region in the workers; no file")
    else:
        tmp = tempfile.TemporaryDirectory(dir=args.dir)
        path = os.path.join(tmp.name, "series.nc")
        with netCDF4.Dataset(path, "w") as f:
            f.createDimension("time", nt)
            f.createDimension("lat", ny)
            f.createDimension("lon", nx)
            f.createVariable("lat", "f8", ("lat",))[:] = np.linspace(-90, 90, ny)
            f.createVariable("lon", "f8", ("lon",))[:] = np.linspace(0, 360, nx, endpoint=False)
            v = f.createVariable("tas", "f4", ("time", "lat", "lon"), chunksizes=(args.chunk, ny, nx),
                                 zlib=True, complevel=1)
            rng = np.random.default_rng(0)
            for t in range(0, nt, args.chunk):
                n = min(args.chunk, nt - t)
                v[t:t + n] = (rng.standard_normal((n, ny, nx)) * 10 + 280).astype(np.float32)
        say("file", shape=[nt, ny, nx], chunk=args.chunk, bytes=nt * ny * nx * 4, on_disk=os.path.getsize(path))

    cluster = LocalCluster(processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None)
    client = Client(cluster)
    chunks = {"time": args.chunk}
    if not args.synthetic_gb:
        ds = xr.open_dataset(path, engine="strata", chunks=chunks)
    fetches = []
    held, _, _ = _strata_dataset(ds.tas, dask=fetches)


    def frame(t=None, reductions=(), x="lon", y="lat", area_weighted=False):
        indices = [] if t is None else [("time", t)]
        return strata.as_array(_strata._compute_frame(held, "tas", x, y, indices, list(reductions), "cpu",
                                                      area_weighted))


    t0 = time.perf_counter()
    frame(0)
    say("first_frame", seconds=round(time.perf_counter() - t0, 4), note="client and workers started before")
    if args.synthetic_gb:  # the first frame of other variables as big, the cluster warm
        firsts = []
        for seed in (1, 2, 3):
            other = xr.DataArray(da.from_array(Synthetic((nt, ny, nx), seed), chunks=(args.chunk, ny, nx),
                                               asarray=False), dims=("time", "lat", "lon"), name="tas")
            other_held, _, _ = _strata_dataset(other)
            t0 = time.perf_counter()
            strata.as_array(_strata._compute_frame(other_held, "tas", "lon", "lat", [("time", 0)], [], "cpu"))
            firsts.append(time.perf_counter() - t0)
        say("first_frame_other_variables", best_s=round(min(firsts), 4), median_s=round(statistics.median(firsts), 4),
            n=len(firsts))
    steps = []
    for t in range(1, min(nt, 3 * args.chunk), 7):
        t0 = time.perf_counter()
        frame(t)
        steps.append(time.perf_counter() - t0)
    say("step", best_s=round(min(steps), 4), median_s=round(statistics.median(steps), 4), n=len(steps))
    fetches[0].on_progress = lambda *told: None  # as strata.show listens: the status bar's count
    steps = []
    for t in range(4, min(nt, 3 * args.chunk), 7):
        t0 = time.perf_counter()
        frame(t)
        steps.append(time.perf_counter() - t0)
    fetches[0].on_progress = None
    say("step_told", best_s=round(min(steps), 4), median_s=round(statistics.median(steps), 4), n=len(steps),
        note="with a progress listener, as strata.show has")
    say("one_chunk", **timed(lambda: ds.tas[args.chunk:2 * args.chunk].compute()))

    def chunk_on_worker():  # its compute alone: kept in the worker, not sent back
        f = client.persist(ds.tas.data[args.chunk:2 * args.chunk])
        wait(f)
        del f

    say("one_chunk_on_worker", **timed(chunk_on_worker))
    dask_steps = []
    for t in range(2, min(nt, 3 * args.chunk), 7):  # other steps than Strata's: none cached
        t0 = time.perf_counter()
        ds.tas[t].compute()
        dask_steps.append(time.perf_counter() - t0)
    say("step_dask_alone", best_s=round(min(dask_steps), 4), median_s=round(statistics.median(dask_steps), 4),
        n=len(dask_steps), note="xarray's ds.tas[t].compute() on the same cluster")
    if args.frames_only:
        client.close()
        cluster.close()
        sys.exit(0)
    if args.synthetic_gb:  # a whole pass takes a minute here: one of each per round, in turn
        weights = np.cos(np.deg2rad(ds.lat))
        passes = {
            "mean_time_xarray": lambda: ds.tas.mean("time").compute(),
            "mean_time_strata_dask": lambda: frame(reductions=[("time", "mean")]),
            "area_mean_xarray": lambda: ds.tas.weighted(weights).mean(("lat", "lon")).compute(),
            "area_mean_strata_dask": lambda: frame(reductions=[("lat", "mean"), ("lon", "mean")], x="time", y="",
                                                   area_weighted=True),
        }
        if args.check_area_mean:
            mine = np.asarray(passes["area_mean_strata_dask"]())
            theirs = passes["area_mean_xarray"]().values
            say("area_mean_agree", max_abs_diff=float(np.nanmax(np.abs(mine - theirs))))
        for r in range(args.reps):
            for what in ("mean_time", "area_mean"):
                order = ("strata_dask", "xarray") if r % 2 else ("xarray", "strata_dask")
                for who in order:
                    say(f"{what}_{who}", round=r, **timed(passes[f"{what}_{who}"], reps=1))
        client.close()
        cluster.close()
        sys.exit(0)
    say("mean_time_xarray", **timed(lambda: ds.tas.mean("time").compute()))
    say("mean_time_strata_dask", **timed(lambda: frame(reductions=[("time", "mean")])))
    ref = xr.open_dataset(path, engine="netcdf4", chunks=chunks)
    say("read_strata", **timed(lambda: float(ds.tas.sum().compute())))
    say("read_netcdf4", **timed(lambda: float(ref.tas.sum().compute())))
    client.close()
    cluster.close()
    sys.exit(0)


def read_file(args):
    """--file: every chunk of args.var read (summed) in two workers, by each engine in turn."""
    import netCDF4  # noqa: E402
    import xarray as xr  # noqa: E402
    from dask.distributed import Client, LocalCluster  # noqa: E402

    import strata  # noqa: E402,F401  (registers the engine)

    with netCDF4.Dataset(args.file) as f:
        v = f.variables[args.var]
        first = v.dimensions[0]
        print(json.dumps({"bench": "file", "path": args.file, "shape": list(v.shape), "dtype": str(v.dtype),
                          "file_chunks": v.chunking(), "filters": v.filters(),
                          "on_disk": os.path.getsize(args.file)}), flush=True)
    cluster = LocalCluster(processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None)
    client = Client(cluster)
    chunks = {first: args.chunk}
    opened = {engine: xr.open_dataset(args.file, engine=engine, chunks=chunks) for engine in ("strata", "netcdf4")}
    sums = {}
    for r in range(args.reps):
        order = ("strata", "netcdf4") if r % 2 == 0 else ("netcdf4", "strata")
        for engine in order:
            time.sleep(1)
            t0 = time.perf_counter()
            sums[engine] = float(opened[engine][args.var].sum().compute())
            print(json.dumps({"bench": f"read_{engine}", "round": r, "seconds": round(time.perf_counter() - t0, 3),
                              "sum": sums[engine]}), flush=True)
    client.close()
    cluster.close()


if __name__ == "__main__":  # the workers (processes spawned) import this file: nothing at import
    main()
