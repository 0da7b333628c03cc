#pragma once
// A file opened for positioned reads from many threads at once (pread), for the parallel
// reader. Read-only; never writes.
#include <cstdint>
#include <memory>
#include <string>

namespace strata::io::detail {

class RawFile {
public:
    // Throws NetcdfError naming `what` when the file cannot be opened.
    static std::shared_ptr<const RawFile> open(const std::string& path, const std::string& what);
    ~RawFile();
    RawFile(const RawFile&) = delete;
    RawFile& operator=(const RawFile&) = delete;

    std::uint64_t size() const { return size_; }
    // Reads exactly `bytes` bytes at `offset` into `out`. Throws NetcdfError, the message
    // beginning with `what`, when the range is outside the file or the read fails or comes
    // short (the file shrank).
    void read(std::uint64_t offset, std::uint64_t bytes, void* out, const std::string& what) const;

private:
    RawFile(int fd, std::uint64_t size) : fd_(fd), size_(size) {}
    int fd_;
    std::uint64_t size_;
};

} // namespace strata::io::detail
