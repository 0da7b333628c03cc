#pragma once
// An open netCDF file, shared by the variables read from it; closed when the last one goes.
#include <memory>
#include <string>

namespace strata::io::detail {

class NcFile {
public:
    // Opens read-only (NC_NOWRITE); throws NetcdfError naming the file and the problem. An
    // http(s) URL is an OPeNDAP dataset, read by netCDF-C's DAP2/DAP4 client.
    static std::shared_ptr<const NcFile> open(const std::string& path);
    ~NcFile(); // closes; never throws
    NcFile(const NcFile&) = delete;
    NcFile& operator=(const NcFile&) = delete;

    int id() const { return ncid_; }
    const std::string& path() const { return path_; }
    const std::string& name() const { return name_; } // the file name, for messages

private:
    NcFile(std::string path, int ncid);
    static std::shared_ptr<const NcFile> openRemote(const std::string& url); // OPeNDAP
    std::string path_;
    std::string name_;
    int ncid_;
};

} // namespace strata::io::detail
