"""strata.open and engine="strata" against xarray's netCDF4 engine (netCDF-C's reading) on every
readable file in tests/data, and the errors a file that cannot be read gives."""
import glob
import os
import tempfile
import unittest

import numpy as np
import xarray as xr

import strata

DATA = os.environ.get("STRATA_TEST_DATA", os.path.join(os.path.dirname(__file__), "..", "data"))
UNREADABLE = {"bad_cdf5_begin.nc"}  # netCDF-C refuses it too (a test of the error below)
FILES = sorted(f for f in glob.glob(os.path.join(DATA, "*.nc")) if os.path.basename(f) not in UNREADABLE)


def base_chain(a):
    """The objects a NumPy array's memory comes from, nearest first."""
    out = []
    while True:
        a = a.obj if isinstance(a, memoryview) else getattr(a, "base", None)
        if a is None:
            return out
        out.append(a)


def numeric(v):
    return v.dtype.kind in "iuf"


class OpenAgainstNetcdf4(unittest.TestCase):
    def test_every_file_matches_netcdf4_engine(self):
        self.assertGreaterEqual(len(FILES), 6)
        checked = 0
        for path in FILES:
            with self.subTest(file=os.path.basename(path)):
                ours = strata.open(path, device="cpu")
                ref = xr.open_dataset(path, engine="netcdf4", decode_times=False)
                for name, rv in ref.data_vars.items():
                    if not numeric(rv) or rv.ndim == 0:
                        continue
                    self.assertIn(name, ours.variables, f"{name} missing")
                    ov = ours[name]
                    self.assertEqual(ov.dims, rv.dims, name)
                    self.assertEqual(ov.dtype, rv.dtype, name)
                    np.testing.assert_array_equal(ov.values, rv.values, err_msg=name)
                    for key, value in rv.attrs.items():
                        if key == "units" and "since" in str(value):
                            continue
                        self.assertIn(key, ov.attrs, f"{name}.{key}")
                        np.testing.assert_array_equal(ov.attrs[key], value, err_msg=f"{name}.{key}")
                    checked += 1
                for name, rc in ref.coords.items():
                    if not numeric(rc) or "since" in str(rc.attrs.get("units", "")):
                        continue
                    self.assertIn(name, ours.coords, f"coordinate {name} missing")
                    self.assertEqual(ours.coords[name].dims, rc.dims, name)
                    np.testing.assert_array_equal(ours.coords[name].values, rc.values, err_msg=name)
                self.assertEqual(set(ours.attrs), set(ref.attrs))
                for key, value in ref.attrs.items():
                    np.testing.assert_array_equal(ours.attrs[key], value, err_msg=key)
        self.assertGreater(checked, 8)

    def test_dates_as_xarray_decodes_them(self):
        seen = set()
        for path in FILES:
            try:
                ref = xr.open_dataset(path, engine="netcdf4")
            except Exception:  # xarray cannot decode these dates itself: nothing to compare with
                continue
            ours = strata.open(path, device="cpu")
            for name, rc in ref.coords.items():
                if rc.dtype.kind == "M" or (rc.dtype == object and rc.size and hasattr(rc.values.flat[0], "calendar")):
                    with self.subTest(file=os.path.basename(path), coord=name):
                        self.assertEqual(ours.coords[name].dtype, rc.dtype)
                        self.assertTrue((ours.coords[name].values == rc.values).all())
                        seen.add(str(rc.dtype))
        self.assertIn("datetime64[ns]", seen)  # a standard calendar
        self.assertIn("object", seen)  # a 360_day calendar: cftime dates

    def test_a_missing_date_is_nat_as_xarray_decodes_it(self):
        # A time coordinate with a value missing (its _FillValue): Strata's reader leaves it
        # undecoded and says why; strata.open gives xarray's dates, NaT where one is missing.
        # Before, it gave the bare numbers (0, nan, 2) with the units among the attrs.
        import netCDF4
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "missing_date.nc")
            with netCDF4.Dataset(path, "w") as f:
                f.createDimension("time", 3)
                f.createDimension("x", 2)
                t = f.createVariable("time", "f8", ("time",), fill_value=-999.0)
                t.units, t.calendar = "days since 2000-01-01", "standard"
                t[:] = np.ma.masked_array([0.0, 1.0, 2.0], mask=[False, True, False])
                f.createVariable("v", "f4", ("time", "x"))[:] = np.arange(6).reshape(3, 2)
            ours = strata.open(path, device="cpu")
            with xr.open_dataset(path, engine="netcdf4") as ref:
                self.assertEqual(ours.time.dtype, np.dtype("datetime64[ns]"))
                self.assertTrue(np.isnat(ours.time.values[1]))
                np.testing.assert_array_equal(ours.time.values, ref.time.values)
                self.assertEqual(ours.time.encoding["units"], "days since 2000-01-01")

    def test_variables_are_views_of_strata_buffers(self):
        path = os.path.join(DATA, "tas_rectilinear_grid_2D.nc")
        ds = strata.open(path, device="cpu")
        values = ds.tas.values
        owners = [type(b).__name__ for b in base_chain(values)]
        self.assertIn("_Array", owners, "the NumPy array does not come from Strata's buffer")
        exported = next(b for b in base_chain(values) if type(b).__name__ == "_Array")
        self.assertEqual(values.__array_interface__["data"][0], exported.ptr)
        self.assertFalse(values.flags.writeable)  # Strata's buffer is not written through NumPy
        ref = xr.open_dataset(path, engine="netcdf4")
        del ds, exported
        np.testing.assert_array_equal(values, ref.tas.values)  # the buffer outlives the Dataset

    def test_use_after_close_keeps_the_data(self):
        # Strata's variables are read whole into its buffers, so a closed Dataset has nothing
        # left to read: its arrays stay valid (no freed memory read, no error), and derive
        # still takes it.
        path = os.path.join(DATA, "reduced.nc")
        with xr.open_dataset(path, engine="strata", device="cpu") as ds:
            before = ds.sst.values.copy()
        ds.close()  # again
        np.testing.assert_array_equal(ds.sst.values, before)
        np.testing.assert_array_equal(strata.derive(ds, "twice = sst * 2").values, before * 2)
        opened = strata.open(path, device="cpu")
        values = opened.sst.values
        opened.close()
        del opened
        np.testing.assert_array_equal(values, before)

    def test_engine_entry_point_and_class(self):
        path = os.path.join(DATA, "reduced.nc")
        direct = strata.open(path, device="cpu")
        by_name = xr.open_dataset(path, engine="strata", device="cpu")
        by_class = xr.open_dataset(path, engine=strata.StrataBackend, device="cpu")
        for ds in (by_name, by_class):
            self.assertEqual(set(ds.data_vars), set(direct.data_vars))
            for name in direct.data_vars:
                np.testing.assert_array_equal(ds[name].values, direct[name].values)
        self.assertTrue(strata.StrataBackend().guess_can_open(path))
        self.assertFalse(strata.StrataBackend().guess_can_open("notes.txt"))


