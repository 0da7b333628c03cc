#include "nc_call.h"

#include <netcdf.h>

#include <dlfcn.h>

#include <atomic>
#include <cstdint>

#include "strata/core/error.h"

namespace strata::io::detail {

namespace {
std::atomic<std::recursive_mutex*>& mutexSlot() {
    // Never destroyed: files held by static objects may still close during exit.
    static std::atomic<std::recursive_mutex*> slot{new std::recursive_mutex};
    return slot;
}
} // namespace

void NetcdfLock::quietHdf5OnThisThread() {
    thread_local bool done = false;
    if (done) return;
    done = true;
    // H5Eset_auto2(H5E_DEFAULT, NULL, NULL), looked up so that only netCDF-C links HDF5;
    // absent (a netCDF-C without HDF5) means there is nothing to quiet.
    using SetAuto = int (*)(std::int64_t, void*, void*); // herr_t (hid_t, H5E_auto2_t, void*)
    if (auto f = reinterpret_cast<SetAuto>(dlsym(RTLD_DEFAULT, "H5Eset_auto2"))) f(0, nullptr, nullptr);
}

std::recursive_mutex& netcdfMutex() { return *mutexSlot().load(); }

void replaceNetcdfMutexInChild() {
    mutexSlot().store(new std::recursive_mutex); // the parent's copy stays locked by a thread not here
}

std::string statusText(int status) {
    std::string text = nc_strerror(status);
    switch (status) {
    case NC_ENOTNC:
        text += " (not a netCDF file, or its header is damaged)";
        break;
    case NC_EHDFERR:
        text += " (the HDF5 layer failed: the file may be truncated or damaged)";
        break;
    case NC_EINVAL:
        text += " (the file's header is inconsistent)";
        break;
    case NC_ENOMEM:
        text += " (out of memory)";
        break;
    case NC_EEDGE:
    case NC_EINVALCOORDS:
        text += " (a read outside the variable's shape)";
        break;
    case NC_ERANGE:
        text += " (a value does not fit the requested type)";
        break;
    case NC_EBADID:
        text += " (the file is no longer open)";
        break;
    case NC_ETRUNC:
        text += " (the file is truncated)";
        break;
    default:
        break;
    }
    return text;
}

void fail(int status, const std::string& context) {
    STRATA_FAIL(NetcdfError, context + ": " + statusText(status));
}

void check(int status, const std::string& context) {
    if (status != NC_NOERR) fail(status, context);
}

std::string fileName(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace strata::io::detail
