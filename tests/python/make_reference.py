#!/usr/bin/env python3
"""Writes what netCDF-C reads (through xarray's netcdf4 engine, CF decoding on) from every
readable file in tests/data, as one .npz: the oracle test_gpu.py compares with where the
netcdf4 engine is not installed (the GPU machine).

    make_reference.py OUT.npz"""
import glob
import os
import sys

import numpy as np
import xarray as xr

DATA = os.environ.get("STRATA_TEST_DATA", os.path.join(os.path.dirname(__file__), "..", "data"))
out = {}
for path in sorted(glob.glob(os.path.join(DATA, "*.nc"))):
    try:
        ds = xr.open_dataset(path, engine="netcdf4", decode_times=False)
    except OSError:
        continue  # unreadable (the damaged file)
    for name, v in ds.data_vars.items():
        if v.dtype.kind in "iuf" and v.ndim > 0:
            out[f"{os.path.basename(path)}/{name}"] = v.values
np.savez_compressed(sys.argv[1], **out)
print(f"{len(out)} variables in {sys.argv[1]}")
