#!/usr/bin/python3
"""Writes tests/data/healpix_reference.csv, tst_healpix's oracle: healpy's (Debian's
python3-healpy 1.16) cells and cell centres, in both orders, for nside 1 to 2^13.

Rows of two kinds:
  point,NSIDE,LON,LAT,RING,NEST   the cells holding the point (lon, lat in degrees)
  centre,NSIDE,CELL,LON,LAT,NEST_LON,NEST_LAT   the centre of ring cell CELL and of nest cell CELL
The points are random, plus the hard places: the poles, the equator, the caps' edges
(z = ±2/3), lon 0, 90, 180, 270 and just below 360. Fixed seed: the file is the same each run.

    /usr/bin/python3 tests/data/make_healpix_reference.py
"""
import os
import healpy
import numpy as np

rng = np.random.default_rng(20261206)
edge = np.degrees(np.arcsin(2 / 3))
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "healpix_reference.csv")
with open(out, "w") as f:
    f.write(f"# healpy {healpy.__version__}: see make_healpix_reference.py\n")
    for level in range(0, 14):
        nside = 2 ** level
        lon = np.concatenate([rng.uniform(-180, 540, 120),
                              [0, 90, 180, 270, 359.9999999, -0.0000001, 45, 12.5, 300, 0]])
        lat = np.concatenate([np.degrees(np.arcsin(rng.uniform(-1, 1, 120))),
                              [90, -90, 0, edge, -edge, edge + 1e-9, -edge - 1e-9, 89.999, -89.999, 0]])
        theta, phi = np.radians(90 - lat), np.radians(lon)
        ring = healpy.ang2pix(nside, theta, phi, nest=False)
        nest = healpy.ang2pix(nside, theta, phi, nest=True)
        for x, y, r, n in zip(lon, lat, ring, nest):
            f.write(f"point,{nside},{x!r},{y!r},{r},{n}\n")
        cells = np.unique(np.concatenate([rng.integers(0, 12 * nside * nside, 40),
                                          [0, 12 * nside * nside - 1, 6 * nside * nside]]))
        lon_r, lat_r = healpy.pix2ang(nside, cells, nest=False, lonlat=True)
        lon_n, lat_n = healpy.pix2ang(nside, cells, nest=True, lonlat=True)
        for c, a, b, a2, b2 in zip(cells, lon_r, lat_r, lon_n, lat_n):
            f.write(f"centre,{nside},{c},{a!r},{b!r},{a2!r},{b2!r}\n")
print("wrote", out)
