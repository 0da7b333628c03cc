#pragma once
// Where a lazily loaded variable's stored values come from (implemented by strata_io for
// netCDF). Reads return values in the stored (packed) type, C order, contiguous.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace strata {

class DataSource {
public:
    virtual ~DataSource() = default;
    // Reads, along every dim i, count[i] values from start[i] in steps of stride[i] (>= 1)
    // into `out`, which holds product(count) elements of the stored type. Thread-safe.
    // Throws NetcdfError naming the file, the variable and the problem.
    virtual void read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
                      std::span<const std::int64_t> stride, void* out) const = 0;
    // "file.nc: variable 'sst'", for messages.
    virtual std::string describe() const = 0;
    // How reads go, in words, for -v and the dataset panel: "parallel: 365 chunks, deflate +
    // shuffle" or "netCDF-C: szip filter". Empty when there is nothing to say.
    virtual std::string readPath() const { return {}; }
    // Reads of at least this many bytes are spread over threads; callers that can choose (a
    // whole-variable load) ask for at least this much at a time. 0: reads are serial.
    virtual std::size_t parallelReadBytes() const { return 0; }
};

} // namespace strata
