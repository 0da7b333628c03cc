#pragma once
// Headless runs of the command line: --info and the exports, with no window.
#include <string>

#include "cli.h"
#include "export_view.h"
#include "strata/core/dataset.h"
#include "view_spec.h"

namespace strata::app {

// The view the options describe on `ds` (variable, axes, slices, reductions, colours); `grid`:
// the --grid-file's dataset, when given. Throws UsageError for anything the user named that
// does not exist or does not fit.
ViewSpec resolveView(const CliOptions& options, const Dataset& ds, const Dataset* grid = nullptr);

// The --grid-file's dataset, or null when none is given. Throws Error naming the file.
std::shared_ptr<const Dataset> openGridFile(const CliOptions& options);

// The names of the colour maps --cmap takes, joined by `separator` (empty in a build without
// the render layer).
std::string colormapList(const std::string& separator);

// The files --export-csv/--export-png name, and how they are drawn (size, coastlines, grid).
std::vector<ExportTarget> exportTargetsOf(const CliOptions& options);
ExportOptions exportOptionsOf(const CliOptions& options);

// Runs --info / --export-*; returns the exit status (messages already printed to stderr).
int runBatch(const CliOptions& options);

// Opens the --with datasets and adds the --derive variables to `ds`, in order. Throws Error
// naming the file or the expression.
void applyDerived(const CliOptions& options, Dataset& ds);

} // namespace strata::app
