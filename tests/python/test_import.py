"""Arrays into Strata without a copy (DLPack, the buffer protocol, __cuda_array_interface__):
every dtype, strided and non-contiguous views, the producer kept alive, and the errors."""
import gc
import unittest
import weakref

import numpy as np

import strata
from strata import _strata

DTYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64"]


def through_strata(a, dims):
    """`a` taken by Strata (borrowed) and handed back to NumPy."""
    exported = _strata._import_array(a, list(dims))
    return exported, np.asarray(exported)


class Producer:
    """A DLPack producer around a NumPy array that records what it was asked."""

    def __init__(self, a, device=(1, 0)):
        self.a = a
        self.device = device
        self.streams = []

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return self.a.__dlpack__()


class RoundTrips(unittest.TestCase):
    def test_every_dtype(self):
        for dt in DTYPES:
            with self.subTest(dtype=dt):
                info = np.iinfo(dt) if dt[0] in "iu" else np.finfo(dt)
                a = np.arange(24).astype(dt).reshape(2, 3, 4)
                a[0, 0, 0] = info.max  # the extremes survive unchanged
                a[1, 2, 3] = info.min
                exported, back = through_strata(a, ("t", "y", "x"))
                self.assertEqual(exported.dtype, dt)
                self.assertEqual(back.dtype, np.dtype(dt))
                self.assertEqual(back.shape, (2, 3, 4))
                np.testing.assert_array_equal(back, a)
                self.assertEqual(back.ctypes.data, a.ctypes.data)  # the same memory: no copy
                self.assertTrue(exported.borrowed)

    def test_strided_and_non_contiguous(self):
        a = np.arange(5 * 6 * 7, dtype=np.float32).reshape(5, 6, 7)
        views = {
            "slices": a[1:4, ::2, 3:],
            "transposed": a.transpose(2, 0, 1),
            "fortran": np.asfortranarray(a),
            "step": a[::2, :, ::3],
        }
        for label, v in views.items():
            with self.subTest(view=label):
                self.assertFalse(label != "fortran" and v.flags.c_contiguous)
                exported, back = through_strata(v, ("a", "b", "c"))
                np.testing.assert_array_equal(back, v)
                self.assertEqual(back.strides, v.strides)
                self.assertEqual(back.ctypes.data, v.ctypes.data)

    def test_exported_through_dlpack(self):
        # Strata's own DLPack capsule, as CuPy takes device arrays: the same memory, the shape
        # and strides of the view, and the buffer kept alive by the capsule's tensor.
        a = np.arange(6 * 8, dtype=np.float64).reshape(6, 8)[::2, 1::3]
        exported = _strata._import_array(a, ["y", "x"])
        self.assertEqual(exported.shape, (3, 3))
        self.assertEqual(exported.__dlpack_device__(), (1, 0))
        back = np.from_dlpack(exported)
        self.assertEqual(back.ctypes.data, a.ctypes.data)
        self.assertEqual(back.strides, a.strides)
        gone = weakref.ref(exported)
        del exported
        gc.collect()
        self.assertIsNone(gone())  # the capsule's tensor holds the buffer, not the Python object
        np.testing.assert_array_equal(back, a)
        with self.assertRaises(strata.ValueError):
            _strata._import_array(a, ["y", "x"]).__dlpack__(stream=1)  # a host array takes no stream

    def test_read_only_array_through_the_buffer_protocol(self):
        a = np.arange(12, dtype=np.int16).reshape(3, 4)
        a.flags.writeable = False  # NumPy < 2 refuses to export it through DLPack
        _, back = through_strata(a, ("y", "x"))
        np.testing.assert_array_equal(back, a)
        self.assertEqual(back.ctypes.data, a.ctypes.data)

    def test_host_producer_gets_no_stream(self):
        p = Producer(np.ones((2, 2), np.float64))
        _, back = through_strata(p, ("y", "x"))
        self.assertEqual(p.streams, [None])
        np.testing.assert_array_equal(back, np.ones((2, 2)))


class ProducerLifetime(unittest.TestCase):
    def test_producer_outlives_its_last_python_reference(self):
        a = np.arange(100, dtype=np.float32)
        gone = weakref.ref(a)
        exported = _strata._import_array(a, ["x"])
        del a
        gc.collect()
        self.assertIsNotNone(gone(), "the producer was freed while Strata still used its memory")
        np.testing.assert_array_equal(np.asarray(exported), np.arange(100, dtype=np.float32))
        del exported
        gc.collect()
        self.assertIsNone(gone(), "Strata kept the producer after its last view went")


