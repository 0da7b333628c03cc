#!/usr/bin/python3
"""Writes N monthly netCDF-4 files of tas(time, lat, lon), 721 x 1440 float32, one time step
each, unlimited time, in days since 1940-01-01 (the files of bench_mfd and peer_mfd.py).

    make_files.py DIR [N]      (default 1000; about 4.2 MB a file)

Names run tas_0000.nc ... in time order except that every tenth file is given a name from
the end of the alphabet (zz_...), so that name order is not time order."""
import os
import sys

import netCDF4
import numpy as np

out = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
os.makedirs(out, exist_ok=True)
lat = np.linspace(-90, 90, 721)
lon = np.arange(1440) * 0.25
base = (250 + 40 * np.cos(np.deg2rad(lat))[:, None] + 5 * np.sin(np.deg2rad(lon))[None, :]).astype("f4")
for i in range(n):
    name = f"zz_{i:04d}.nc" if i % 10 == 9 else f"tas_{i:04d}.nc"
    with netCDF4.Dataset(os.path.join(out, name), "w", format="NETCDF4") as f:
        f.createDimension("time", None)
        f.createDimension("lat", 721)
        f.createDimension("lon", 1440)
        t = f.createVariable("time", "f8", ("time",))
        t.units = "days since 1940-01-01"
        t.calendar = "standard"
        t.standard_name = "time"
        y = f.createVariable("lat", "f8", ("lat",))
        y.units = "degrees_north"
        y[:] = lat
        x = f.createVariable("lon", "f8", ("lon",))
        x.units = "degrees_east"
        x[:] = lon
        v = f.createVariable("tas", "f4", ("time", "lat", "lon"))
        v.units = "K"
        t[0] = i * 30.436875 + 15
        v[0] = base + np.float32(0.01 * i)
