#!/usr/bin/env python3
"""The ingest benchmark's peers: a whole variable read from a file (page cache warm) by the
Python stack a scientist would use, side by side with bench_ingest in the same run.

    peer_ingest.py FILE [--var air] [--reps 3]

Prints JSON lines like bench_ingest's: xarray's netcdf4 and h5netcdf engines where installed,
else h5py's read (what the h5netcdf engine calls), and, where CuPy is installed, the same read
followed by cupy.asarray (onto the GPU, as a CuPy-backed DataArray gets there)."""
import argparse, json, time

p = argparse.ArgumentParser()
p.add_argument("file")
p.add_argument("--var", default="air")
p.add_argument("--reps", type=int, default=3)
a = p.parse_args()


def timed(fn):
    t = []
    for _ in range(a.reps):
        t0 = time.perf_counter()
        out = fn()
        t.append(time.perf_counter() - t0)
    t.sort()
    return t[0], t[len(t) // 2], out


def report(what, mode, fn):
    try:
        best, med, out = timed(fn)
    except Exception as e:  # an engine that is not installed: say so and go on
        print(json.dumps({"file": a.file, "measure": what, "mode": mode, "skipped": str(e)[:200]}), flush=True)
        return None
    nbytes = out.nbytes
    print(json.dumps({"file": a.file, "measure": what, "mode": mode, "best_s": round(best, 4), "median_s": round(med, 4),
                      "gb_per_s": round(nbytes / best / 1e9, 2)}), flush=True)
    return out


def xr_read(engine):
    import xarray as xr

    def go():
        with xr.open_dataset(a.file, engine=engine, mask_and_scale=False, decode_times=False) as ds:
            return ds[a.var].values
    return go


def h5_read():
    import h5py
    with h5py.File(a.file, "r") as f:
        return f[a.var][...]


report("read to host", "xarray netcdf4", xr_read("netcdf4"))
report("read to host", "xarray h5netcdf", xr_read("h5netcdf"))
report("read to host", "h5py", h5_read)
try:
    import cupy

    def to_gpu(read):
        def go():
            g = cupy.asarray(read())
            cupy.cuda.Device().synchronize()
            return g
        return go
    report("load onto cuda:0", "h5py + cupy.asarray", to_gpu(h5_read))
    report("load onto cuda:0", "xarray netcdf4 + cupy.asarray", to_gpu(xr_read("netcdf4")))
except ImportError:
    pass
