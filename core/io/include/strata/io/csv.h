#pragma once
// CSV export of a frame (2-D) or a line (1-D), through the explicit copy-to-host path.
#include <cstdint>
#include <string>
#include <vector>

#include "strata/core/data_array.h"

namespace strata::io {

struct CsvResult {
    std::int64_t rows = 0;             // data rows written (the header not counted)
    std::uint64_t bytesFromDevice = 0; // device→host bytes this export moved
};

// How the header names its columns: as xarray does ("lat", "tas"), or each with its units
// where it has them ("lat [degrees_north]", "tas [K]"; a time column, written as dates, and an
// index column have none).
enum class CsvHeader { Names, NamesWithUnits };

// Long form, a header line first, as xarray's to_dataframe() lays it out: for a 2-D frame one
// row per cell, columns `<y dim>,<x dim>[,<aux coord>...][,<scalar coord>...],<name>` with y
// outer; for a line `<dim>[,<scalar coord>...],<name>`. Auxiliary coordinates over the frame's
// two dims (2-D latitude/longitude) and the scalar coordinates a slice left (`time` of the
// frame at one time step) become columns. Coordinates as stored, exactly (time as ISO 8601),
// the index where a dim has no coordinate; values in their dtype's shortest round-trip form,
// NaN as an empty field.
// The write is atomic and never replaces one of `protectedFiles`. Throws IoError.
CsvResult writeCsv(const DataArray& frame, const std::string& path,
                   const std::vector<std::string>& protectedFiles = {}, CsvHeader header = CsvHeader::Names);

} // namespace strata::io

namespace strata {
using io::writeCsv;
}
