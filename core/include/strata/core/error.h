#pragma once
// The project's exceptions. what() is the message a user reads (it names the file, the
// variable and the problem); where() is the source place that raised it, for developers.
#include <stdexcept>
#include <string>

namespace strata {

class Error : public std::runtime_error {
public:
    Error(const std::string& message, std::string where = {})
        : std::runtime_error(message), where_(std::move(where)) {}
    const std::string& where() const noexcept { return where_; }

private:
    std::string where_;
};

// A caller passed something the operation cannot take: an unknown dim, a wrong shape.
class ValueError : public Error {
    using Error::Error;
};
// An index or a slice outside a dim's length.
class IndexError : public Error {
    using Error::Error;
};
// A file's attributes cannot be decoded under the CF conventions (units, calendar, packing).
class DecodeError : public Error {
    using Error::Error;
};
// netCDF-C or the file system refused: missing file, not netCDF, truncated, unreadable.
class NetcdfError : public Error {
    using Error::Error;
};
// A write failed (export, CSV); the target is left untouched.
class IoError : public Error {
    using Error::Error;
};
// A CUDA runtime call failed.
class CudaError : public Error {
    using Error::Error;
};
// An allocation could not be satisfied, on the host or a device; the message gives the sizes.
class OutOfMemoryError : public Error {
    using Error::Error;
};

// The user moved on (a newer request, the file closed): the work was stopped, not failed.
class CancelledError : public Error {
    using Error::Error;
};

namespace detail {
std::string place(const char* file, int line);
}

} // namespace strata

// Throws ErrorType(message) with the source place when cond is false.
#define STRATA_EXPECTS(cond, ErrorType, message)                                                             \
    do {                                                                                                     \
        if (!(cond)) throw ErrorType((message), ::strata::detail::place(__FILE__, __LINE__));                \
    } while (0)

// Throws ErrorType(message) with the source place.
#define STRATA_FAIL(ErrorType, message)                                                                      \
    throw ErrorType((message), ::strata::detail::place(__FILE__, __LINE__))
