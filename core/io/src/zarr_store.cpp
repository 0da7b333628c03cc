#include "zarr_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "strata/core/error.h"
#include "strata/core/memory_budget.h"

namespace strata::io::detail {

void checkKey(const std::string& store, const std::string& key) {
    auto refuse = [&](const std::string& why) {
        STRATA_FAIL(NetcdfError, store + ": key '" + key + "' refused: " + why);
    };
    if (key.empty()) refuse("it is empty");
    if (key.find('\0') != std::string::npos) refuse("it holds a NUL character");
    if (key.find('\\') != std::string::npos) refuse("it holds a backslash");
    std::size_t begin = 0;
    for (;;) {
        const std::size_t end = std::min(key.find('/', begin), key.size());
        const std::string part = key.substr(begin, end - begin);
        if (part.empty()) refuse("it has an empty part (a leading, doubled or trailing '/')");
        if (part == "." || part == "..") refuse("it has a '" + part + "' part, which would leave the store");
        if (end == key.size()) break;
        begin = end + 1;
    }
}

namespace {

class LocalStore final : public ZarrStore {
public:
    explicit LocalStore(std::string path) : path_(std::move(path)) {
        while (path_.size() > 1 && path_.back() == '/') path_.pop_back();
    }

    std::optional<Bytes> get(const std::string& key, std::uint64_t maxBytes) const override {
        checkKey(path_, key);
        const std::string file = path_ + "/" + key;
        const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            if (errno == ENOENT || errno == ENOTDIR) return std::nullopt;
            STRATA_FAIL(NetcdfError, path_ + ": cannot read key '" + key + "': " + std::strerror(errno));
        }
        struct Closer {
            int fd;
            ~Closer() { ::close(fd); }
        } closer{fd};
        struct stat st {};
        if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
            STRATA_FAIL(NetcdfError, path_ + ": key '" + key + "' is not a regular file");
        const auto size = std::uint64_t(st.st_size);
        STRATA_EXPECTS(size <= maxBytes, NetcdfError,
                       path_ + ": key '" + key + "' holds " + formatBytes(size) + ", more than the " +
                           formatBytes(maxBytes) + " it may hold");
        Bytes out(size);
        std::uint64_t done = 0;
        while (done < size) {
            const ssize_t n = ::pread(fd, out.data() + done, size - done, off_t(done));
            if (n < 0 && errno == EINTR) continue;
            STRATA_EXPECTS(n > 0, NetcdfError,
                           path_ + ": reading key '" + key + "' failed" +
                               (n < 0 ? std::string(": ") + std::strerror(errno) : " (the file shrank)"));
            done += std::uint64_t(n);
        }
        return out;
    }

    std::vector<std::string> children(const std::string& prefix) const override {
        if (!prefix.empty()) checkKey(path_, prefix);
        std::vector<std::string> out;
        std::error_code ec;
        const std::filesystem::path dir = prefix.empty() ? path_ : path_ + "/" + prefix;
        for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            std::error_code ec2;
            if (it->is_directory(ec2) && !it->is_symlink(ec2)) {
                std::string n = it->path().filename().string();
                if (!n.empty() && n[0] != '.') out.push_back(std::move(n));
            }
        }
        std::sort(out.begin(), out.end());
        return out;
    }

    const std::string& name() const override { return path_; }

private:
    std::string path_;
};

} // namespace

std::shared_ptr<const ZarrStore> openLocalStore(const std::string& path) {
    std::error_code ec;
    STRATA_EXPECTS(std::filesystem::is_directory(path, ec), NetcdfError,
                   path + ": not a directory (a Zarr store is a directory of keys)");
    return std::make_shared<LocalStore>(path);
}

} // namespace strata::io::detail
