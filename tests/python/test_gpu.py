"""The module on a GPU with CuPy: files read onto the device (compared with the netCDF4 engine,
and with cupy-xarray's as_cupy() where it is installed), CuPy arrays in and out without a copy
(pointers equal, zero bytes device→host by Strata's transfer counter), and the window on CuPy
data (where there is a display): zero bytes with vmin/vmax, one table of frame ranges without.
Skips without CuPy or a GPU; with STRATA_REQUIRE_GPU set (not "0"), as on the GPU machine, what
would skip fails instead, naming what is missing, so that a GPU run cannot pass by skipping."""
import gc
import os
import tempfile
import unittest
import weakref

import numpy as np

os.environ.setdefault("XDG_CONFIG_HOME", tempfile.mkdtemp(prefix="strata-gpu-"))
import strata  # noqa: E402
from strata import _strata  # noqa: E402

DATA = os.environ.get("STRATA_TEST_DATA", os.path.join(os.path.dirname(__file__), "..", "data"))
# As tests/gpu_skip.h reads it for the C++ tests: set and not "0".
REQUIRE = os.environ.get("STRATA_REQUIRE_GPU", "") not in ("", "0")

try:
    import cupy
    GPU = cupy.cuda.runtime.getDeviceCount() > 0 and strata.compute_device().startswith("cuda")
    WHY = "" if GPU else f"Strata computes on {strata.compute_device()} ({strata.compute_reason()})"
except Exception as e:  # no CuPy, or no driver
    cupy, GPU, WHY = None, False, f"no CuPy or no GPU: {e}"


def skip_or_fail(test, why):
    """Leaves `test`: a failure under STRATA_REQUIRE_GPU, else a skip saying why."""
    if REQUIRE:
        test.fail(f"STRATA_REQUIRE_GPU is set, but {why}")
    test.skipTest(why)


def skip_without_gpu(cls):
    if GPU:
        return cls
    if not REQUIRE:
        return unittest.skip(WHY)(cls)
    # Every test of the class fails, saying why, instead of erring on a missing `cupy`.
    def setUp(self):
        skip_or_fail(self, WHY)
    cls.setUp = setUp
    return cls


def reference_values(test):
    try:
        import xarray as xr
        xr.open_dataset(os.path.join(DATA, "reduced.nc"), engine="netcdf4").close()
    except Exception:
        path = os.environ.get("STRATA_PY_REFERENCE")
        if not path:
            skip_or_fail(test, "no netcdf4 engine and no STRATA_PY_REFERENCE (make_reference.py)")
        with np.load(path) as z:
            return {k: z[k] for k in z.files}
    import subprocess
    import sys
    out = os.path.join(tempfile.mkdtemp(), "reference.npz")
    subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "make_reference.py"), out], check=True)
    with np.load(out) as z:
        return {k: z[k] for k in z.files}


class _StreamAsked:
    """`exported` handed to a consumer as though the consumer had asked for `stream`."""

    def __init__(self, exported, stream):
        self.exported, self.stream = exported, stream

    def __dlpack_device__(self):
        return self.exported.__dlpack_device__()

    def __dlpack__(self, stream=None, **kwargs):
        return self.exported.__dlpack__(stream=self.stream)


def d2h():
    return strata.transfer_counters()["device_to_host"]


