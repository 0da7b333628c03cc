#pragma once
// Whether the coastlines the image view draws over longitude/latitude frames can be read.
#include <string>

#include "strata/core/data_array.h"

namespace strata {

// True when a 2-D frame's columns run along a CF longitude and its rows along a CF latitude:
// the frames coastlines are drawn over.
bool isLonLatFrame(const DataArray& frame);

// Why coastlines cannot be drawn: no GSHHG binned files ($STRATA_GSHHG_DIR, else Debian's
// gmt-gshhg folder) and no GSHHS shapefiles ($STRATA_COASTLINES_DIR, else Debian's
// python-cartopy-data folder), or a coarsest level that cannot be read (the file and the
// problem). Empty when they can. Reads the coarsest level on the first call.
std::string coastlineProblem();

} // namespace strata
