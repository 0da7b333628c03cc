#pragma once
// AtomicFile: write a file so that readers see the old file or the whole new one, never a part.
// Write to tempPath(), then commit() renames it over the target; if commit() is never reached
// (an error, an exception), the destructor removes the temporary file.
#include <string>
#include <vector>

namespace strata {

class AtomicFile {
public:
    // Throws IoError when `target` is one of `protectedFiles` (the input files: never
    // overwritten), is a directory, or its folder is missing or not writable.
    explicit AtomicFile(std::string target, const std::vector<std::string>& protectedFiles = {});
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    const std::string& tempPath() const { return temp_; }
    const std::string& target() const { return target_; }
    // Flushes the temporary file to disk and renames it over the target. Throws IoError.
    void commit();

private:
    std::string target_, temp_;
    bool committed_ = false;
};

// True when a and b name the same existing file (same device and inode).
bool sameFile(const std::string& a, const std::string& b);

} // namespace strata
