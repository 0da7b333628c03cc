#pragma once
// Regions of a file's variables for Python: the file described without reading its values, and
// one region (a Dask chunk) read and decoded. Each process keeps the files it opened, so that a
// Dask worker reading many chunks of one file opens it once.
#include <pybind11/pybind11.h>

namespace strata::py {

void bindRegions(pybind11::module_& m);

} // namespace strata::py
