#!/usr/bin/python3
"""Writes the two small curvilinear fixtures the render and app tests read (committed; run again
only to change them): Debian's python3-netcdf4 and numpy, nothing else.

tripolar_like.nc  36 x 24 cells: a regular 10-degree band (centres 80, 90, ..., 350, 0, ..., 70:
                  the 0/360 seam falls inside the rows) up to 60N, and above it a cap whose grid
                  lines fold onto a segment between two poles at 60N (lon 80 and 260), as a
                  tripolar ocean grid's do. 2-D lon/lat through `coordinates`, no bounds: corners
                  are derived by the reader. The exact corners are written apart, as
                  lon_corner/lat_corner (not named by `bounds`), for the tests' own checks.
lambert_2d.nc     20 x 16 cells of 100 km on a spherical Lambert conformal conic projection
                  (standard parallels 33 and 45, centre 40N 100W): lon/lat of the centres in
                  -180..180, with CF `bounds` (y, x, 4) at the exact projected corners.
Both carry v(time, y, x) = ((7 i + 3 j + t) mod 11) / 10: neighbours always differ."""
import math
import sys

import numpy as np
from netCDF4 import Dataset


def values(nt, ny, nx):
    t, j, i = np.meshgrid(np.arange(nt), np.arange(ny), np.arange(nx), indexing="ij")
    return ((7 * i + 3 * j + t) % 11) / 10.0


def tripolar(nxf, nyf, ncap):
    """Centre or corner positions: index (jf, if) in fractional cells."""
    def at(jf, xf):
        phi = 80.0 + 10.0 * xf  # degrees along a row
        if jf <= nyf:  # the regular band: 10-degree cells from 60S up to 60N (12 rows)
            lat = -60.0 + 10.0 * jf
            return phi % 360.0, lat
        s = (jf - nyf) / ncap  # 0 at 60N, 1 on the fold
        a = math.radians(phi - 80.0)
        px, py = 30.0 * math.cos(a), (1.0 - s) * 30.0 * math.sin(a)
        lon = (80.0 + math.degrees(math.atan2(py, px))) % 360.0
        return lon, 90.0 - math.hypot(px, py)
    return at


def write_tripolar(path):
    nx, nband, ncap = 36, 12, 12
    ny = nband + ncap
    at = tripolar(nx, nband, ncap)
    lon = np.zeros((ny, nx)); lat = np.zeros((ny, nx))
    lonc = np.zeros((ny, nx, 4)); latc = np.zeros((ny, nx, 4))
    for j in range(ny):
        for i in range(nx):
            lon[j, i], lat[j, i] = at(j + 0.5, i)
            for k, (dj, di) in enumerate(((0, -0.5), (0, 0.5), (1, 0.5), (1, -0.5))):
                lonc[j, i, k], latc[j, i, k] = at(j + dj, i + di)
    with Dataset(path, "w", format="NETCDF3_CLASSIC") as ds:
        ds.Conventions = "CF-1.8"
        ds.title = "tripolar-like test grid (strata tests/data/make_curvilinear_fixtures.py)"
        ds.createDimension("time", 2); ds.createDimension("y", ny); ds.createDimension("x", nx)
        ds.createDimension("nv", 4)
        for name, data, units, std in (("lon", lon, "degrees_east", "longitude"),
                                       ("lat", lat, "degrees_north", "latitude")):
            v = ds.createVariable(name, "f8", ("y", "x")); v[:] = data
            v.units = units; v.standard_name = std
        for name, data in (("lon_corner", lonc), ("lat_corner", latc)):
            v = ds.createVariable(name, "f8", ("y", "x", "nv")); v[:] = data
            v.long_name = "exact cell corners (not the bounds: the reader derives its own)"
        t = ds.createVariable("time", "f8", ("time",)); t[:] = [0, 1]
        t.units = "days since 2000-01-01"; t.standard_name = "time"
        v = ds.createVariable("v", "f4", ("time", "y", "x")); v[:] = values(2, ny, nx)
        v.coordinates = "lat lon"; v.long_name = "test pattern"; v.units = "1"


def lcc(lat1, lat2, lat0, lon0, r=6371.0):
    p1, p2, p0 = (math.radians(x) for x in (lat1, lat2, lat0))
    n = math.log(math.cos(p1) / math.cos(p2)) / math.log(math.tan(math.pi / 4 + p2 / 2) /
                                                          math.tan(math.pi / 4 + p1 / 2))
    f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n
    rho0 = r * f / math.tan(math.pi / 4 + p0 / 2) ** n

    def inverse(x, y):  # km -> lon, lat (degrees)
        rho = math.copysign(math.hypot(x, rho0 - y), n)
        theta = math.atan2(x, rho0 - y)
        lat = 2 * math.atan((r * f / rho) ** (1 / n)) - math.pi / 2
        return lon0 + math.degrees(theta / n), math.degrees(lat)
    return inverse


def write_lambert(path):
    nx, ny, d = 20, 16, 100.0
    inv = lcc(33.0, 45.0, 40.0, -100.0)
    xs = (np.arange(nx) - (nx - 1) / 2) * d
    ys = (np.arange(ny) - (ny - 1) / 2) * d
    lon = np.zeros((ny, nx)); lat = np.zeros((ny, nx))
    lonb = np.zeros((ny, nx, 4)); latb = np.zeros((ny, nx, 4))
    for j in range(ny):
        for i in range(nx):
            lon[j, i], lat[j, i] = inv(xs[i], ys[j])
            for k, (dy, dx) in enumerate(((-0.5, -0.5), (-0.5, 0.5), (0.5, 0.5), (0.5, -0.5))):
                lonb[j, i, k], latb[j, i, k] = inv(xs[i] + dx * d, ys[j] + dy * d)
    with Dataset(path, "w", format="NETCDF3_CLASSIC") as ds:
        ds.Conventions = "CF-1.8"
        ds.title = "Lambert conformal test grid (strata tests/data/make_curvilinear_fixtures.py)"
        ds.createDimension("time", 1); ds.createDimension("y", ny); ds.createDimension("x", nx)
        ds.createDimension("nv", 4)
        x = ds.createVariable("x", "f8", ("x",)); x[:] = xs; x.units = "km"
        x.standard_name = "projection_x_coordinate"
        y = ds.createVariable("y", "f8", ("y",)); y[:] = ys; y.units = "km"
        y.standard_name = "projection_y_coordinate"
        for name, data, units, std, b, bdata in (
                ("lon", lon, "degrees_east", "longitude", "lon_bnds", lonb),
                ("lat", lat, "degrees_north", "latitude", "lat_bnds", latb)):
            v = ds.createVariable(name, "f8", ("y", "x")); v[:] = data
            v.units = units; v.standard_name = std; v.bounds = b
            w = ds.createVariable(b, "f8", ("y", "x", "nv")); w[:] = bdata
        t = ds.createVariable("time", "f8", ("time",)); t[:] = [0]
        t.units = "days since 2000-01-01"; t.standard_name = "time"
        v = ds.createVariable("v", "f4", ("time", "y", "x")); v[:] = values(1, ny, nx)
        v.coordinates = "lat lon"; v.long_name = "test pattern"; v.units = "1"


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    write_tripolar(out + "/tripolar_like.nc")
    write_lambert(out + "/lambert_2d.nc")
