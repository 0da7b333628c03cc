#!/usr/bin/python3
"""A file for the window's step latency with overlays (run_overlay_bench.sh): heights zg with
waves that travel from one step to the next, and their geostrophic wind ua, va (CF standard
names, so that the window finds the pair), on a global 0.5° grid, float32.

  /usr/bin/python3 make_overlay_file.py OUT.nc [STEPS]
"""
import sys

import numpy as np
from netCDF4 import Dataset

out = sys.argv[1]
steps = int(sys.argv[2]) if len(sys.argv) > 2 else 100
lat = np.linspace(-90, 90, 361)
lon = np.arange(720) * 0.5
phi, lam = np.meshgrid(np.radians(lat), np.radians(lon), indexing="ij")
f = 2 * 7.292e-5 * np.sin(phi)
f = np.where(np.abs(lat)[:, None] < 10, np.nan, f)
a = 6.371e6
with Dataset(out, "w") as ds:
    ds.createDimension("time", steps)
    ds.createDimension("lat", lat.size)
    ds.createDimension("lon", lon.size)
    t = ds.createVariable("time", "f8", ("time",))
    t.units = "days since 2000-01-01"
    t.calendar = "standard"
    t[:] = np.arange(steps)
    y = ds.createVariable("lat", "f8", ("lat",))
    y.units, y.standard_name = "degrees_north", "latitude"
    y[:] = lat
    x = ds.createVariable("lon", "f8", ("lon",))
    x.units, x.standard_name = "degrees_east", "longitude"
    x[:] = lon
    zg = ds.createVariable("zg", "f4", ("time", "lat", "lon"))
    zg.units, zg.standard_name = "m", "geopotential_height"
    ua = ds.createVariable("ua", "f4", ("time", "lat", "lon"))
    ua.units, ua.standard_name = "m s-1", "eastward_wind"
    va = ds.createVariable("va", "f4", ("time", "lat", "lon"))
    va.units, va.standard_name = "m s-1", "northward_wind"
    for k in range(steps):
        s = 0.15 * k
        z = (5500 + 300 * np.cos(phi) ** 2 + 120 * np.sin(4 * lam - s) * np.cos(phi) * np.sin(2 * phi)
             + 60 * np.cos(7 * lam + 0.7 * s) * np.cos(3 * phi))
        dz_dphi = (-600 * np.cos(phi) * np.sin(phi)
                   + 120 * np.sin(4 * lam - s) * (np.cos(phi) * 2 * np.cos(2 * phi) - np.sin(phi) * np.sin(2 * phi))
                   - 180 * np.cos(7 * lam + 0.7 * s) * np.sin(3 * phi))
        dz_dlam = (480 * np.cos(4 * lam - s) * np.cos(phi) * np.sin(2 * phi)
                   - 420 * np.sin(7 * lam + 0.7 * s) * np.cos(3 * phi))
        g = 9.80665
        zg[k] = z
        ua[k] = -g / f * dz_dphi / a
        va[k] = g / f * dz_dlam / (a * np.maximum(np.cos(phi), 1e-3))
