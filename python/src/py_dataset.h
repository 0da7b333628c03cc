#pragma once
// Datasets between Python and Strata: a file read by Strata's reader handed to Python as plain
// parts (arrays without a copy, host coordinates, attributes), and Python's parts (xarray's
// variables and coords) made into a Strata Dataset held in memory.
#include <pybind11/pybind11.h>

#include <memory>

#include "strata/core/dataset.h"

namespace strata::py {

// A Strata Dataset held by Python (for show and update).
struct HeldDataset {
    std::shared_ptr<const Dataset> dataset;
};

void bindDatasets(pybind11::module_& m);

// Attributes as a list of (name, dtype name, value): text as str, numbers as a list.
pybind11::list exportAttributes(const Attributes& attrs);

} // namespace strata::py
