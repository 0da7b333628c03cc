#!/usr/bin/python3
"""Writes the Zarr benchmark's store: float32 `data` (time, lat, lon) = (N, 721, 1440), chunks of
(10, 721, 1440), compressed with zarr-python's default (blosc lz4, level 5, byte shuffle), with
smooth fields plus noise (compressing about as real data do). N = 370 gives 1.54 GB. Written
by zarr-python, or by tensorstore where zarr-python is not installed (the GPU machine).

    make_zarr_store.py STORE [--steps 370]
"""
import argparse
import json
import os

import numpy as np

p = argparse.ArgumentParser()
p.add_argument("store")
p.add_argument("--steps", type=int, default=370)
a = p.parse_args()
lat = np.linspace(-90, 90, 721, dtype="f4")[:, None]
lon = np.linspace(0, 360, 1440, endpoint=False, dtype="f4")[None, :]
base = 280 + 30 * np.cos(np.radians(lat)) + 5 * np.sin(np.radians(3 * lon))
rng = np.random.default_rng(1)
shape, chunks = (a.steps, 721, 1440), (10, 721, 1440)
try:
    import zarr

    group = zarr.open_group(a.store, mode="w")
    z = group.create_dataset("data", shape=shape, chunks=chunks, dtype="<f4")
    z.attrs["_ARRAY_DIMENSIONS"] = ["time", "lat", "lon"]
    write = z.__setitem__
    finish = lambda: zarr.consolidate_metadata(a.store)  # noqa: E731
except ImportError:
    import tensorstore as ts

    print("zarr-python is not installed here: the store is written by tensorstore", flush=True)
    zarray = {"shape": list(shape), "chunks": list(chunks), "dtype": "<f4", "order": "C",
              "compressor": {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0},
              "fill_value": None, "filters": None}
    arr = ts.open({"driver": "zarr", "kvstore": {"driver": "file", "path": os.path.join(a.store, "data")},
                   "metadata": zarray}, create=True, delete_existing=True).result()

    def write(sl, block):
        arr[sl].write(block).result()

    def finish():
        meta = {".zgroup": {"zarr_format": 2}, "data/.zattrs": {"_ARRAY_DIMENSIONS": ["time", "lat", "lon"]},
                "data/.zarray": json.load(open(os.path.join(a.store, "data", ".zarray")))}
        for key in (".zgroup", "data/.zattrs"):
            with open(os.path.join(a.store, key), "w") as f:
                json.dump(meta[key], f)
        with open(os.path.join(a.store, ".zmetadata"), "w") as f:
            json.dump({"zarr_consolidated_format": 1, "metadata": meta}, f)

for t0 in range(0, a.steps, 10):
    n = min(10, a.steps - t0)
    block = base[None] + np.arange(t0, t0 + n, dtype="f4")[:, None, None] * 0.01
    block = block + rng.normal(0, 0.5, (n, 721, 1440)).astype("f4")
    write(slice(t0, t0 + n), block.astype("f4"))
finish()
