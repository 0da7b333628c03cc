#!/usr/bin/python3
"""Writes the Zarr benchmark's store: float32 `data` (time, lat, lon) = (N, 721, 1440), chunks of
(10, 721, 1440), compressed with zarr-python's default (blosc lz4, level 5, byte shuffle), with
smooth fields plus noise (compressing about as real data do). N = 370 gives 1.54 GB.

    make_zarr_store.py STORE [--steps 370]
"""
import argparse

import numpy as np
import zarr

p = argparse.ArgumentParser()
p.add_argument("store")
p.add_argument("--steps", type=int, default=370)
a = p.parse_args()
lat = np.linspace(-90, 90, 721, dtype="f4")[:, None]
lon = np.linspace(0, 360, 1440, endpoint=False, dtype="f4")[None, :]
base = 280 + 30 * np.cos(np.radians(lat)) + 5 * np.sin(np.radians(3 * lon))
rng = np.random.default_rng(1)
group = zarr.open_group(a.store, mode="w")
z = group.create_dataset("data", shape=(a.steps, 721, 1440), chunks=(10, 721, 1440), dtype="<f4")
z.attrs["_ARRAY_DIMENSIONS"] = ["time", "lat", "lon"]
for t0 in range(0, a.steps, 10):
    n = min(10, a.steps - t0)
    block = base[None] + np.arange(t0, t0 + n, dtype="f4")[:, None, None] * 0.01
    block = block + rng.normal(0, 0.5, (n, 721, 1440)).astype("f4")
    z[t0:t0 + n] = block.astype("f4")
zarr.consolidate_metadata(a.store)
