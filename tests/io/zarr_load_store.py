#!/usr/bin/python3
"""Writes the Zarr v2 store tst_zarr_load loads whole, with Debian's zarr 2.13 and numcodecs, and
beside it the values zarr reads back from each array (C order, native byte order): the oracle.

    zarr_load_store.py OUTDIR

OUTDIR/load.zarr holds "a" (float32, 45 x 12 x 20, chunks 10 x 12 x 20, blosc-lz4: zarr's
default compressor) and "b" (int16, the same shape, chunks 10 x 5 x 20, zstd): 5 and 15 chunks.
"""
import os
import sys

import numcodecs
import numpy as np
import zarr

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(2004)
g = zarr.open_group(os.path.join(out, "load.zarr"), mode="w")
dims = ["time", "lat", "lon"]
arrays = {
    "a": (rng.normal(280, 15, (45, 12, 20)).astype("<f4"), (10, 12, 20),
          numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE)),
    "b": (rng.integers(-30000, 30000, (45, 12, 20)).astype("<i2"), (10, 5, 20), numcodecs.Zstd(level=3)),
}
for name, (data, chunks, compressor) in arrays.items():
    z = g.create_dataset(name, shape=data.shape, chunks=chunks, dtype=data.dtype, compressor=compressor,
                         fill_value=None)
    z[...] = data
    z.attrs["_ARRAY_DIMENSIONS"] = dims
zarr.consolidate_metadata(g.store)
back = zarr.open_group(os.path.join(out, "load.zarr"), mode="r")
for name in arrays:
    back[name][...].tofile(os.path.join(out, name + ".bin"))
