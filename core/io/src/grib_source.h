#pragma once
// A GRIB variable as a DataSource: its fields (one message each, or none) over the cube's axes,
// each decoded by ecCodes on the CPU into float32, missing points and missing fields NaN. The
// fields a read meets are decoded in parallel on the reader's threads.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "grib_scan.h"
#include "raw_file.h"
#include "strata/core/data_source.h"

namespace strata::io::detail {

struct GribField {
    GribSpan span;
    bool present = false;
    bool alternativeRows = false;
};

// The files a GRIB dataset reads, a span's `file` indexing them, each with its path.
struct GribFiles {
    std::vector<std::shared_ptr<const RawFile>> files;
    std::vector<std::string> paths;
};

class GribSource final : public DataSource {
public:
    // `fields` covers `axes` (the variable's leading dims, C order); each field is nj x ni, or
    // `flat`: one dim of ni points (a reduced Gaussian grid's, nj 1). `what` names the variable's
    // file (set) in errors.
    GribSource(std::shared_ptr<const GribFiles> files, std::string what, std::string label,
               std::vector<std::int64_t> axes, std::vector<GribField> fields, long nj, long ni,
               bool flat = false);

    void read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
              std::span<const std::int64_t> stride, void* out) const override;
    std::string describe() const override { return what_ + ": variable '" + label_ + "'"; }
    std::string readPath() const override;
    std::size_t parallelReadBytes() const override { return std::size_t(nj_ * ni_) * 4 * 2; }
    std::vector<std::int64_t> chunkShape() const override;
    // Onto a CUDA device, whole fields in simple packing (GRIB 2) are decoded there
    // (strata/core/simple_unpack.h), the messages' bytes copied as they are; nullopt otherwise
    // (on the host, or other packings: read() decodes them with ecCodes).
    std::optional<Buffer> evaluate(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
                                   std::span<const std::int64_t> stride, Device device,
                                   Stream stream) const override;

private:
    std::vector<std::int64_t> shape() const; // axes_, then the field's dims
    // The cell (index into fields_) of the k-th field of a box over the leading dims.
    std::size_t cellOf(std::size_t k, std::span<const std::int64_t> start,
                       std::span<const std::int64_t> count, std::span<const std::int64_t> stride) const;
    std::shared_ptr<const GribFiles> files_;
    std::string what_, label_;
    std::vector<std::int64_t> axes_;
    std::vector<GribField> fields_;
    long nj_, ni_;
    bool flat_;
};

// Values held in memory (coordinates: 0-d, 1-d or 2-d) as float64, as a DataSource; or made
// on each read by `make` (a reduced Gaussian grid's mesh, too big to hold from the open on).
class GribValuesSource final : public DataSource {
public:
    GribValuesSource(std::vector<std::int64_t> shape, std::vector<double> values, std::string what)
        : shape_(std::move(shape)), values_(std::move(values)), what_(std::move(what)) {}
    GribValuesSource(std::vector<std::int64_t> shape, std::function<std::vector<double>()> make,
                     std::string what)
        : shape_(std::move(shape)), make_(std::move(make)), what_(std::move(what)) {}
    void read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
              std::span<const std::int64_t> stride, void* out) const override;
    std::string describe() const override { return what_; }

private:
    std::vector<std::int64_t> shape_;
    std::vector<double> values_;
    std::function<std::vector<double>()> make_;
    std::string what_;
};

} // namespace strata::io::detail
