#!/usr/bin/python3
"""Writes rotated_pole.nc, the EURO-CORDEX-like fixture the grid-mapping tests read (committed;
run again only to change it): Debian's python3-netcdf4 and numpy, nothing else.

rotated_pole.nc  tas(time=2, rlat=26, rlon=27) on EURO-CORDEX's rotated pole (grid north pole
                 at 39.25N, 162W) every 1.76 degrees (a quarter of the 0.44-degree grid's
                 cells, over the same -28.375..18.155, -23.375..20.935 domain), with the
                 CORDEX attributes: rotated_latitude_longitude grid mapping, rlon/rlat with
                 standard_name grid_longitude/grid_latitude, and 2-D lat/lon worked out here by
                 rotating unit vectors (numpy, not PROJ), which the tests compare with PROJ.
tas = 280 + (7 i + 3 j + 5 t) mod 11: neighbours always differ."""
import sys

import numpy as np
from netCDF4 import Dataset

POLE_LAT, POLE_LON = 39.25, -162.0


def geographic(rlat, rlon):
    """Rotated (rlat, rlon) degrees to geographic (lat, lon): the rotated sphere's point as a
    unit vector, turned about y by (90 - pole latitude) so that its pole goes to the pole's
    latitude, then about z to the pole's longitude (the rotated prime meridian runs through
    the geographic point opposite the pole's longitude)."""
    p, l = np.radians(rlat), np.radians(rlon)
    v = np.stack([np.cos(p) * np.cos(l), np.cos(p) * np.sin(l), np.sin(p)])
    a = np.radians(90.0 - POLE_LAT)  # tilt of the pole from the north pole
    x = v[0] * np.cos(a) - v[2] * np.sin(a)
    z = v[0] * np.sin(a) + v[2] * np.cos(a)
    y = v[1]
    b = np.radians(POLE_LON + 180.0)  # the rotated origin's meridian
    gx, gy = x * np.cos(b) - y * np.sin(b), x * np.sin(b) + y * np.cos(b)
    lat = np.degrees(np.arcsin(np.clip(z, -1, 1)))
    lon = np.degrees(np.arctan2(gy, gx))
    return lat, lon


def main(out):
    rlon = -28.375 + 1.76 * np.arange(27)
    rlat = -23.375 + 1.76 * np.arange(26)
    with Dataset(out, "w", format="NETCDF3_CLASSIC") as ds:
        ds.Conventions = "CF-1.7"
        ds.title = "EURO-CORDEX-like rotated-pole test grid (synthetic values)"
        ds.createDimension("time", 2)
        ds.createDimension("rlat", rlat.size)
        ds.createDimension("rlon", rlon.size)
        t = ds.createVariable("time", "f8", ("time",))
        t.units = "days since 1949-12-01 00:00:00"
        t.calendar = "proleptic_gregorian"
        t.standard_name = "time"
        t[:] = [20454.5, 20455.5]
        for name, vals, sn, ln, axis in (("rlon", rlon, "grid_longitude", "longitude in rotated pole grid", "X"),
                                         ("rlat", rlat, "grid_latitude", "latitude in rotated pole grid", "Y")):
            v = ds.createVariable(name, "f8", (name,))
            v.standard_name, v.long_name, v.units, v.axis = sn, ln, "degrees", axis
            v[:] = vals
        gm = ds.createVariable("rotated_pole", "c", ())
        gm.grid_mapping_name = "rotated_latitude_longitude"
        gm.grid_north_pole_latitude = POLE_LAT
        gm.grid_north_pole_longitude = POLE_LON
        lat2, lon2 = geographic(*np.meshgrid(rlat, rlon, indexing="ij"))
        la = ds.createVariable("lat", "f8", ("rlat", "rlon"))
        la.standard_name, la.units, la.long_name = "latitude", "degrees_north", "latitude"
        la[:] = lat2
        lo = ds.createVariable("lon", "f8", ("rlat", "rlon"))
        lo.standard_name, lo.units, lo.long_name = "longitude", "degrees_east", "longitude"
        lo[:] = lon2
        tas = ds.createVariable("tas", "f4", ("time", "rlat", "rlon"))
        tas.standard_name, tas.units = "air_temperature", "K"
        tas.grid_mapping = "rotated_pole"
        tas.coordinates = "lat lon"
        j, i = np.meshgrid(np.arange(rlat.size), np.arange(rlon.size), indexing="ij")
        tas[:] = np.stack([280 + (7 * i + 3 * j + 5 * k) % 11 for k in range(2)])


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "rotated_pole.nc")
