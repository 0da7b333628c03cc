"""The peer of bench_derived: the same derived fields through xarray, with NumPy here and CuPy on
the GPU machine (--cupy), on the same shapes (daily tas of NT steps, u and v of NT/4).

    python3 bench/peer_derived.py [--nt N] [--nlat N] [--nlon N] [--reps N] [--cupy]

Prints one line per figure, as bench_derived does: a frame of hypot(u, v), an anomaly slice
(against a climatology computed once), a 30-step centred rolling mean at one step, the whole-record
monthly anomaly, and moving the base period (a new climatology and one anomaly frame)."""
import argparse
import time

import numpy as np
import pandas as pd
import xarray as xr


def timed(reps, fn, sync):
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        sync()
        out.append(time.perf_counter() - t0)
    out.sort()
    return out[0], out[len(out) // 2]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--nt", type=int, default=730)
    p.add_argument("--nlat", type=int, default=721)
    p.add_argument("--nlon", type=int, default=1440)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--cupy", action="store_true")
    a = p.parse_args()
    if a.cupy:
        import cupy as xp

        def sync():
            xp.cuda.Stream.null.synchronize()
    else:
        xp = np

        def sync():
            pass

    rng = np.random.default_rng(1)
    nt, ny, nx = a.nt, a.nlat, a.nlon
    nw = max(nt // 4, 1)
    def field(n):
        v = (280 + 4 * rng.standard_normal((n, ny, nx))).astype(np.float32)
        v[rng.random(v.shape) < 1 / 128] = np.nan
        return xp.asarray(v)
    time_ = pd.date_range("1850-01-01", periods=nt, freq="D")
    tas = xr.DataArray(field(nt), dims=("time", "lat", "lon"), coords={"time": time_}, name="tas")
    u = xr.DataArray(field(nw), dims=("time", "lat", "lon"), coords={"time": time_[:nw]})
    v = xr.DataArray(field(nw), dims=("time", "lat", "lon"), coords={"time": time_[:nw]})
    print(f"peer_derived: xarray {xr.__version__} + {'CuPy' if a.cupy else 'NumPy'}: "
          f"tas {nt} x {ny} x {nx} float32 ({nt * ny * nx * 4 / 1e9:.2f} GB)")
    reps = a.reps
    step = [0]

    def next_t(n):
        step[0] = (step[0] + 37) % n
        return step[0]

    def report(label, fn):
        try:
            best, median = timed(reps, fn, sync)
            print(f"  {label:34s} {best * 1e3:9.3f} ms (median {median * 1e3:.3f})")
        except Exception as e:  # an operation xarray cannot do on these arrays: said, not hidden
            print(f"  {label:34s} failed: {type(e).__name__}: {str(e).splitlines()[0][:120]}")

    report("stored frame (isel + copy)", lambda: tas.isel(time=next_t(nt)).copy())
    report("hypot(u, v) frame", lambda: xr.apply_ufunc(xp.hypot, u.isel(time=next_t(nw)), v.isel(time=step[0])))
    base = tas.sel(time=slice("1851", "1851"))
    try:
        clim = base.groupby("time.month").mean("time")
        sync()
        report("anomaly slice (climatology kept)",
               lambda: tas.isel(time=next_t(nt)) - clim.sel(month=int(time_[step[0]].month)))
    except Exception as e:
        print(f"  anomaly slice: failed: {type(e).__name__}: {str(e).splitlines()[0][:120]}")
    report("rolling_mean 30 at one step",
           lambda: tas.isel(time=slice(max(next_t(nt) - 15, 0), step[0] + 15)).mean("time"))
    report("whole-record monthly anomaly", lambda: tas.groupby("time.month") - tas.groupby("time.month").mean("time"))
    years = [1850]

    def move():
        years[0] = 1850 if years[0] >= 1850 + nt // 365 - 1 else years[0] + 1
        c = tas.sel(time=slice("1850", str(years[0]))).groupby("time.month").mean("time")
        t = nt // 2
        return tas.isel(time=t) - c.sel(month=int(time_[t].month))

    report("moving the base period", move)
    # Last: on a machine with little memory xarray's whole-record rolling mean may be killed
    # for its memory (its windowed construction), which would lose the figures above.
    report("rolling_mean 30, whole record", lambda: tas.rolling(time=30, center=True).mean())


if __name__ == "__main__":
    main()