class OpenErrors(unittest.TestCase):
    def test_missing_file(self):
        path = os.path.join(DATA, "no_such_file.nc")
        with self.assertRaises(strata.NetcdfError) as cm:
            strata.open(path, device="cpu")
        self.assertIn(path, str(cm.exception))
        self.assertIsInstance(cm.exception, OSError)
        self.assertIsInstance(cm.exception, strata.Error)

    def test_damaged_file(self):
        path = os.path.join(DATA, "bad_cdf5_begin.nc")
        with self.assertRaises(strata.NetcdfError) as cm:
            xr.open_dataset(path, engine="strata", device="cpu")
        self.assertIn("bad_cdf5_begin.nc", str(cm.exception))

    def test_not_netcdf(self):
        path = os.path.join(DATA, "README.md")
        with self.assertRaises(strata.NetcdfError) as cm:
            strata.open(path, device="cpu")
        self.assertIn("README.md", str(cm.exception))

    def test_devices(self):
        path = os.path.join(DATA, "reduced.nc")
        with self.assertRaises(strata.ValueError) as cm:
            strata.open(path, device="tpu")
        self.assertIn("tpu", str(cm.exception))
        if strata.compute_device() == "host":
            with self.assertRaises(strata.ValueError) as cm:
                strata.open(path, device="cuda")
            self.assertIn("computes on the CPU", str(cm.exception))
            self.assertIsInstance(strata.open(path).sst.values, np.ndarray)  # None: where Strata computes

    def test_device_out_of_range_says_how_many_there_are(self):
        # cuda:N past the last device (here, with no GPU, cuda:0 itself): the message counts
        # the devices. Before, without a GPU it said only that Strata computes on the CPU.
        path = os.path.join(DATA, "reduced.nc")
        count = strata._strata._cuda_device_count()
        for text in (f"cuda:{count}", "cuda:64"):
            with self.subTest(device=text):
                with self.assertRaises(strata.ValueError) as cm:
                    strata.open(path, device=text)
                self.assertIn(f"device '{text}' does not exist", str(cm.exception))
                self.assertRegex(str(cm.exception), rf"there (is|are) {count} CUDA devices?")
        for text in ("cuda:x", "cuda:", "cuda:-1", "cuda:1.5"):  # a bare stoi read "1.5" as 1
            with self.subTest(device=text):
                with self.assertRaises(strata.ValueError) as cm:
                    strata.open(path, device=text)
                self.assertIn(f"device '{text}' is not understood", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
