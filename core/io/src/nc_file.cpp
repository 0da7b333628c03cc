#include "nc_file.h"

#include <netcdf.h>

#include <filesystem>
#include <system_error>

#include "hdf5_superblock.h"
#include "nc3_header.h"
#include "nc_call.h"
#include "strata/core/error.h"
#include "strata/io/netcdf.h"
#include "zarr_http.h"

namespace strata::io::detail {

NcFile::NcFile(std::string path, int ncid) : path_(std::move(path)), name_(fileName(path_)), ncid_(ncid) {}

NcFile::~NcFile() {
    try {
        NetcdfLock lock(netcdfMutex());
        nc_close(ncid_);
    } catch (...) { // a lock failure: nothing sensible left to do in a destructor
    }
}

// An OPeNDAP URL (not Zarr: openDataset sent those to Strata's own reader) goes straight to
// netCDF-C's DAP2/DAP4 client: none of the local file's checks apply.
std::shared_ptr<const NcFile> NcFile::openRemote(const std::string& url) {
    int ncid = -1;
    int rc;
    {
        NetcdfLock lock(netcdfMutex());
        rc = nc_open(url.c_str(), NC_NOWRITE, &ncid);
    }
    STRATA_EXPECTS(rc == NC_NOERR, NetcdfError,
                   "cannot open '" + url + "' through OPeNDAP (netCDF-C's DAP client): " + statusText(rc) +
                       " (is the server up, and does it serve this path as OPeNDAP?)");
    return std::shared_ptr<const NcFile>(new NcFile(url, ncid));
}

std::shared_ptr<const NcFile> NcFile::open(const std::string& path) {
    if (isHttpUrl(path)) return openRemote(path);
    namespace fs = std::filesystem;
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (!fs::exists(status)) STRATA_FAIL(NetcdfError, "cannot open '" + path + "': no such file");
    if (fs::is_directory(status)) STRATA_FAIL(NetcdfError, "cannot open '" + path + "': it is a directory");
    if (fs::file_size(path, ec) == 0 && !ec)
        STRATA_FAIL(NetcdfError, "cannot open '" + path + "': the file is empty (not a netCDF file)");

    if (isClassicMagic(path)) {
        // netCDF-C trusts a classic header's counts and reads zeros past a truncated end: check first.
        const ClassicHeader header = checkClassicHeader(path);
        if (!header.problem.empty())
            STRATA_FAIL(NetcdfError,
                        "cannot open '" + path + "': its netCDF-3 header is damaged: " + header.problem);
        if (!header.truncation.empty())
            STRATA_FAIL(NetcdfError, "cannot open '" + path + "': " + header.truncation);
    }
    if (const auto recorded = hdf5RecordedSize(path)) {
        // HDF5 would refuse it too, saying only "HDF error".
        const auto size = fs::file_size(path, ec);
        STRATA_EXPECTS(ec || *recorded <= size, NetcdfError,
                       "cannot open '" + path + "': the file is truncated (it has " + std::to_string(size) +
                           " bytes, its HDF5 superblock records " + std::to_string(*recorded) + ")");
    }
    int ncid = -1;
    int rc;
    {
        NetcdfLock lock(netcdfMutex());
        rc = nc_open(path.c_str(), NC_NOWRITE, &ncid);
    }
    if (rc != NC_NOERR) {
        if (rc > 0) // a system error (errno): permission denied and the like
            STRATA_FAIL(NetcdfError, "cannot open '" + path + "': " + std::generic_category().message(rc));
        std::string text = "cannot open '" + path + "': " + statusText(rc);
        if (looksLikeNetcdf(path))
            text += "; the file starts like netCDF, so it is probably truncated or damaged";
        STRATA_FAIL(NetcdfError, text);
    }
    return std::shared_ptr<const NcFile>(new NcFile(path, ncid));
}

} // namespace strata::io::detail
