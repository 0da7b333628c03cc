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

// "cpu", "cuda" or "cuda:N" as a Device (ValueError saying what is wrong).
Device parseDevice(const std::string& text);

// A coordinate as a dict of its parts: name, dims, shape, values, dtype, attrs, time, problem.
pybind11::dict exportCoordinate(const Coordinate& c);

// Attributes as a list of (name, dtype name, value): text as str, numbers as a list.
pybind11::list exportAttributes(const Attributes& attrs);

} // namespace strata::py
