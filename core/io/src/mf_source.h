#pragma once
// A variable of a file set as one DataSource: the record dim runs through the member files
// one after the other, and a read is cut at their boundaries and served from each. Members'
// files are opened on demand and kept in a small cache, so that a set of thousands of files
// never holds more than a few hundred descriptors.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "direct_layout.h"
#include "nc_file.h"
#include "strata/core/data_source.h"
#include "strata/core/dtype.h"

namespace strata::io::detail {

// Open files of a set's members, least recently used closed first. Thread-safe.
class MemberFiles {
public:
    // `capacity` files at most (STRATA_OPEN_FILES, else a quarter of the descriptor limit,
    // 16 to 1024); 0 takes that default.
    explicit MemberFiles(std::size_t capacity = 0);
    ~MemberFiles();
    std::shared_ptr<const RawFile> raw(const std::string& path);
    std::shared_ptr<const NcFile> netcdf(const std::string& path);
    std::size_t capacity() const { return capacity_; }
    std::size_t openNow() const; // files held by the cache now

private:
    struct State;
    std::unique_ptr<State> state_;
    std::size_t capacity_;
};

struct MemberPiece {
    std::string path;                           // the member's file
    std::int64_t first;                         // its first record in the set
    std::int64_t records;                       // how many
    std::shared_ptr<const DirectLayout> layout; // without its file; null: read through netCDF-C
};

class MultiFileSource final : public DataSource {
public:
    // `shape` is the set's (the record dim summed over `pieces`); `recordAxis` its place.
    MultiFileSource(std::shared_ptr<MemberFiles> files, std::vector<MemberPiece> pieces, std::string label,
                    std::string setName, std::vector<std::int64_t> shape, int recordAxis, DType stored);

    void read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
              std::span<const std::int64_t> stride, void* out) const override;
    std::string describe() const override;
    std::string readPath() const override;
    std::size_t parallelReadBytes() const override;

private:
    bool readRuns(const std::string& path, const DirectLayout& l, const std::vector<std::int64_t>& start,
                  const std::vector<std::int64_t>& count, const std::vector<std::int64_t>& stride, void* out,
                  const std::string& what) const;
    void readPiece(const MemberPiece& piece, std::vector<std::int64_t> start,
                   const std::vector<std::int64_t>& count, const std::vector<std::int64_t>& stride,
                   void* out) const;
    std::shared_ptr<MemberFiles> files_;
    std::vector<MemberPiece> pieces_;
    std::string label_, setName_;
    std::vector<std::int64_t> shape_;
    int recordAxis_;
    DType stored_;
};

// Values held in memory (a set's record coordinate, decoded onto one axis), as a DataSource.
class HostValuesSource final : public DataSource {
public:
    HostValuesSource(std::vector<double> values, std::string what)
        : values_(std::move(values)), what_(std::move(what)) {}
    void read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
              std::span<const std::int64_t> stride, void* out) const override;
    std::string describe() const override { return what_; }

private:
    std::vector<double> values_;
    std::string what_;
};

} // namespace strata::io::detail
