#include "grib_handle.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <mutex>

#include "strata/core/error.h"

namespace strata::io::detail {
namespace {

// ecCodes' last error on this thread: it logs its reasons (to stderr by default) and returns
// only a code; they are kept here for the messages of ours that follow.
thread_local std::string lastError;

void keepError(const codes_context*, int level, const char* message) {
    // The first since it was last cleared: the cause; later ones follow from it.
    if ((level == CODES_LOG_ERROR || level == CODES_LOG_FATAL) && message && lastError.empty())
        lastError = message;
}

void takeEcCodesLog() {
    static std::once_flag once;
    std::call_once(once, [] { codes_context_set_logging_proc(codes_context_get_default(), keepError); });
}

} // namespace

std::string ecCodesSays() {
    std::string said = std::move(lastError);
    lastError.clear();
    while (!said.empty() && std::isspace(static_cast<unsigned char>(said.back()))) said.pop_back();
    return said.empty() ? std::string() : " (ecCodes: " + said + ")";
}

GribHandle GribHandle::read(const RawFile& file, const GribSpan& span, const std::string& what) {
    std::vector<unsigned char> bytes(span.length);
    codes_handle* h = parse(file, span, what, bytes.data());
    return GribHandle(std::move(bytes), h, what + ": message " + std::to_string(span.number));
}

GribHandle GribHandle::read(const RawFile& file, const GribSpan& span, const std::string& what,
                            std::vector<unsigned char>& scratch) {
    if (scratch.size() < span.length) scratch.resize(span.length);
    codes_handle* h = parse(file, span, what, scratch.data());
    return GribHandle({}, h, what + ": message " + std::to_string(span.number));
}

std::optional<GribHandle> GribHandle::readHeaders(const RawFile& file, const GribSpan& span,
                                                  const std::string& what,
                                                  std::vector<unsigned char>& scratch,
                                                  std::vector<unsigned char>& header) {
    constexpr std::uint64_t kFirstRead = 4096;
    if (span.edition != 2 || span.length < 16 + 4) return std::nullopt;
    const std::string where = what + ": message " + std::to_string(span.number);
    header.clear();
    std::uint64_t have = std::min(span.length, kFirstRead);
    if (scratch.size() < have + 9) scratch.resize(have + 9);
    file.read(span.offset, have, scratch.data(), where);
    const auto big = [&](std::uint64_t at, int n) {
        std::uint64_t v = 0;
        for (int i = 0; i < n; ++i) v = (v << 8) | scratch[at + std::uint64_t(i)];
        return v;
    };
    std::uint64_t at = 16; // after section 0
    while (true) {
        if (at + 5 > span.length - 4) return std::nullopt; // no section 7 before "7777"
        if (at + 6 > have) { // the next section's header lies beyond what was read
            const std::uint64_t more = std::min(span.length, std::max(2 * have, at + kFirstRead));
            if (scratch.size() < more + 9) scratch.resize(more + 9);
            file.read(span.offset + have, more - have, scratch.data() + have, where);
            have = more;
        }
        const std::uint64_t length = big(at, 4);
        const int number = scratch[at + 4];
        if (number == 7) break;
        if (length < 5 || number < 1 || number > 6 || at + length > span.length - 4) return std::nullopt;
        if (number != 6 && at + length > have) { // keys' sections are read whole
            const std::uint64_t more = std::min(span.length, at + length + kFirstRead);
            if (scratch.size() < more + 9) scratch.resize(more + 9);
            file.read(span.offset + have, more - have, scratch.data() + have, where);
            have = more;
        }
        if (number == 6) { // its bitmap (read below, where ecCodes wants it): its indicator here
            header.push_back(at + 5 < have ? scratch[at + 5] : 0);
        } else { // the local section too: a centre's concepts may read it
            header.insert(header.end(), scratch.begin() + std::ptrdiff_t(at),
                          scratch.begin() + std::ptrdiff_t(at + length));
        }
        at += length;
    }
    if (at > have) { // a bitmap longer than read
        if (scratch.size() < at + 9) scratch.resize(at + 9);
        file.read(span.offset + have, at - have, scratch.data() + have, where);
    }
    // An empty section 7 and "7777" after the sections kept; the total length told.
    const unsigned char tail[9] = {0, 0, 0, 5, 7, '7', '7', '7', '7'};
    std::copy(tail, tail + 9, scratch.begin() + std::ptrdiff_t(at));
    const std::uint64_t total = at + 9;
    for (int i = 0; i < 8; ++i)
        scratch[8 + std::size_t(i)] = static_cast<unsigned char>(total >> (8 * (7 - i)));
    takeEcCodesLog();
    lastError.clear();
    codes_handle* h = codes_handle_new_from_message(nullptr, scratch.data(), total);
    if (!h) return std::nullopt; // the whole message will say why
    return GribHandle({}, h, where);
}

codes_handle* GribHandle::parse(const RawFile& file, const GribSpan& span, const std::string& what,
                                unsigned char* bytes) {
    takeEcCodesLog();
    const std::string where = what + ": message " + std::to_string(span.number);
    file.read(span.offset, span.length, bytes, where);
    lastError.clear();
    codes_handle* h = codes_handle_new_from_message(nullptr, bytes, span.length);
    if (!h) {
        const std::string said = ecCodesSays();
        STRATA_FAIL(NetcdfError, where +
                                     (said.find("dataRepresentation") != std::string::npos
                                          ? ": its packing (data representation) is not known to ecCodes"
                                          : ": ecCodes cannot parse it") +
                                     said);
    }
    return h;
}

GribHandle::~GribHandle() {
    if (handle_) codes_handle_delete(handle_);
}

GribHandle::GribHandle(GribHandle&& other) noexcept
    : bytes_(std::move(other.bytes_)), handle_(other.handle_), where_(std::move(other.where_)) {
    other.handle_ = nullptr;
}

std::vector<double> GribHandle::values(std::size_t expected, long ni, bool alternativeRows) const {
    lastError.clear();
    long bitmap = 0;
    if (codes_get_long(handle_, "bitmapPresent", &bitmap) == 0 && bitmap)
        codes_set_double(handle_, "missingValue", kGribMissing);
    size_t n = 0;
    int err = codes_get_size(handle_, "values", &n);
    STRATA_EXPECTS(err == 0, NetcdfError,
                   where_ + ": its values cannot be decoded: " + codes_get_error_message(err) +
                       ecCodesSays());
    STRATA_EXPECTS(n == expected, NetcdfError,
                   where_ + ": its data section holds " + std::to_string(n) + " values for a grid of " +
                       std::to_string(expected) + " points");
    std::vector<double> out(n);
    err = codes_get_double_array(handle_, "values", out.data(), &n);
    STRATA_EXPECTS(err == 0 && n == expected, NetcdfError,
                   where_ + ": its values cannot be decoded: " + codes_get_error_message(err) +
                       ecCodesSays());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (bitmap)
        for (double& v : out)
            if (v == kGribMissing) v = nan;
    if (alternativeRows && ni > 0)
        for (std::size_t row = 1; (row + 1) * std::size_t(ni) <= out.size(); row += 2)
            std::reverse(out.begin() + std::ptrdiff_t(row * ni),
                         out.begin() + std::ptrdiff_t((row + 1) * ni));
    return out;
}

std::vector<double> GribHandle::doubles(const char* key) const {
    size_t n = 0;
    if (!codes_is_defined(handle_, key) || codes_get_size(handle_, key, &n) != 0) return {};
    std::vector<double> out(n);
    if (codes_get_double_array(handle_, key, out.data(), &n) != 0) return {};
    out.resize(n);
    return out;
}

std::optional<std::string> handleText(codes_handle* h, const char* key) {
    if (!codes_is_defined(h, key)) return std::nullopt;
    size_t len = 0;
    if (codes_get_length(h, key, &len) != 0) return std::nullopt;
    std::string s(len + 1, '\0');
    if (codes_get_string(h, key, s.data(), &len) != 0) return std::nullopt;
    s.resize(len && s[len - 1] == '\0' ? len - 1 : len);
    return s;
}

} // namespace strata::io::detail
