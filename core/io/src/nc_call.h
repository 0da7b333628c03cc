#pragma once
// netCDF-C is not thread-safe: every call into it holds the one lock below. Status codes
// become NetcdfError here, with the library's text and our own words.
#include <mutex>
#include <string>

namespace strata::io::detail {

// The process-wide lock for all netCDF-C calls (recursive: helpers may nest).
std::recursive_mutex& netcdfMutex();
// Holds the lock; the first time on each thread it also turns off HDF5's printing of its error
// stack, which HDF5 keeps per thread (netCDF-C turns it off only on the thread that first
// called it): a read from a worker thread would otherwise fill stderr with HDF5-DIAG lines for
// attributes netCDF-C merely probes for.
class NetcdfLock {
public:
    explicit NetcdfLock(std::recursive_mutex& m) : lock_(m) { quietHdf5OnThisThread(); }

private:
    static void quietHdf5OnThisThread();
    std::lock_guard<std::recursive_mutex> lock_;
};
// In a child made by fork() while the parent held the lock: a fresh, unlocked one (the child
// has one thread, and the copied mutex belongs to the parent's).
void replaceNetcdfMutexInChild();

// "NetCDF: Not a valid ID (status -33)" plus a plain-words hint for the common failures.
std::string statusText(int status);

// Throws NetcdfError("<context>: <statusText>") when status is not NC_NOERR.
void check(int status, const std::string& context);
[[noreturn]] void fail(int status, const std::string& context);

// The last component of a path ("data/hgt.nc" → "hgt.nc"), for messages.
std::string fileName(const std::string& path);

} // namespace strata::io::detail
