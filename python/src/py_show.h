#pragma once
// strata.show: the Strata window in this process, on a Dataset held in memory, and the input
// hook that keeps it live while Python waits at its prompt.
#include <pybind11/pybind11.h>

namespace strata::py {

void bindShow(pybind11::module_& m);

} // namespace strata::py
