#include "strata/io/netcdf.h"

#include <netcdf.h>

#include <cstring>
#include <fstream>
#include <new>
#include <stdexcept>

#include "nc_call.h"
#include "nc_file.h"
#include "nc_group.h"
#include "nc_meta.h"
#include "nc_source.h"
#include "strata/core/error.h"
#include "strata/io/grib.h"
#include "strata/io/zarr.h"

namespace strata::io {

Dataset openDataset(const std::string& path) {
    OpenNotes notes;
    return openDataset(path, notes);
}

Dataset openDataset(const std::string& path, OpenNotes& notes) {
    if (looksLikeZarr(path)) return openZarr(path, notes);
    if (looksLikeGrib(path)) return openGrib(path, notes);
    try {
        auto file = detail::NcFile::open(path);
        detail::NetcdfLock lock(detail::netcdfMutex());
        int format = 0;
        detail::check(nc_inq_format(file->id(), &format), "cannot open '" + path + "'");
        int dispatch = 0, mode = 0;
        detail::check(nc_inq_format_extended(file->id(), &dispatch, &mode), "cannot open '" + path + "'");
        const std::string formatText = dispatch == NC_FORMATX_DAP2   ? std::string("OPeNDAP (DAP2)")
                                       : dispatch == NC_FORMATX_DAP4 ? std::string("OPeNDAP (DAP4)")
                                                                     : detail::formatName(format);
        detail::GroupReader reader(file, formatText, notes);
        return reader.read(file->id(), nullptr);
    } catch (const std::bad_alloc&) { // what a file declares must never escape as another type
        STRATA_FAIL(OutOfMemoryError, "cannot open '" + path + "': out of memory while reading its metadata");
    } catch (const std::length_error&) {
        STRATA_FAIL(OutOfMemoryError,
                    "cannot open '" + path + "': its metadata declares more than can be held");
    }
}

bool looksLikeNetcdf(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    char head[8] = {};
    in.read(head, sizeof head);
    if (in.gcount() >= 4 && std::memcmp(head, "CDF", 3) == 0 &&
        (head[3] == 1 || head[3] == 2 || head[3] == 5))
        return true;
    static constexpr char kHdf5[8] = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
    // HDF5 signatures sit at 0, 512, 1024, 2048, ... (after a user block).
    for (std::streamoff at = 0; at <= (std::streamoff(1) << 20); at = at ? at * 2 : 512) {
        in.clear();
        in.seekg(at);
        char sig[8] = {};
        in.read(sig, sizeof sig);
        if (in.gcount() < 8) return false;
        if (std::memcmp(sig, kHdf5, 8) == 0) return true;
    }
    return false;
}

std::string netcdfLibraryVersion() { return nc_inq_libvers(); }

std::vector<std::int64_t> storedChunkShape(const Variable& v) {
    if (v.isLoaded() || !v.source()) return {};
    if (const auto* nc = dynamic_cast<const detail::NcVariableSource*>(v.source().get()))
        return nc->storedChunkShape();
    return v.source()->chunkShape();
}

} // namespace strata::io
