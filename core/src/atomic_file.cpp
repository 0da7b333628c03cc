#include "strata/core/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "strata/core/error.h"

namespace strata {
namespace {

std::string folderOf(const std::string& path) {
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

} // namespace

bool sameFile(const std::string& a, const std::string& b) {
    struct stat sa, sb;
    if (stat(a.c_str(), &sa) != 0 || stat(b.c_str(), &sb) != 0) return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

AtomicFile::AtomicFile(std::string target, const std::vector<std::string>& protectedFiles)
    : target_(std::move(target)) {
    STRATA_EXPECTS(!target_.empty(), IoError, "no output file given");
    for (const auto& input : protectedFiles)
        STRATA_EXPECTS(!sameFile(target_, input), IoError,
                       "refusing to write " + target_ + ": it is the input file " + input);
    struct stat st;
    STRATA_EXPECTS(!(stat(target_.c_str(), &st) == 0 && S_ISDIR(st.st_mode)), IoError,
                   "cannot write " + target_ + ": it is a directory");
    const std::string folder = folderOf(target_);
    STRATA_EXPECTS(access(folder.c_str(), W_OK) == 0, IoError,
                   "cannot write " + target_ + ": " + folder + ": " + std::strerror(errno));
    std::string pattern = target_ + ".tmp-XXXXXX";
    const int fd = mkstemp(pattern.data());
    STRATA_EXPECTS(fd >= 0, IoError, "cannot write " + target_ + ": " + std::strerror(errno));
    close(fd);
    temp_ = pattern;
}

AtomicFile::~AtomicFile() {
    if (!committed_ && !temp_.empty()) std::remove(temp_.c_str());
}

void AtomicFile::commit() {
    const int fd = open(temp_.c_str(), O_RDONLY);
    const bool synced = fd >= 0 && fsync(fd) == 0;
    const int syncErrno = errno;
    if (fd >= 0) close(fd);
    STRATA_EXPECTS(synced, IoError, "cannot write " + target_ + ": " + std::strerror(syncErrno));
    // mkstemp makes the file 0600; give it the permissions a new file would get.
    const mode_t mask = umask(0);
    umask(mask);
    chmod(temp_.c_str(), 0666 & ~mask);
    STRATA_EXPECTS(std::rename(temp_.c_str(), target_.c_str()) == 0, IoError,
                   "cannot write " + target_ + ": " + std::strerror(errno));
    committed_ = true;
}

} // namespace strata
