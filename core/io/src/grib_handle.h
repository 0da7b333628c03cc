#pragma once
// One GRIB message in memory with its ecCodes handle (RAII), and the reads the reader makes of
// it: text keys, and the values decoded on the CPU with missing points as NaN.
#include <eccodes.h>

#include <optional>
#include <string>
#include <vector>

#include "grib_scan.h"
#include "raw_file.h"

namespace strata::io::detail {

// What cfgrib calls a missing value (float32's largest): the bitmap's holes read as this, then NaN.
inline constexpr double kGribMissing = 3.4028234663852886e+38;

class GribHandle {
public:
    // Reads the message's bytes and parses them. Throws NetcdfError naming `what` and the
    // message when the read fails or ecCodes cannot parse it.
    static GribHandle read(const RawFile& file, const GribSpan& span, const std::string& what);
    // The same, the bytes read into `scratch` (grown when short, never shrunk), which must
    // outlive the handle and not be read into again while it lives: a thread's reads one after
    // another, without a fresh allocation (and its page faults) each time.
    static GribHandle read(const RawFile& file, const GribSpan& span, const std::string& what,
                           std::vector<unsigned char>& scratch);
    // A GRIB 2 message's sections up to its data (section 7), which is left out: what its keys
    // need, a few kilobytes read of a message of megabytes. Its values cannot be read. nullopt
    // where the message is not GRIB 2 or its sections do not chain to a section 7 within it
    // (read it whole then, and let ecCodes say what is wrong). `header` is filled with the
    // sections 1 to 5 (and a byte for section 6's bitmap indicator), in order.
    static std::optional<GribHandle> readHeaders(const RawFile& file, const GribSpan& span,
                                                 const std::string& what, std::vector<unsigned char>& scratch,
                                                 std::vector<unsigned char>& header);
    ~GribHandle();
    GribHandle(GribHandle&& other) noexcept;
    GribHandle& operator=(GribHandle&&) = delete;
    GribHandle(const GribHandle&) = delete;
    GribHandle& operator=(const GribHandle&) = delete;

    codes_handle* get() const { return handle_; }
    // The values, row by row as the grid is ni wide (odd rows turned where they run backwards),
    // missing points NaN. Throws NetcdfError naming `what` and the message when ecCodes cannot
    // decode them or their count is not `expected`.
    std::vector<double> values(std::size_t expected, long ni, bool alternativeRows) const;
    // A double array key (distinctLatitudes, latitudes, ...); empty when absent.
    std::vector<double> doubles(const char* key) const;

private:
    GribHandle(std::vector<unsigned char> bytes, codes_handle* h, std::string where)
        : bytes_(std::move(bytes)), handle_(h), where_(std::move(where)) {}
    static codes_handle* parse(const RawFile& file, const GribSpan& span, const std::string& what,
                               unsigned char* bytes);
    std::vector<unsigned char> bytes_; // ecCodes reads them in place (empty: the caller's scratch)
    codes_handle* handle_ = nullptr;
    std::string where_; // "file.grib2: message 3"
};

// " (ecCodes: <what it logged last on this thread>)", or "" when it logged nothing; clears it.
std::string ecCodesSays();

// A text key's value; nullopt when the message has none.
std::optional<std::string> handleText(codes_handle* h, const char* key);

} // namespace strata::io::detail
