#pragma once
// Variables whose values Python computes box by box (Dask-backed arrays in strata.show): a
// lazy Variable over a DataSource that calls back into Python for each box a frame needs.
#include <pybind11/pybind11.h>

#include "strata/core/variable.h"

namespace strata::py {

// A lazy variable made by _strata._computed, for _make_dataset to take as a variable's data.
struct ComputedVariable {
    Variable variable;
};

void bindComputed(pybind11::module_& m);

} // namespace strata::py
