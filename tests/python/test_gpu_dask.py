"""Dask arrays of CuPy chunks in Strata's frame pipeline on a GPU (issue 38): a step's frame, a
reduction and an area-weighted mean come back on the device as CuPy arrays borrowed from what Dask computed, with zero
bytes across PCIe by Strata's transfer counter, equal to CuPy's own; and the time a step takes
against Dask's own compute of that step (printed as JSON lines, never asserted).

On the GPU machine (scripts/gpu-dask.sh run): Python 3.12 with CuPy and NumPy 2, Dask carried
from Debian 12 (pure Python, 2022.12) and its local threaded scheduler, since distributed's C
parts cannot travel; so no client: what strata.show does with no client current. Debian's Dask
2022.12 predates NumPy 2: its import names np.round_, which NumPy 2 dropped; the alias is put
back here before Dask is imported, and nothing else of NumPy 2 is changed. Skips without CuPy,
a GPU or Dask; under STRATA_REQUIRE_GPU a skip fails instead."""
import json
import os
import statistics
import time
import unittest

import numpy as np

if not hasattr(np, "round_"):  # Dask 2022.12's dask.array.routines names it at import
    np.round_ = np.round

import strata  # noqa: E402
from strata import _strata, dask_frames  # noqa: E402
from strata.convert import _strata_dataset  # noqa: E402

REQUIRE = os.environ.get("STRATA_REQUIRE_GPU", "") not in ("", "0")
try:
    import cupy
    import dask
    import dask.array as da
    GPU = cupy.cuda.runtime.getDeviceCount() > 0 and strata.compute_device().startswith("cuda")
    WHY = "" if GPU else f"Strata computes on {strata.compute_device()} ({strata.compute_reason()})"
except Exception as e:  # no CuPy, no driver, or no Dask
    cupy = dask = da = None
    GPU, WHY = False, f"no CuPy, GPU or Dask: {type(e).__name__}: {e}"


def moved():
    c = strata.transfer_counters()
    return c["host_to_device"] + c["device_to_host"]


def frame(h, indices=(), reductions=()):
    return strata.as_array(_strata._compute_frame(h, "v", "lon", "lat", list(indices), list(reductions), "cuda:0"))


class CupyChunks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not GPU:
            return
        nt, ny, nx = 96, 721, 1440  # 400 MB of float32, 4 chunks of 24 steps
        rng = cupy.random.default_rng(38)
        cls.values = rng.standard_normal((nt, ny, nx), dtype=cupy.float32) * 10 + 280
        cls.values[:, 100, 200:260] = cupy.nan
        cls.array = da.from_array(cls.values, chunks=(24, ny, nx), asarray=False)

    def setUp(self):
        if not GPU:
            if REQUIRE:
                self.fail(f"STRATA_REQUIRE_GPU is set, but {WHY}")
            self.skipTest(WHY)
        self.assertIsNone(dask_frames.current_client(), "a distributed client is current")
        self.assertIsInstance(self.array._meta, cupy.ndarray)

    def held(self):
        fetches = []
        h, _, _ = _strata_dataset(self.array, ("time", "lat", "lon"), "v", fetches)
        return h, fetches[0]

    def test_a_step_arrives_on_the_device_without_a_copy(self):
        h, fetch = self.held()
        before = moved()
        f = frame(h, [("time", 40)])
        self.assertEqual(moved() - before, 0, "bytes crossed between host and device")
        self.assertIsInstance(f, cupy.ndarray)
        self.assertEqual(f.device.id, 0)
        cupy.testing.assert_array_equal(f, self.values[40])
        self.assertEqual(fetch.computes, 1)

    def test_reductions_stay_on_the_device_and_equal_cupy(self):
        h, _ = self.held()
        wide = self.values.astype(cupy.float64)
        for op, ref in (("mean", cupy.nanmean), ("max", cupy.nanmax), ("std", cupy.nanstd)):
            with self.subTest(op=op):
                before = moved()
                got = frame(h, reductions=[("time", op)])
                self.assertEqual(moved() - before, 0, "bytes crossed between host and device")
                self.assertIsInstance(got, cupy.ndarray)
                cupy.testing.assert_allclose(got, ref(wide, axis=0).astype(cupy.float32), rtol=2e-6, atol=1e-5)

    def test_an_area_weighted_mean_stays_on_the_device(self):
        # The weights Strata sends (cos(lat), float64 NumPy) become CuPy for CuPy chunks.
        nt, ny, nx = self.values.shape
        lat = np.linspace(-90, 90, ny)
        data, fetch = dask_frames.computed_variable("v", ["time", "lat", "lon"], self.array)
        coords = [{"name": "lat", "dims": ["lat"], "shape": [ny], "values": lat.tolist(), "dtype": "float64",
                   "attrs": {"units": "degrees_north"}}]
        h = _strata._make_dataset([("v", ["time", "lat", "lon"], data, {})], coords, {}, "v")
        before = moved()
        got = strata.as_array(_strata._compute_frame(h, "v", "time", "", [], [("lat", "mean"), ("lon", "mean")],
                                                     "cuda:0", True))
        self.assertEqual(moved() - before, 0, "bytes crossed between host and device")
        self.assertIsInstance(got, cupy.ndarray)
        self.assertEqual(fetch.computes, 1)
        w = cupy.asarray(np.cos(np.deg2rad(lat)))[None, :, None]
        valid = ~cupy.isnan(self.values)
        x = self.values.astype(cupy.float64)
        ref = cupy.where(valid, x * w, 0).sum(axis=(1, 2)) / cupy.where(valid, w, 0).sum(axis=(1, 2))
        cupy.testing.assert_allclose(got, ref.astype(cupy.float32), rtol=2e-6)

    def test_zz_step_time_against_dask_alone(self):  # last: its figures follow the checks
        h, _ = self.held()
        frame(h, [("time", 0)])  # warm
        ours, theirs = [], []
        for t in range(1, 96, 5):
            cupy.cuda.Device(0).synchronize()
            t0 = time.perf_counter()
            f = frame(h, [("time", t)])
            cupy.cuda.Device(0).synchronize()
            ours.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            self.array[t].compute()
            cupy.cuda.Device(0).synchronize()
            theirs.append(time.perf_counter() - t0)
        print(json.dumps({"bench": "gpu_dask_step", "strata_median_s": round(statistics.median(ours), 5),
                          "dask_compute_median_s": round(statistics.median(theirs), 5), "steps": len(ours),
                          "shape": list(self.values.shape), "chunk": 24, "scheduler": "threads",
                          "dask": dask.__version__, "numpy": np.__version__, "cupy": cupy.__version__}),
              flush=True)
        cupy.testing.assert_array_equal(f, self.values[t])  # the last step timed is the right one


if __name__ == "__main__":
    unittest.main()
