// Built without ecCodes: GRIB files are recognised, and opening one says why it cannot be read.
#include "strata/core/error.h"
#include "strata/io/grib.h"

namespace strata::io {

bool gribSupported() { return false; }

Dataset openGrib(const std::string& path, OpenNotes&) {
    STRATA_FAIL(NetcdfError, path + ": a GRIB file, and this build of Strata reads no GRIB (it was built "
                                    "without ecCodes: install libeccodes-dev and build again)");
}

Dataset openGribFiles(const std::vector<std::string>& paths, OpenNotes& notes) {
    STRATA_EXPECTS(!paths.empty(), ValueError, "no GRIB file to open");
    return openGrib(paths.front(), notes);
}

std::string gribLibraryVersion() { return {}; }

} // namespace strata::io