class Errors(unittest.TestCase):
    def test_unsupported_dtypes(self):
        for dt in ["float16", "bool", "complex64", "datetime64[ns]"]:
            with self.subTest(dtype=dt):
                with self.assertRaises(strata.ValueError) as cm:
                    _strata._import_array(np.zeros(3, dtype=dt), ["x"])
                self.assertIn(f"dtype {dt} is not supported", str(cm.exception))
                self.assertIsInstance(cm.exception, ValueError)

    def test_unsupported_dtype_through_dlpack_alone(self):
        class Half(Producer):
            pass  # no dtype attribute: the capsule's type code is what is checked
        h = Half(np.zeros(4, np.float16))
        if not hasattr(np.float16(0), "__dlpack__") and not hasattr(np.zeros(1), "__dlpack__"):
            self.skipTest("NumPy without DLPack")
        with self.assertRaises(strata.ValueError) as cm:
            _strata._import_array(h, ["x"])
        self.assertIn("float16 is not supported", str(cm.exception))

    def test_no_dlpack(self):
        for thing in ([1.0, 2.0], object(), "text"):
            with self.subTest(kind=type(thing).__name__):
                with self.assertRaises(strata.ValueError) as cm:
                    _strata._import_array(thing, ["x"])
                self.assertIn("cannot export DLPack", str(cm.exception))

    def test_dlpack_refused(self):
        class Refuses:
            def __dlpack_device__(self):
                return (1, 0)

            def __dlpack__(self, stream=None):
                raise BufferError("this array cannot be shared")
        with self.assertRaises(strata.ValueError) as cm:
            _strata._import_array(Refuses(), ["x"])
        self.assertIn("cannot export DLPack (this array cannot be shared)", str(cm.exception))

    def test_array_on_another_device(self):
        if strata.compute_device() != "host":
            self.skipTest("Strata computes on a GPU here")
        cuda = Producer(np.zeros(4, np.float32), device=(2, 0))
        with self.assertRaises(strata.ValueError) as cm:
            _strata._import_array(cuda, ["x"])
        self.assertIn("is on cuda:0 but Strata computes on the CPU", str(cm.exception))
        self.assertEqual(cuda.streams, [])  # refused before any export was asked for

        class CudaInterface:
            __cuda_array_interface__ = {"shape": (4,), "typestr": "<f4", "data": (0, False), "version": 3}
        with self.assertRaises(strata.ValueError) as cm:
            _strata._import_array(CudaInterface(), ["x"])
        self.assertIn("but Strata computes on the CPU", str(cm.exception))

    def test_big_endian_is_refused_naming_the_byte_order(self):
        # Strata borrows memory as it is: big-endian values read as the machine's would be
        # wrong, so each door refuses them, saying so and how to convert. (strata.show and
        # derive convert NumPy's themselves: test_show, test_derived.)
        a = np.arange(6, dtype=">f4")

        class Interface:
            __cuda_array_interface__ = {"shape": (6,), "typestr": ">f4", "data": (0, False), "version": 3}
        for label, thing, spelled in (("NumPy", a, ">f4"), ("buffer", memoryview(a), "'>f'"),
                                      ("interface", Interface(), ">f4")):
            with self.subTest(door=label):
                with self.assertRaises(strata.ValueError) as cm:
                    _strata._import_array(thing, ["x"])
                self.assertIn(f"dtype {spelled} is big-endian", str(cm.exception))
                self.assertIn("newbyteorder('=')", str(cm.exception))
        native = a.astype(a.dtype.newbyteorder("="))
        _, back = through_strata(native, ["x"])  # the conversion the message gives
        np.testing.assert_array_equal(back, np.arange(6, dtype=np.float32))

    def test_masked_cuda_array_interface_is_refused(self):
        # The interface says a consumer that does not take masks must refuse one; refused
        # before any device is touched (so testable without a GPU).
        class Masked:
            __cuda_array_interface__ = {"shape": (4,), "typestr": "<f4", "data": (0, False), "version": 3,
                                        "mask": object()}
        with self.assertRaises(strata.ValueError) as cm:
            _strata._import_array(Masked(), ["x"])
        self.assertIn("the __cuda_array_interface__ has a mask", str(cm.exception))

    def test_cuda_array_interface_stream_0_is_refused(self):
        # Version 3 forbids stream 0 (None, or which default stream?): refused before the device
        # is touched. Before, 0 was taken as the legacy stream, or the CPU refusal came first.
        class StreamZero:
            __cuda_array_interface__ = {"shape": (4,), "typestr": "<f4", "data": (0, False), "version": 3,
                                        "stream": 0}
        with self.assertRaises(strata.ValueError) as cm:
            _strata._import_array(StreamZero(), ["x"])
        self.assertIn("gives stream 0, which the interface forbids", str(cm.exception))

    def test_host_array_refuses_any_dlpack_stream(self):
        # DLPack: a producer on the CPU takes stream=None alone (0, 1 and -1 are CUDA's words).
        exported = _strata._import_array(np.ones(3), ["x"])
        for stream in (0, 1, -1):
            with self.subTest(stream=stream):
                with self.assertRaises(strata.ValueError) as cm:
                    exported.__dlpack__(stream=stream)
                self.assertIn(f"a host array takes no DLPack stream (got {stream})", str(cm.exception))
        np.testing.assert_array_equal(np.from_dlpack(exported), np.ones(3))

    def test_dims_must_match(self):
        with self.assertRaises(strata.ValueError) as cm:
            _strata._import_array(np.zeros((2, 3), np.float32), ["x"])
        self.assertIn("1 dims for an array of 2 dimensions", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
