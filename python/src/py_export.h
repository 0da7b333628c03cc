#pragma once
// strata.export_view: a view of a file written as CSV or PNG through the one export the window
// and the command line use (app/export_view.h), with the command line's words for the view.
#include <pybind11/pybind11.h>

namespace strata::py {

void bindExport(pybind11::module_& m);

} // namespace strata::py
