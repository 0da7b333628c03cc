#pragma once
// netCDF-C trusts the counts in a classic (CDF-1, CDF-2, CDF-5) header: it allocates what a
// damaged header declares and copies over-long names into fixed buffers. This reads and checks
// the header itself, bounded by the file's size, before netCDF-C sees it, and finds how many
// bytes the data need (netCDF-C reads zeros past the end of a truncated file). No netCDF call.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace strata::io::detail {

struct ClassicHeader {
    // The size the header says the file must have at least: the end of its last variable
    // (record variables over all records). nullopt when it could not be decided.
    std::optional<std::uint64_t> extent;
    // Why the header is damaged ("variable 'v' declares 3523215360 dimensions, more than ..."),
    // empty when it reads correctly (or could not be decided: then netCDF-C's checks stand).
    std::string problem;
    // Set when the file is shorter than `extent`: what is missing, in words.
    std::string truncation;

    // Where each variable's data lie, in header (= variable id) order; filled when the header
    // reads correctly. A record variable's record r starts at begin + r * recordStride.
    struct Placement {
        std::uint64_t begin = 0;
        std::uint64_t bytes = 0; // of the whole variable, or of one record
        bool record = false;
        int typeSize = 0;
    };
    std::vector<Placement> variables;
    std::uint64_t recordStride = 0;
    std::uint64_t records = 0; // the header's record count
    bool streaming = false;    // the record count is "unknown" (written while streaming)
};

// `path` must start with a classic magic number (see isClassicMagic).
ClassicHeader checkClassicHeader(const std::string& path);
// "CDF\x01", "CDF\x02" or "CDF\x05" in the first four bytes.
bool isClassicMagic(const std::string& path);

} // namespace strata::io::detail
