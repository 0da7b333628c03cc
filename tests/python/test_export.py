"""strata.export_view writes through the export the window and the command line use: for the same
view its CSV has the command line's bytes and its PNG the command line's pixels (tst_exportview
holds the window to the command line). The CSV's values are checked against netCDF4's reading."""
import csv
import os
import subprocess
import tempfile
import unittest

import numpy as np
import netCDF4

import strata

DATA = os.environ["STRATA_TEST_DATA"]
BUILD = os.environ["STRATA_BUILD_DIR"]
EXE = os.path.join(BUILD, "app", "strata")
LCC = os.path.join(DATA, "lcc_km.nc")
SAMPLE = os.path.join(DATA, "tas_rectilinear_grid_2D.nc")


@unittest.skipUnless(hasattr(strata, "export_view"), "a build without the window")
class ExportView(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="strata-export-")

    def path(self, name):
        return os.path.join(self.dir, name)

    def cli(self, *args):
        r = subprocess.run([EXE, *args], capture_output=True, text=True, timeout=240)
        self.assertEqual(r.returncode, 0, r.stderr)

    def same_bytes(self, a, b):
        with open(a, "rb") as fa, open(b, "rb") as fb:
            self.assertEqual(fa.read(), fb.read(), f"{a} and {b} differ")

    def test_grid_mapped_csv_is_the_command_lines(self):
        got = strata.export_view(LCC, self.path("py.csv"))
        self.cli(LCC, "--export-csv", self.path("cli.csv"))
        self.same_bytes(self.path("py.csv"), self.path("cli.csv"))
        self.assertEqual(got["variable"], "prcp")
        with open(self.path("py.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(list(rows[0].keys())[:4], ["y", "x", "lat", "lon"])  # the grid mapping's
        self.assertEqual(len(rows), got["rows"])
        with netCDF4.Dataset(LCC) as nc:
            prcp = nc["prcp"][0].filled(np.nan)
        self.assertEqual(len(rows), prcp.size)
        # Every 997th cell's value, in C order (y, x), as netCDF4 reads it.
        flat = prcp.ravel()
        for i in range(0, len(rows), 997):
            want = flat[i]
            text = rows[i]["prcp"]
            if np.isnan(want):
                self.assertIn(text, ("", "nan", "NaN"))
            else:
                self.assertAlmostEqual(float(text), float(want), places=3)

    def test_reduction_csv_is_the_command_lines(self):
        strata.export_view(SAMPLE, self.path("py.csv"), var="tas", reduce={"time": "mean"})
        self.cli(SAMPLE, "--var", "tas", "--reduce", "time=mean", "--export-csv", self.path("cli.csv"))
        self.same_bytes(self.path("py.csv"), self.path("cli.csv"))
        with netCDF4.Dataset(SAMPLE) as nc:
            want = np.nanmean(nc["tas"][:].filled(np.nan).astype(np.float64), axis=0)
        with open(self.path("py.csv")) as f:
            values = [float(r["tas"]) for r in csv.DictReader(f)]
        np.testing.assert_allclose(values, want.ravel(), rtol=1e-5)

    def test_projected_png_is_the_command_lines(self):
        strata.export_view(SAMPLE, self.path("py.png"), isel={"time": 2}, projection="Robinson",
                           size=(640, 400))
        self.cli(SAMPLE, "--isel", "time=2", "--projection", "Robinson", "--size", "640x400",
                 "--export-png", self.path("cli.png"))
        self.same_bytes(self.path("py.png"), self.path("cli.png"))
        strata.export_view(SAMPLE, self.path("plain.png"), isel={"time": 2}, size=(640, 400))
        with open(self.path("py.png"), "rb") as a, open(self.path("plain.png"), "rb") as b:
            self.assertNotEqual(a.read(), b.read())  # the projection is drawn, not dropped

    def test_contoured_png_is_the_command_lines(self):
        reduced = os.path.join(DATA, "reduced.nc")
        strata.export_view(reduced, self.path("py.png"), var="sst", contours="4:0", contour_var="anom",
                           size=(480, 300), coastlines=False)
        self.cli(reduced, "--var", "sst", "--contours", "4:0", "--contour-var", "anom", "--size", "480x300",
                 "--coastlines", "off", "--export-png", self.path("cli.png"))
        self.same_bytes(self.path("py.png"), self.path("cli.png"))
        strata.export_view(reduced, self.path("plain.png"), var="sst", size=(480, 300), coastlines=False)
        with open(self.path("py.png"), "rb") as a, open(self.path("plain.png"), "rb") as b:
            self.assertNotEqual(a.read(), b.read())  # the isolines are drawn, not dropped
        with self.assertRaises(strata.ValueError) as e:
            strata.export_view(reduced, self.path("bad.png"), var="sst", contours="5,3")
        self.assertIn("not increasing", str(e.exception))
        self.assertFalse(os.path.exists(self.path("bad.png")))

    def test_bad_requests_are_errors(self):
        with self.assertRaises(strata.ValueError):
            strata.export_view(SAMPLE, self.path("out.txt"))
        with self.assertRaises(strata.Error) as e:
            strata.export_view(SAMPLE, self.path("out.csv"), var="nope")
        self.assertIn("nope", str(e.exception))
        with self.assertRaises(strata.Error) as e:
            strata.export_view(os.path.join(self.dir, "missing.nc"), self.path("out.csv"))
        self.assertIn("missing.nc", str(e.exception))
        with self.assertRaises(strata.ValueError):
            strata.export_view(SAMPLE, self.path("out.png"), size=(0, 400))
        self.assertFalse(os.path.exists(self.path("out.csv")))


if __name__ == "__main__":
    unittest.main()
