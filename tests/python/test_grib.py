"""GRIB and groups through Python as netCDF goes (issue 39): xarray finds the strata engine for a
GRIB file's name; xr.open_dataset(engine="strata") reads tests/data/grib's fixtures, eagerly and
lazily (chunks), each value its analytic field's (make_grib_fixtures.py) within the packing's
precision; group= opens one of a file's groups (a GRIB hypercube's, a netCDF-4 group, against
the netCDF4 engine's reading); a group that is not there is refused naming it."""
import math
import os
import unittest

import numpy as np
import xarray as xr

import strata
from strata.backend import StrataBackend

DATA = os.environ.get("STRATA_TEST_DATA", os.path.join(os.path.dirname(__file__), "..", "data"))
GRIB = os.path.join(DATA, "grib")


def field(lat, lon, base, wave):
    """make_grib_fixtures.py's field()."""
    lat, lon = np.meshgrid(np.asarray(lat, float), np.asarray(lon, float), indexing="ij")
    return base + 10.0 * np.cos(np.radians(lat)) * np.sin(np.radians(wave * lon)) + 0.05 * lat


class GribInPython(unittest.TestCase):
    def test_the_engine_claims_grib_names(self):
        backend = StrataBackend()
        for name in ("a.grib", "a.grib2", "a.GRB2", "b.grb", "c.grib1", "d.nc"):
            self.assertTrue(backend.guess_can_open(name), name)
        self.assertFalse(backend.guess_can_open("notes.txt"))

    def test_each_packing_reads_its_field(self):
        for chunks in (None, {}):
            with self.subTest(chunks=chunks):
                ds = xr.open_dataset(os.path.join(GRIB, "packings.grib2"), engine="strata", chunks=chunks)
                self.assertEqual(ds.t2m.dims, ("step", "latitude", "longitude"))
                values = np.asarray(ds.t2m.values, float)
                for s, step in enumerate((0, 6, 12, 18)):
                    want = field(ds.latitude.values, ds.longitude.values, 270.0 + step, 2)
                    self.assertLess(float(np.max(np.abs(values[s] - want))), 0.01, f"step {step}")

    def test_a_group_of_a_grib_file(self):
        path = os.path.join(GRIB, "single_levels.grib2")
        for chunks in (None, {}):
            with self.subTest(chunks=chunks):
                ds = xr.open_dataset(path, engine="strata", group="heightAboveGround_10_instant", chunks=chunks)
                self.assertEqual(sorted(ds.data_vars), ["u10", "v10"])
                self.assertEqual(float(ds.heightAboveGround), 10.0)
                v = np.asarray(ds.v10.values, float)
                for s, step in enumerate((0, 6)):
                    want = field(ds.latitude.values, ds.longitude.values, -3.0 + step, 1)
                    self.assertLess(float(np.max(np.abs(v[s] - want))), 0.01)
        msl = strata.open(path, device="cpu", group="/meanSea_instant")
        self.assertEqual(list(msl.data_vars), ["msl"])
        root = xr.open_dataset(path, engine="strata")
        self.assertNotIn("u10", root.data_vars)

    def test_a_netcdf_group_as_the_netcdf4_engine_reads_it(self):
        path = os.path.join(DATA, "test_hgroups.nc")
        group = "mozaic_flight_2012030321335035_descent"
        ours = xr.open_dataset(path, engine="strata", group=group)
        theirs = xr.open_dataset(path, engine="netcdf4", group=group)
        self.assertTrue(set(ours.data_vars) <= set(theirs.data_vars))
        self.assertGreater(len(ours.data_vars), 2)
        for name in ours.data_vars:
            np.testing.assert_array_equal(ours[name].values, theirs[name].values, err_msg=name)
        np.testing.assert_array_equal(ours.air_press.values, theirs.air_press.values)

    def test_a_missing_group_is_named(self):
        with self.assertRaises(strata.ValueError) as cm:
            xr.open_dataset(os.path.join(GRIB, "single_levels.grib2"), engine="strata", group="surface_accum")
        self.assertIn("surface_accum", str(cm.exception))
        self.assertIn("single_levels.grib2", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
