"""Derived variables against xarray on the same files: climatologies (groupby mean) and anomalies
against a base period by month, season, day of year and hour, standardised anomalies, centred
rolling means, diff, np.hypot, where and the kelvin-to-Celsius conversion. The files are written
here, daily, monthly and 6-hourly, in every CF calendar, with NaNs, missing days and a partial
last year. STRATA_DERIVED_DEVICE=cuda runs Strata's side on the GPU (CuPy arrays)."""
import os
import tempfile
import unittest

import cftime
import numpy as np
import xarray as xr

import strata

CALENDARS = ["standard", "proleptic_gregorian", "noleap", "all_leap", "360_day", "julian"]
DEVICE = os.environ.get("STRATA_DERIVED_DEVICE", "cpu")
SEED = int(os.environ.get("STRATA_TEST_SEED", "20261205"))
RTOL, ATOL = 2e-5, 1e-3  # float32 values near 280: xarray sums pairwise in float32, Strata in double


def host(a):
    a = a.data if hasattr(a, "data") else a
    return a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else np.asarray(a)


def write(path, calendar, freq, rng):
    """(time, lat, lon) tas in K, u and v, with NaNs, some steps left out (missing days) and
    the last year cut short; times in `calendar`."""
    if freq == "daily":
        start, steps, units, step = cftime.datetime(1990, 1, 1, calendar=calendar), 4 * 365 + 150, "days since 1990-01-01", 1.0
    elif freq == "monthly":
        start, steps, units, step = None, 12 * 5 + 7, "days since 1990-01-15", None
    else:  # 6-hourly, two months
        start, steps, units, step = cftime.datetime(1999, 1, 1, calendar=calendar), 4 * 60, "hours since 1999-01-01", 6.0
    if freq == "monthly":
        times = [cftime.datetime(1990 + i // 12, i % 12 + 1, 15, calendar=calendar) for i in range(steps)]
    else:
        values = np.arange(steps) * step
        times = list(cftime.num2date(values, units, calendar=calendar))
    keep = np.ones(len(times), bool)
    if freq == "daily":
        keep[rng.choice(len(times), 40, replace=False)] = False  # missing days
    times = [t for t, k in zip(times, keep) if k]
    shape = (len(times), 5, 8)
    tas = (280 + 10 * rng.standard_normal(shape)).astype(np.float32)
    u = rng.standard_normal(shape).astype(np.float32) * 5
    v = rng.standard_normal(shape).astype(np.float32) * 5
    for a in (tas, u, v):
        a[rng.random(shape) < 0.04] = np.nan
    ds = xr.Dataset(
        {"tas": (("time", "lat", "lon"), tas, {"units": "K"}),
         "u": (("time", "lat", "lon"), u, {"units": "m s-1"}),
         "v": (("time", "lat", "lon"), v, {"units": "m s-1"})},
        coords={"time": np.array(times, dtype=object), "lat": np.linspace(-60, 60, 5),
                "lon": np.arange(8) * 45.0})
    ds.time.encoding.update(units=units, calendar=calendar)
    ds.to_netcdf(path, engine="netcdf4")


class DerivedAgainstXarray(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        rng = np.random.default_rng(SEED)
        cls.files = {}
        for calendar in CALENDARS:
            for freq in ("daily", "monthly", "6hourly"):
                path = os.path.join(cls.tmp.name, f"{freq}_{calendar}.nc")
                write(path, calendar, freq, rng)
                cls.files[(calendar, freq)] = path

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def pair(self, calendar, freq):
        path = self.files[(calendar, freq)]
        ours = strata.open(path, device=DEVICE)
        ref = xr.open_dataset(path, use_cftime=True)
        return ours, ref

    def close(self, ours, expected, what):
        a, e = host(ours), np.asarray(expected)
        self.assertEqual(a.shape, e.shape, what)
        np.testing.assert_allclose(a, e, rtol=RTOL, atol=ATOL, equal_nan=True, err_msg=what)

    def test_climatologies_and_anomalies(self):
        groups = {"daily": ["month", "season", "dayofyear"], "monthly": ["month", "season"], "6hourly": ["hour"]}
        order = ["DJF", "MAM", "JJA", "SON"]  # Strata's seasons 1..4; xarray sorts the names
        checked = 0
        for (calendar, freq) in self.files:
            ours, ref = self.pair(calendar, freq)
            years = (1991, 1993) if freq != "6hourly" else (1999, 1999)
            for g in groups[freq]:
                with self.subTest(calendar=calendar, freq=freq, group=g):
                    base = ref.tas.sel(time=slice(str(years[0]), str(years[1])))
                    # Missing days may leave a group of the record out of the base period:
                    # refused, naming it and the record's years (xarray drops the group).
                    absent = set(getattr(ref.time.dt, g).values) - set(getattr(base.time.dt, g).values)
                    if absent:
                        with self.assertRaisesRegex(strata.ValueError, r"in the base period .*; the record has years"):
                            strata.derive(ours, f'c = climatology(tas, "{g}", {years[0]}, {years[1]})')
                        checked += 1
                        continue
                    clim = base.groupby(f"time.{g}").mean("time")
                    sd = base.groupby(f"time.{g}").std("time")
                    c = strata.derive(ours, f'c = climatology(tas, "{g}", {years[0]}, {years[1]})')
                    self.assertEqual(c.dims, (g, "lat", "lon"))
                    if g == "season":
                        expected = clim.sel(season=order)
                        self.assertEqual(list(host(c[g].values)), [1, 2, 3, 4])
                    else:
                        expected = clim
                        self.assertEqual(list(host(c[g].values)), list(clim[g].values))
                    self.close(c, expected.values, f"climatology {g}")
                    a = strata.derive(ours, f'a = anomaly(tas, "{g}", {years[0]}, {years[1]})')
                    expected = ref.tas.groupby(f"time.{g}") - clim
                    self.close(a, expected.transpose("time", "lat", "lon").values, f"anomaly {g}")
                    self.assertEqual(a.attrs.get("units"), "K")
                    z = strata.derive(ours, f'z = std_anomaly(tas, "{g}", {years[0]}, {years[1]})')
                    expected = (ref.tas.groupby(f"time.{g}") - clim).groupby(f"time.{g}") / sd
                    # Where a group's spread is below float32's resolution of the values (two
                    # nearly equal members), xarray's float32 std is inexact: compared elsewhere.
                    spread = (sd.sel({g: getattr(ref.time.dt, g)}) > 0.01).transpose("time", "lat", "lon").values
                    np.testing.assert_allclose(host(z)[spread], expected.transpose("time", "lat", "lon").values[spread],
                                               rtol=1e-3, atol=1e-3, equal_nan=True)
                    checked += 1
        self.assertGreaterEqual(checked, 6 * 6)

    def test_whole_record_is_the_default_base_period(self):
        ours, ref = self.pair("noleap", "monthly")
        c = strata.derive(ours, 'c = climatology(tas, "month")')
        self.close(c, ref.tas.groupby("time.month").mean("time").values, "default base period")

    def test_a_base_period_outside_the_record_is_refused(self):
        ours, _ = self.pair("360_day", "daily")
        with self.assertRaisesRegex(strata.ValueError, "the record has years 1990–1994"):
            strata.derive(ours, 'a = anomaly(tas, "month", 2050, 2060)')

    def test_rolling_and_diff(self):
        for calendar in ("standard", "360_day"):
            ours, ref = self.pair(calendar, "daily")
            for n in (1, 4, 5, 30):
                r = strata.derive(ours, f'r = rolling_mean(tas, "time", {n})')
                self.close(r, ref.tas.rolling(time=n, center=True).mean().values, f"rolling_mean {n}")
                s = strata.derive(ours, f's = rolling_sum(u, "lon", {min(n, 8)})')
                self.close(s, ref.u.rolling(lon=min(n, 8), center=True).sum().values, f"rolling_sum {n}")
            d = strata.derive(ours, 'd = diff(tas, "time")')
            expected = ref.tas.diff("time")
            self.close(d[1:], expected.values, "diff")
            self.assertTrue(np.isnan(host(d[0])).all())  # as xarray places it on the dataset's time
            self.assertEqual(list(d.lat.values), list(ref.lat.values))

    def test_element_wise(self):
        ours, ref = self.pair("standard", "daily")
        speed = strata.derive(ours, "speed = hypot(u, v)")
        self.close(speed, np.hypot(ref.u, ref.v).values, "hypot")
        self.assertEqual(speed.attrs.get("units"), "m s-1")
        t = strata.derive(ours, "t = tas - 273.15")
        self.close(t, (ref.tas - 273.15).values, "K to degC")
        self.assertEqual(t.attrs.get("units"), "degC")
        w = strata.derive(ours, "w = where((tas > 285) & ~isnan(u), tas - 273.15, u * 2)")
        self.close(w, xr.where((ref.tas > 285) & ~np.isnan(ref.u), ref.tas - 273.15, ref.u * 2).values, "where")
        f = strata.derive(ours, "f = fillna(u, 0) / v")
        self.close(f, (ref.u.fillna(0) / ref.v).values, "fillna and division (±inf)")
        added = ours.strata.derive("speed [m/s] = hypot(u, v)")  # the Dataset accessor
        self.assertIn("speed", added.data_vars)
        self.assertEqual(added.speed.attrs.get("units"), "m/s")

    def test_errors_name_the_problem(self):
        ours, _ = self.pair("noleap", "monthly")
        with self.assertRaisesRegex(strata.ValueError, r"column \d+: an operand is missing"):
            strata.derive(ours, "x = tas +")
        with self.assertRaisesRegex(strata.ValueError, r"unknown variable 'tass'"):
            strata.derive(ours, "x = tass * 2")
        with self.assertRaisesRegex(strata.ValueError, r"unknown function 'hypotenuse'"):
            strata.derive(ours, "x = hypotenuse(u, v)")


class DerivedFromPythonData(unittest.TestCase):
    def test_big_endian_variables_are_converted(self):
        # A big-endian float32 is a float32: before, the Dataset dropped it silently (its dtype
        # spelled ">f4"), and 'a' was an unknown variable.
        a = np.arange(12, dtype=">f4").reshape(3, 4)
        ds = xr.Dataset({"a": (("y", "x"), a), "b": (("y", "x"), np.ones((3, 4), np.float32))})
        c = strata.derive(ds, "c = a * 2 + b")
        np.testing.assert_array_equal(host(c), np.arange(12, dtype=np.float32).reshape(3, 4) * 2 + 1)


    def test_a_missing_date_is_named(self):
        # NaT in the time coordinate: what needs dates says a date is missing. Before, the
        # coordinate was dropped unsaid and climatology asked for "a time dim".
        times = np.array(["2000-01-15", "NaT", "2000-03-15"], dtype="datetime64[ns]")
        ds = xr.Dataset({"a": (("time", "x"), np.ones((3, 2), np.float32))}, coords={"time": times})
        with self.assertRaises(strata.ValueError) as cm:
            strata.derive(ds, "c = climatology(a, \"month\")")
        self.assertIn("the time of 'time' cannot be read", str(cm.exception))
        self.assertIn("a time value is missing (NaT)", str(cm.exception))
        np.testing.assert_array_equal(host(strata.derive(ds, "c = a * 3")), np.full((3, 2), 3.0))


if __name__ == "__main__":
    unittest.main()
