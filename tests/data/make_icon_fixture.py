#!/usr/bin/python3
"""Writes tests/data/mesh/icon_grid.nc and icon_data.nc: an ICON-layout triangular mesh, since
uxarray's ICON test grid (icon/R02B04) is not in its repository's stored snapshot.

The triangles are the dual of mesh/mpas_QU1920km.nc (uxarray's MPAS quasi-uniform 1920 km
mesh): each MPAS vertex is an ICON cell, its three cellsOnVertex are the cell's corners, and the
MPAS vertex (the triangle's circumcentre) is the cell's centre. Two files, as ICON ships them:
  icon_grid.nc  the grid file's layout: dims cell, vertex, nv; clon/clat and vlon/vlat in
                radians, vertex_of_cell(nv, cell) 1-based, cell_area;
  icon_data.nc  the model output's layout: dims ncells, vertices; clon/clat with
                clon_bnds/clat_bnds(ncells, vertices) in radians; tas(time, ncells).

    /usr/bin/python3 tests/data/make_icon_fixture.py
"""
import os
import netCDF4
import numpy as np

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mesh")
with netCDF4.Dataset(os.path.join(here, "mpas_QU1920km.nc")) as m:
    lat_cell = m["latCell"][:].data
    lon_cell = m["lonCell"][:].data
    lat_vertex = m["latVertex"][:].data
    lon_vertex = m["lonVertex"][:].data
    corners = m["cellsOnVertex"][:].data  # (nVertices, 3), 1-based
    area = m["areaTriangle"][:].data
cells, nodes = len(lat_vertex), len(lat_cell)
# ICON's longitudes run from -pi to pi
lon_vertex = np.where(lon_vertex > np.pi, lon_vertex - 2 * np.pi, lon_vertex)
lon_cell = np.where(lon_cell > np.pi, lon_cell - 2 * np.pi, lon_cell)


def coordinate(f, name, dim, values, standard_name):
    v = f.createVariable(name, "f8", (dim,))
    v.units = "radian"
    v.standard_name = standard_name
    v[:] = values
    return v


with netCDF4.Dataset(os.path.join(here, "icon_grid.nc"), "w", format="NETCDF4") as g:
    g.createDimension("cell", cells)
    g.createDimension("vertex", nodes)
    g.createDimension("nv", 3)
    g.title = "ICON-layout grid: the dual of uxarray's mpas/QU/mesh.QU.1920km.151026.nc"
    coordinate(g, "clon", "cell", lon_vertex, "longitude")
    coordinate(g, "clat", "cell", lat_vertex, "latitude")
    coordinate(g, "vlon", "vertex", lon_cell, "longitude")
    coordinate(g, "vlat", "vertex", lat_cell, "latitude")
    v = g.createVariable("vertex_of_cell", "i4", ("nv", "cell"))
    v.long_name = "vertices of each cell"
    v[:] = corners.T
    v = g.createVariable("cell_area", "f8", ("cell",))
    v.units = "m2"
    v.standard_name = "area"
    v[:] = area

with netCDF4.Dataset(os.path.join(here, "icon_data.nc"), "w", format="NETCDF4") as d:
    d.createDimension("time", 2)
    d.createDimension("ncells", cells)
    d.createDimension("vertices", 3)
    d.title = "ICON-layout output on icon_grid.nc's cells (see make_icon_fixture.py)"
    coordinate(d, "clon", "ncells", lon_vertex, "longitude").bounds = "clon_bnds"
    coordinate(d, "clat", "ncells", lat_vertex, "latitude").bounds = "clat_bnds"
    for name, values in [("clon_bnds", lon_cell), ("clat_bnds", lat_cell)]:
        v = d.createVariable(name, "f8", ("ncells", "vertices"))
        v.units = "radian"
        v[:] = values[corners - 1]
    tas = d.createVariable("tas", "f4", ("time", "ncells"))
    tas.units = "K"
    tas.coordinates = "clon clat"
    lat, lon = np.degrees(lat_vertex), np.degrees(lon_vertex)
    tas[0, :] = 288 - 30 * np.sin(np.radians(lat)) ** 2 + 0.01 * np.arange(cells)
    tas[1, :] = tas[0, :] + np.cos(np.radians(lon))
