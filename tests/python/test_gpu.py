"""The module on a GPU with CuPy: files read onto the device (compared with the netCDF4 engine,
and with cupy-xarray's as_cupy() where it is installed), CuPy arrays in and out without a copy
(pointers equal, zero bytes device→host by Strata's transfer counter), and the window on CuPy
data (where there is a display). Skips without CuPy or a GPU, unless STRATA_REQUIRE_GPU=1."""
import gc
import glob
import os
import tempfile
import unittest
import weakref

import numpy as np

os.environ.setdefault("XDG_CONFIG_HOME", tempfile.mkdtemp(prefix="strata-gpu-"))
import strata  # noqa: E402
from strata import _strata  # noqa: E402

DATA = os.environ.get("STRATA_TEST_DATA", os.path.join(os.path.dirname(__file__), "..", "data"))
REQUIRE = os.environ.get("STRATA_REQUIRE_GPU") == "1"

try:
    import cupy
    GPU = cupy.cuda.runtime.getDeviceCount() > 0 and strata.compute_device().startswith("cuda")
    WHY = "" if GPU else f"Strata computes on {strata.compute_device()} ({strata.compute_reason()})"
except Exception as e:  # no CuPy, or no driver
    cupy, GPU, WHY = None, False, f"no CuPy or no GPU: {e}"


def skip_without_gpu(cls):
    if not GPU and not REQUIRE:
        return unittest.skip(WHY)(cls)
    return cls


def d2h():
    return strata.transfer_counters()["device_to_host"]


@skip_without_gpu
class OpenOnTheGpu(unittest.TestCase):
    def test_variables_are_cupy_views_of_strata_buffers(self):
        import xarray as xr
        checked = 0
        for path in sorted(glob.glob(os.path.join(DATA, "*.nc"))):
            if os.path.basename(path) == "bad_cdf5_begin.nc":
                continue
            before = d2h()
            ours = strata.open(path, device="cuda")
            self.assertEqual(d2h() - before, 0, path)  # decoded on the device, nothing back
            ref = xr.open_dataset(path, engine="netcdf4", decode_times=False)
            try:
                import cupy_xarray  # noqa: F401  (registers .cupy.as_cupy())
                on_gpu = ref.cupy.as_cupy()
            except ImportError:
                on_gpu = None
            for name, rv in ref.data_vars.items():
                if rv.dtype.kind not in "iuf" or rv.ndim == 0:
                    continue
                ov = ours[name].data
                self.assertIsInstance(ov, cupy.ndarray, name)
                cupy.testing.assert_array_equal(ov, cupy.asarray(rv.values), err_msg=name)
                if on_gpu is not None:
                    cupy.testing.assert_array_equal(ov, on_gpu[name].data, err_msg=name)
                checked += 1
        self.assertGreater(checked, 8)

    def test_pointer_is_strata_s(self):
        parts = _strata._open(os.path.join(DATA, "reduced.nc"), "cuda")
        exported = parts["variables"][0]["array"]
        self.assertTrue(exported.device.startswith("cuda"))
        via_dlpack = cupy.from_dlpack(exported)
        via_cai = cupy.asarray(exported)  # __cuda_array_interface__
        self.assertEqual(via_dlpack.data.ptr, exported.ptr)
        self.assertEqual(via_cai.data.ptr, exported.ptr)
        del parts, exported
        gc.collect()
        self.assertTrue(bool(cupy.isfinite(via_dlpack).any()))  # the buffer outlives the Dataset

    def test_engine_gives_cupy(self):
        import xarray as xr
        ds = xr.open_dataset(os.path.join(DATA, "reduced.nc"), engine="strata", device="cuda")
        self.assertIsInstance(ds.sst.data, cupy.ndarray)


@skip_without_gpu
class CupyIntoStrata(unittest.TestCase):
    def test_every_dtype_and_strides_without_a_copy(self):
        for dt in ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64"]:
            a = cupy.arange(5 * 6 * 7).astype(dt).reshape(5, 6, 7)
            for label, v in {"whole": a, "strided": a[1:, ::2, 3:], "transposed": a.transpose(2, 0, 1)}.items():
                with self.subTest(dtype=dt, view=label):
                    before = d2h()
                    exported = _strata._import_array(v, ["a", "b", "c"])
                    back = cupy.from_dlpack(exported)
                    self.assertEqual(back.data.ptr, v.data.ptr)
                    self.assertEqual(back.strides, v.strides)
                    cupy.testing.assert_array_equal(back, v)
                    self.assertEqual(d2h() - before, 0)

    def test_cuda_array_interface_only(self):
        a = cupy.arange(24, dtype=cupy.float32).reshape(4, 6)

        class OnlyCai:
            __cuda_array_interface__ = a.__cuda_array_interface__
        exported = _strata._import_array(OnlyCai(), ["y", "x"])
        self.assertEqual(exported.ptr, a.data.ptr)
        cupy.testing.assert_array_equal(cupy.from_dlpack(exported), a)

    def test_producer_kept_alive(self):
        a = cupy.arange(1000, dtype=cupy.float32)
        gone = weakref.ref(a)
        exported = _strata._import_array(a, ["x"])
        del a
        gc.collect()
        self.assertIsNotNone(gone())
        del exported
        gc.collect()
        self.assertIsNone(gone())

    def test_array_on_another_device(self):
        if cupy.cuda.runtime.getDeviceCount() < 2:
            self.skipTest("one GPU")
        with cupy.cuda.Device(1):
            a = cupy.zeros(4, cupy.float32)
        with self.assertRaises(strata.ValueError) as cm:
            _strata._import_array(a, ["x"])
        self.assertIn("is on cuda:1 but Strata computes on cuda:0", str(cm.exception))

    def test_unsupported_dtype(self):
        with self.assertRaises(strata.ValueError) as cm:
            _strata._import_array(cupy.zeros(4, cupy.float16), ["x"])
        self.assertIn("dtype float16 is not supported", str(cm.exception))


@skip_without_gpu
class ShowCupy(unittest.TestCase):
    def setUp(self):
        if not (os.environ.get("DISPLAY") or os.environ.get("QT_QPA_PLATFORM")):
            self.skipTest("no display for the window")

    def test_shown_and_read_back_without_leaving_the_device(self):
        import xarray as xr
        data = cupy.random.default_rng(3).standard_normal((4, 181, 360), dtype=cupy.float32)
        da = xr.DataArray(data, dims=("time", "lat", "lon"), name="t",
                          coords={"lat": np.linspace(-90, 90, 181), "lon": np.arange(360.0)})
        before = d2h()
        view = strata.show(da)
        try:
            frame = view.frame()
            self.assertIsInstance(frame, cupy.ndarray)
            cupy.testing.assert_array_equal(frame, data[0])
            view.update(da * 3)
            cupy.testing.assert_array_equal(view.frame(), data[0] * 3)
            self.assertEqual(d2h() - before, 0, "bytes crossed device→host")
        finally:
            view.close()


if __name__ == "__main__":
    unittest.main()
