#include "raw_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>

#include "strata/core/error.h"

namespace strata::io::detail {

std::shared_ptr<const RawFile> RawFile::open(const std::string& path, const std::string& what) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    STRATA_EXPECTS(fd >= 0, NetcdfError,
                   what + ": cannot open the file for reading (" + std::strerror(errno) + ")");
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int e = errno;
        ::close(fd);
        STRATA_FAIL(NetcdfError, what + ": cannot read the file's size (" + std::strerror(e) + ")");
    }
    // One descriptor per file (and size) for all its variables, not one each: a file of
    // thousands of variables would otherwise use up the process's descriptors (often 1024).
    static std::mutex mutex;
    static std::map<std::tuple<dev_t, ino_t, off_t>, std::weak_ptr<const RawFile>> shared;
    std::lock_guard<std::mutex> lock(mutex);
    std::erase_if(shared, [](const auto& entry) { return entry.second.expired(); });
    std::weak_ptr<const RawFile>& slot = shared[{st.st_dev, st.st_ino, st.st_size}];
    if (auto file = slot.lock()) {
        ::close(fd);
        return file;
    }
    std::shared_ptr<const RawFile> file(new RawFile(fd, std::uint64_t(st.st_size)));
    slot = file;
    return file;
}

RawFile::~RawFile() { ::close(fd_); }

void RawFile::read(std::uint64_t offset, std::uint64_t bytes, void* out, const std::string& what) const {
    STRATA_EXPECTS(offset <= size_ && bytes <= size_ - offset, NetcdfError,
                   what + ": bytes " + std::to_string(offset) + " to " + std::to_string(offset + bytes) +
                       " lie past the end of the file (" + std::to_string(size_) + " bytes)");
    auto* dst = static_cast<char*>(out);
    while (bytes > 0) {
        const std::size_t want = std::size_t(std::min<std::uint64_t>(bytes, std::uint64_t(1) << 30));
        const ssize_t got = ::pread(fd_, dst, want, off_t(offset));
        if (got < 0 && errno == EINTR) continue;
        STRATA_EXPECTS(got >= 0, NetcdfError,
                       what + ": reading " + std::to_string(want) + " bytes at byte " +
                           std::to_string(offset) + " failed (" + std::strerror(errno) + ")");
        STRATA_EXPECTS(got > 0, NetcdfError,
                       what + ": the file ends at byte " + std::to_string(offset) +
                           ", before the data it describes (was it truncated while open?)");
        dst += got;
        offset += std::uint64_t(got);
        bytes -= std::uint64_t(got);
    }
}

} // namespace strata::io::detail
