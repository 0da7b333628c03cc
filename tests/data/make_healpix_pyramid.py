#!/usr/bin/python3
"""Writes tests/data/healpix_pyramid/: a HEALPix pyramid of tas(time=3, cell), zoom 0 to 4
(nside 1 to 16, nest order), as km-scale model output is published, by xarray and zarr-python
(Debian's python3-xarray and python3-zarr 2.13):

  tas_z0.zarr … tas_z4.zarr   one store a zoom (easygems' form: a `crs` variable with
                              healpix_nside and healpix_order, tas's grid_mapping)
  tas_pyramid.zarr            the same zooms as groups z0 … z4 of one store

The finest zoom is random (fixed seed) with about 5 % missing values; each coarser zoom is the
mean of its four children (nest order numbers them 4c … 4c + 3), missing ones skipped, as
pyramids are coarsened: a test can check that a zoom is the one it says by that rule.

    /usr/bin/python3 tests/data/make_healpix_pyramid.py
"""
import os
import shutil
import warnings

import numpy as np
import xarray as xr

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "healpix_pyramid")
FINEST = 4

rng = np.random.default_rng(20261207)
fine = rng.normal(285, 12, (3, 12 * 4 ** FINEST)).astype(np.float32)
fine[rng.random(fine.shape) < 0.05] = np.nan
zooms = {FINEST: fine}
for z in range(FINEST - 1, -1, -1):
    children = zooms[z + 1].reshape(3, -1, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all four missing: missing
        zooms[z] = np.nanmean(children, axis=2).astype(np.float32)


def dataset(z):
    nside = 2 ** z
    tas = xr.DataArray(zooms[z], dims=("time", "cell"),
                       attrs={"units": "K", "long_name": "near-surface air temperature",
                              "grid_mapping": "crs"})
    crs = xr.DataArray(np.int32(0), attrs={"grid_mapping_name": "healpix", "healpix_nside": nside,
                                           "healpix_order": "nest"})
    time = xr.DataArray(np.arange(3, dtype=np.float64), dims="time",
                        attrs={"units": "days since 2020-01-01", "calendar": "standard", "standard_name": "time"})
    ds = xr.Dataset({"tas": tas, "crs": crs}, coords={"time": time})
    ds.attrs["title"] = f"Strata test pyramid, zoom {z}"
    return ds


shutil.rmtree(OUT, ignore_errors=True)
os.makedirs(OUT)
for z in range(FINEST + 1):
    dataset(z).to_zarr(os.path.join(OUT, f"tas_z{z}.zarr"), consolidated=True, encoding={"time": {"dtype": "float64"}})
    dataset(z).to_zarr(os.path.join(OUT, "tas_pyramid.zarr"), group=f"z{z}", mode="a", consolidated=True,
                       encoding={"time": {"dtype": "float64"}})
print("wrote", OUT)
