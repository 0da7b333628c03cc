// The `strata` extension module (_strata): Strata's exceptions as Python's, arrays in and out
// through DLPack, files read by Strata's reader, and the window (show).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "py_array.h"
#include "py_computed.h"
#include "py_dataset.h"
#include "py_region.h"
#include "strata/core/error.h"
#include "strata/core/runtime.h"
#include "strata/core/transfer.h"
#ifdef STRATA_PY_HAVE_GUI
#include "py_export.h"
#include "py_show.h"
#endif

namespace py = pybind11;

namespace {

// strata.Error and its kinds, each also a subclass of the built-in exception it means.
PyObject* newError(py::module_& m, const char* name, PyObject* base, PyObject* builtin) {
    PyObject* bases = builtin ? PyTuple_Pack(2, base, builtin) : PyTuple_Pack(1, base);
    std::string full = std::string("strata.") + name;
    PyObject* type = PyErr_NewException(full.c_str(), bases, nullptr);
    Py_DECREF(bases);
    if (!type) throw py::error_already_set();
    m.add_object(name, py::reinterpret_borrow<py::object>(type));
    return type;
}

} // namespace

PYBIND11_MODULE(_strata, m) {
    m.doc() = "Strata: netCDF files onto the GPU, and the Strata window for xarray data";
    PyObject* error = PyErr_NewException("strata.Error", PyExc_Exception, nullptr);
    m.add_object("Error", py::reinterpret_borrow<py::object>(error));
    static PyObject* valueError = newError(m, "ValueError", error, PyExc_ValueError);
    static PyObject* indexError = newError(m, "IndexError", error, PyExc_IndexError);
    static PyObject* decodeError = newError(m, "DecodeError", error, PyExc_ValueError);
    static PyObject* netcdfError = newError(m, "NetcdfError", error, PyExc_OSError);
    static PyObject* ioError = newError(m, "IoError", error, PyExc_OSError);
    static PyObject* cudaError = newError(m, "CudaError", error, PyExc_RuntimeError);
    static PyObject* memoryError = newError(m, "OutOfMemoryError", error, PyExc_MemoryError);
    static PyObject* cancelledError = newError(m, "CancelledError", error, nullptr);
    static PyObject* baseError = error;
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const strata::ValueError& e) {
            PyErr_SetString(valueError, e.what());
        } catch (const strata::IndexError& e) {
            PyErr_SetString(indexError, e.what());
        } catch (const strata::DecodeError& e) {
            PyErr_SetString(decodeError, e.what());
        } catch (const strata::NetcdfError& e) {
            PyErr_SetString(netcdfError, e.what());
        } catch (const strata::IoError& e) {
            PyErr_SetString(ioError, e.what());
        } catch (const strata::CudaError& e) {
            PyErr_SetString(cudaError, e.what());
        } catch (const strata::OutOfMemoryError& e) {
            PyErr_SetString(memoryError, e.what());
        } catch (const strata::CancelledError& e) {
            PyErr_SetString(cancelledError, e.what());
        } catch (const strata::Error& e) {
            PyErr_SetString(baseError, e.what());
        }
    });

    strata::py::bindArray(m);
    strata::py::bindDatasets(m);
    strata::py::bindRegions(m);
    strata::py::bindComputed(m);
#ifdef STRATA_PY_HAVE_GUI
    strata::py::bindShow(m);
    strata::py::bindExport(m);
    m.attr("has_window") = true;
#else
    m.attr("has_window") = false;
#endif

    m.def(
        "compute_device", [] { return strata::computeInfo().device.toString(); },
        "Where Strata computes: \"cuda:0\", or \"host\" (and why: compute_reason())");
    m.def("compute_reason", [] { return strata::computeInfo().reason; });
    m.def(
        "transfer_counters",
        [] {
            const auto c = strata::transferCounters();
            return py::dict(py::arg("host_to_device") = c.hostToDevice,
                            py::arg("device_to_host") = c.deviceToHost);
        },
        "Bytes Strata has moved between host and devices in this process (never reset)");
}
