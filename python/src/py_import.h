#pragma once
// Python → Strata without a copy: a Variable whose Buffer borrows an array's memory (DLPack's
// __dlpack__, or __cuda_array_interface__), keeping the producer alive while any view of it does.
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "strata/core/variable.h"

namespace strata::py {

// `array` as a Variable with `dims` and `attrs`. `context` names it in errors ("variable
// 'tas'"). Throws ValueError for a dtype Strata does not take, an array on a device Strata
// does not compute on, dims that do not match, or an object that exports neither protocol.
Variable importVariable(pybind11::handle array, std::vector<std::string> dims, Attributes attrs,
                        const std::string& context);

// Python attributes (str, int, float, bool, sequences and NumPy arrays of numbers) as
// Strata's; others are kept as their str().
Attributes importAttributes(pybind11::handle mapping);

} // namespace strata::py
