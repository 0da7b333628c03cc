#include "strata/core/healpix.h"

namespace strata::healpix {

std::string nsideProblem(std::int64_t nside, Order order) {
    if (nside < 1 || nside > kMaxNside) return "nside " + std::to_string(nside) + " is outside 1 to 2^29";
    if (order == Order::Nest && (nside & (nside - 1)) != 0)
        return "nside " + std::to_string(nside) + " is not a power of two, as the nest order needs";
    return {};
}

} // namespace strata::healpix
