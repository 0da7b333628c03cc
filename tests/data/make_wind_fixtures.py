#!/usr/bin/python3
"""Writes the vector-pair fixtures the vector tests read (committed; run again only to change
them): Debian's python3-netcdf4 and numpy, nothing else.

geostrophic_500.nc  zg, ua, va (time=2, lat=73, lon=144): NCEP/NCAR reanalysis 500 hPa heights
                    (hgt.nc's first two months) and the geostrophic wind they make,
                    u = -(g/f) dZ/dy, v = (g/f) dZ/dx (centred differences on the sphere,
                    f = 2 Omega sin(lat)), NaN within 15 degrees of the equator where f vanishes.
                    ua and va carry CF's eastward_wind and northward_wind: the wind runs along
                    the height isolines, low heights on its left in the north.
rotated_winds.nc    x_wind, y_wind, ua, va (rlat=26, rlon=27) on rotated_pole.nc's grid (its
                    rotated_latitude_longitude mapping and 2-D lat/lon): a uniform westerly of
                    10 m s-1 (ua = 10, va = 0) and the same wind grid relative, turned into the
                    grid's own directions by the angle its rows make with the parallels (worked
                    out here from the 2-D lat/lon by finite differences, not PROJ)."""
import os

import numpy as np
from netCDF4 import Dataset

HERE = os.path.dirname(os.path.abspath(__file__))
G, OMEGA, R = 9.80665, 7.2921e-5, 6371008.8


def geostrophic():
    with Dataset(os.path.join(HERE, "hgt.nc")) as src:
        z = np.asarray(src["HGT"][:2], dtype=np.float64)
        lat = np.asarray(src["lat"][:], dtype=np.float64)
        lon = np.asarray(src["lon"][:], dtype=np.float64)
        time = np.asarray(src["time"][:2])
        time_units = src["time"].units
    phi = np.radians(lat)[None, :, None]
    dlon = np.radians(lon[1] - lon[0])
    dzdx = (np.roll(z, -1, axis=2) - np.roll(z, 1, axis=2)) / (2 * dlon * R * np.cos(phi))
    dzdy = np.gradient(z, np.radians(lat), axis=1) / R
    f = 2 * OMEGA * np.sin(phi)
    with np.errstate(divide="ignore", invalid="ignore"):
        u = -(G / f) * dzdy
        v = (G / f) * dzdx
    tropics = np.abs(lat) < 15
    u[:, tropics, :] = np.nan
    v[:, tropics, :] = np.nan
    u[:, np.abs(lat) > 87.5, :] = np.nan  # the poles' rows: no dZ/dx
    v[:, np.abs(lat) > 87.5, :] = np.nan
    with Dataset(os.path.join(HERE, "geostrophic_500.nc"), "w", format="NETCDF3_CLASSIC") as d:
        d.title = "500 hPa geostrophic wind from NCEP/NCAR reanalysis heights (hgt.nc)"
        d.Conventions = "CF-1.8"
        d.createDimension("time", 2)
        d.createDimension("lat", lat.size)
        d.createDimension("lon", lon.size)
        t = d.createVariable("time", "i4", ("time",))
        t.units = time_units
        t.standard_name = "time"
        t[:] = time
        a = d.createVariable("lat", "f4", ("lat",))
        a.units, a.standard_name = "degrees_north", "latitude"
        a[:] = lat
        o = d.createVariable("lon", "f4", ("lon",))
        o.units, o.standard_name = "degrees_east", "longitude"
        o[:] = lon
        for name, data, std, units in (("zg", z, "geopotential_height", "m"),
                                       ("ua", u, "eastward_wind", "m s-1"),
                                       ("va", v, "northward_wind", "m s-1")):
            var = d.createVariable(name, "f4", ("time", "lat", "lon"), fill_value=np.float32(1e20))
            var.standard_name, var.units = std, units
            var[:] = np.where(np.isnan(data), 1e20, data).astype(np.float32)


def rotated():
    with Dataset(os.path.join(HERE, "rotated_pole.nc")) as src:
        rlat = np.asarray(src["rlat"][:], dtype=np.float64)
        rlon = np.asarray(src["rlon"][:], dtype=np.float64)
        lat = np.asarray(src["lat"][:], dtype=np.float64)
        lon = np.asarray(src["lon"][:], dtype=np.float64)
        mapping = {k: src["rotated_pole"].getncattr(k) for k in src["rotated_pole"].ncattrs()}
        axes = {n: {k: src[n].getncattr(k) for k in src[n].ncattrs()} for n in ("rlat", "rlon", "lat", "lon")}
    # The angle of the grid's x direction (along a row) east of north-turned-east: from the
    # 2-D lat/lon, centred differences along rlon.
    dlon = np.gradient(np.unwrap(np.radians(lon), axis=1), axis=1) * np.cos(np.radians(lat))
    dlat = np.gradient(np.radians(lat), axis=1)
    alpha = np.arctan2(dlat, dlon)  # the row's direction, anticlockwise from east
    ue, vn = np.full(lat.shape, 10.0), np.zeros(lat.shape)
    # Earth (east, north) to the grid's (x along the row, y along the column, at right angles).
    xw = ue * np.cos(alpha) + vn * np.sin(alpha)
    yw = -ue * np.sin(alpha) + vn * np.cos(alpha)
    with Dataset(os.path.join(HERE, "rotated_winds.nc"), "w", format="NETCDF3_CLASSIC") as d:
        d.title = "A uniform westerly on the EURO-CORDEX-like rotated pole grid, earth and grid relative"
        d.Conventions = "CF-1.8"
        d.createDimension("rlat", rlat.size)
        d.createDimension("rlon", rlon.size)
        for name, data, dims in (("rlat", rlat, ("rlat",)), ("rlon", rlon, ("rlon",)),
                                 ("lat", lat, ("rlat", "rlon")), ("lon", lon, ("rlat", "rlon"))):
            var = d.createVariable(name, "f8", dims)
            for k, val in axes[name].items():
                var.setncattr(k, val)
            var[:] = data
        rp = d.createVariable("rotated_pole", "c")
        for k, val in mapping.items():
            rp.setncattr(k, val)
        for name, data, std in (("x_wind", xw, "x_wind"), ("y_wind", yw, "y_wind"),
                                ("ua", ue, "eastward_wind"), ("va", vn, "northward_wind")):
            var = d.createVariable(name, "f4", ("rlat", "rlon"))
            var.standard_name, var.units = std, "m s-1"
            var.grid_mapping = "rotated_pole"
            var.coordinates = "lat lon"
            var[:] = data.astype(np.float32)


if __name__ == "__main__":
    geostrophic()
    rotated()
