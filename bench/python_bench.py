#!/usr/bin/env python3
"""The Python module's figures, side by side with the stack a scientist would use (run on the
GPU machine with CuPy; the window's figure needs a display):

    python_bench.py open FILE [--var air] [--reps 3] [--device cuda]
        strata.open(FILE, device="cuda")[var] against xarray's read followed by cupy.asarray
        (what cupy-xarray's as_cupy() does), page cache warm. The peer is the first installed of
        xr.open_dataset(engine="netcdf4"), xr.open_dataset(engine="h5netcdf"), h5py (netCDF-4
        files only); the "peer" line says which. With CuPy, cupy.asarray of a NumPy array of that
        size is timed alone too.
    python_bench.py open FILE --peer-only --device cpu
        the peer's read to NumPy alone: for Debian's Python carried to the GPU machine
        (scripts/gpu-peers.sh), which has the netCDF4 engine but no CuPy; its read plus the copy
        above is xr.open_dataset(engine="netcdf4").as_cupy() measured in two Pythons.
    python_bench.py show [--shape 1000,721,1440] [--reps 3] [--device cuda]
        strata.show(da_cupy) until view.frame() returns (the frame drawn, and on the device; a
        new window each time; "first_s" is the first, with Qt's and GL's start), with the
        automatic range and with vmin/vmax; against da.get() alone and da.get() then
        matplotlib's imshow saved to a PNG (a line says when matplotlib is not installed).
        --device cpu: NumPy data (a check of the script without a GPU).

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
p.add_argument("--peer-only", action="store_true",
               help="open: the peer's read to NumPy alone (for a Python that has netCDF4 but not Strata's GPU side)")
a = p.parse_args()


def timed(label, fn, nbytes=None):
    t = []
    for _ in range(a.reps):
        t0 = time.perf_counter()
        fn()
        t.append(time.perf_counter() - t0)
    first = t[0]
    t.sort()
    row = {"measure": label, "best_s": round(t[0], 4), "median_s": round(t[len(t) // 2], 4),
           "first_s": round(first, 4)}
    if nbytes:
        row["gb_per_s"] = round(nbytes / t[0] / 1e9, 2)
    print(json.dumps(row), flush=True)


import numpy as np  # noqa: E402
import xarray as xr  # noqa: E402

if a.device == "cpu":
    cupy = None
else:
    import cupy

if not a.peer_only:
    import strata  # noqa: E402


def sync():
    if cupy is not None:
        cupy.cuda.get_current_stream().synchronize()


def peer_reader():
    """The first installed of xarray's netcdf4 engine, its h5netcdf engine, and h5py."""
    engines = xr.backends.list_engines()  # those whose library is installed
    for engine in ("netcdf4", "h5netcdf"):
        if engine not in engines:
            print(json.dumps({"peer": f"xarray engine={engine}", "skipped": "not installed"}), flush=True)
            continue

        def read(engine=engine):
            with xr.open_dataset(a.file, engine=engine) as ds:
                return ds[a.var].values
        return f"xr.open_dataset(engine={engine!r})", read
    import h5py

    def read():
        with h5py.File(a.file, "r") as f:
            return f[a.var][...]
    return "h5py", read


if a.what == "open":
    def ours():
        v = strata.open(a.file, device=a.device)[a.var].data
        sync()
        return v

    if not a.peer_only:
        n = ours().nbytes
        print(json.dumps({"file": a.file, "var": a.var, "bytes": n, "device": a.device}), flush=True)
        timed("strata.open to " + ("NumPy" if cupy is None else "CuPy"), ours, n)
    try:
        name, read = peer_reader()
        if a.peer_only:
            n = read().nbytes  # (else ours gave it: no read of the whole file just for its size)
    except Exception as e:  # noqa: BLE001 -- a peer that cannot run here: say so, keep our figures
        print(json.dumps({"peer": "the first of netcdf4, h5netcdf, h5py", "skipped": str(e)[:200]}), flush=True)
        name = None

    def peer():
        v = read()
        if cupy is not None:
            v = cupy.asarray(v)
            sync()
        return v

    if name and a.peer_only:
        print(json.dumps({"file": a.file, "var": a.var, "bytes": n, "peer": name}), flush=True)
        timed(name + " to NumPy", read, n)
    elif name:
        timed(name + ("" if cupy is None else " + cupy.asarray (as_cupy)"), peer, n)
    if cupy is not None:
        # What as_cupy() adds to a read to NumPy made elsewhere (a Python without CuPy).
        host = np.ones(n, dtype=np.uint8)

        def copy():
            cupy.asarray(host)
            sync()
        timed("cupy.asarray alone (a NumPy array of that size, pageable)", copy, n)
else:
    shape = tuple(int(s) for s in a.shape.split(","))
    if cupy is None:
        data = np.random.default_rng(1).standard_normal(shape, dtype=np.float32)
    else:
        data = cupy.random.default_rng(1).standard_normal(shape, dtype=cupy.float32)
    da = xr.DataArray(data, dims=("time", "lat", "lon"), name="t")
    print(json.dumps({"shape": shape, "bytes": int(data.nbytes), "device": a.device}), flush=True)
    to_host = (lambda: da.data.get()) if cupy is not None else (lambda: np.array(da.data))

    def ours(**kw):
        def run():
            before = strata.transfer_counters()["device_to_host"]
            view = strata.show(da, **kw)
            view.frame()
            sync()
            moved.append(strata.transfer_counters()["device_to_host"] - before)
            view.close()
        return run

    for label, kw in (("", {}), (" (vmin/vmax given)", {"vmin": -4.0, "vmax": 4.0})):
        moved = []
        timed("strata.show to frame ready on the device" + label, ours(**kw))
        print(json.dumps({"measure": "device->host bytes per show" + label, "bytes": moved}), flush=True)

    timed("da.get() alone (the whole array to the host)", to_host, int(data.nbytes))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        print(json.dumps({"measure": "da.get() + matplotlib imshow to PNG",
                          "skipped": f"matplotlib is not installed here: {e}"}), flush=True)
    else:
        def peer():
            host = to_host()  # the whole array, as the peer does
            fig, ax = plt.subplots()
            ax.imshow(host[0])
            fig.savefig(os.path.join(tempfile.gettempdir(), "peer.png"))
            plt.close(fig)
        timed("da.get() + matplotlib imshow to PNG (one frame)", peer)