@skip_without_gpu
class OpenOnTheGpu(unittest.TestCase):
    def test_variables_are_cupy_views_of_strata_buffers(self):
        # The oracle: netCDF-C through xarray's netcdf4 engine, or (where that engine is not
        # installed, as on the GPU machine) the same read made elsewhere by make_reference.py.
        reference = reference_values(self)
        checked = 0
        for key, expected in reference.items():
            file, name = key.split("/", 1)
            with self.subTest(file=file, variable=name):
                before = d2h()
                ours = strata.open(os.path.join(DATA, file), device="cuda")
                self.assertEqual(d2h() - before, 0)  # decoded on the device, nothing back
                ov = ours[name].data
                self.assertEqual(ov.dtype, expected.dtype)
                if name in ours.coords:
                    # Coordinates (and the CF bounds of 2-D ones) live on the host, as index
                    # coordinates do in xarray's CuPy-backed arrays.
                    self.assertIsInstance(ov, np.ndarray)
                    np.testing.assert_array_equal(ov, expected)
                else:
                    self.assertIsInstance(ov, cupy.ndarray)
                    cupy.testing.assert_array_equal(ov, cupy.asarray(expected))
                checked += 1
        self.assertGreater(checked, 8)

    def test_against_cupy_xarray(self):
        # cupy-xarray's as_cupy() of xarray's own reading: its netcdf4 engine, or where that is
        # not installed (the GPU machine) h5netcdf, or scipy (these three files are netCDF-3).
        try:
            import cupy_xarray  # noqa: F401  (registers .cupy.as_cupy())
            import xarray as xr
        except ImportError as e:
            skip_or_fail(self, f"cupy-xarray is not installed (gpu-python.sh pack takes it from "
                               f"CUPY_XARRAY_SRC): {e}")
        engines = [e for e in ("netcdf4", "h5netcdf", "scipy") if e in xr.backends.list_engines()]
        if not engines:
            skip_or_fail(self, "none of xarray's netcdf4, h5netcdf or scipy engines is installed")
        compared = 0
        for file in ("reduced.nc", "tas_rectilinear_grid_2D.nc", "test_stageiv_xyt.nc"):
            path = os.path.join(DATA, file)
            with xr.open_dataset(path, engine=engines[0]) as plain:
                ours = strata.open(path, device="cuda")
                for name, v in plain.data_vars.items():
                    # CuPy has no datetime64: as_cupy() of a whole Dataset with a date variable
                    # (a time_bnds) fails, so each numeric variable is moved on its own.
                    if v.dtype.kind in "iuf" and v.ndim > 0:
                        v = v.cupy.as_cupy()
                        with self.subTest(file=file, variable=name, engine=engines[0]):
                            self.assertIsInstance(v.data, cupy.ndarray)
                            self.assertIsInstance(ours[name].data, cupy.ndarray)
                            cupy.testing.assert_array_equal(ours[name].data, v.data, err_msg=f"{file} {name}")
                            compared += 1
        self.assertGreater(compared, 2)

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

    def test_device_out_of_range(self):
        count = cupy.cuda.runtime.getDeviceCount()
        with self.assertRaises(strata.ValueError) as cm:
            strata.open(os.path.join(DATA, "reduced.nc"), device=f"cuda:{count}")
        self.assertIn(f"device 'cuda:{count}' does not exist", str(cm.exception))
        many = "is 1 CUDA device (cuda:0)" if count == 1 else f"are {count} CUDA devices"
        self.assertIn(f"there {many}", str(cm.exception))
        self.assertEqual(_strata._cuda_device_count(), count)

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

    def test_dlpack_stream_is_never_0(self):
        # DLPack forbids stream 0 for CUDA (no stream, or which default stream?). Strata as a
        # consumer names its own stream (or 1, the legacy one), and as a producer refuses 0.
        a = cupy.arange(8, dtype=cupy.float32)

        class Recording:
            def __init__(self):
                self.streams = []

            def __dlpack_device__(self):
                return a.__dlpack_device__()

            def __dlpack__(self, stream=None):
                self.streams.append(stream)
                return a.__dlpack__(stream=stream)
        producer = Recording()
        exported = _strata._import_array(producer, ["x"])
        self.assertEqual(len(producer.streams), 1)
        self.assertIsInstance(producer.streams[0], int)
        self.assertNotIn(producer.streams[0], (0, -1))
        with self.assertRaises(strata.ValueError) as cm:
            exported.__dlpack__(stream=0)
        self.assertIn("DLPack stream 0 is ambiguous for CUDA", str(cm.exception))
        side = cupy.cuda.Stream()
        for stream in (None, 1, 2, -1, side.ptr):  # the values DLPack allows
            with self.subTest(stream=stream):
                cupy.testing.assert_array_equal(cupy.from_dlpack(_StreamAsked(exported, stream)), a)

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
            # A fact of the machine, not something missing from it: a skip even under
            # STRATA_REQUIRE_GPU, which gpu-python.sh allows by name (PYTHON_ALLOWED_SKIPS).
            self.skipTest("needs a second GPU (this machine has one)")
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
            skip_or_fail(self, "no display for the window (DISPLAY or QT_QPA_PLATFORM)")

    def field(self, nt=5):
        import xarray as xr
        data = cupy.random.default_rng(3).standard_normal((nt, 181, 360), dtype=cupy.float32)
        return xr.DataArray(data, dims=("time", "lat", "lon"), name="t",
                            coords={"lat": np.linspace(-90, 90, 181), "lon": np.arange(360.0)})

    def test_shown_and_read_back_without_leaving_the_device(self):
        # With a colour range given, the frames (181 × 360 float32, 260 KB each) stay on the
        # device: what crosses device→host is each shown frame's least and greatest value and
        # its count of missing cells (24 bytes), which decide the colour bar's triangles and its
        # missing swatch. The counter counts every crossing.
        da = self.field()
        before = d2h()
        view = strata.show(da, vmin=-4, vmax=4)
        try:
            frame = view.frame()
            self.assertIsInstance(frame, cupy.ndarray)
            cupy.testing.assert_array_equal(frame, da.data[0])
            view.update(da * 3)
            cupy.testing.assert_array_equal(view.frame(), da.data[0] * 3)
            moved = d2h() - before
            print(f"device→host bytes, two arrays shown with vmin/vmax and read back: {moved}")
            self.assertEqual(moved, 2 * 24, "bytes crossed device→host: two frames' extremes and counts")
        finally:
            view.close()

    def test_frame_ranges_cross_once_as_one_table(self):
        # Without a range, the colour bar's labels need each frame's extremes on the host: the
        # array shown is resident as it is, reduced once on the device for all its frames, and
        # that table alone crosses (min and max of 5 frames in float32: 40 bytes per array).
        # Reading each frame's extremes back instead would cost 16 bytes a frame shown.
        da = self.field(nt=5)
        table = 2 * 5 * 4
        before = d2h()
        view = strata.show(da)
        try:
            cupy.testing.assert_array_equal(view.frame(), da.data[0])
            self.assertEqual(d2h() - before, table, "device→host bytes for the first array")
            view.update(da * 3)
            cupy.testing.assert_array_equal(view.frame(), da.data[0] * 3)
            view.frame()
            moved = d2h() - before
            print(f"device→host bytes, two arrays of 5 frames shown and read back: {moved}")
            self.assertEqual(moved, 2 * table, "device→host bytes for two arrays")
        finally:
            view.close()

if __name__ == "__main__":
    unittest.main()
