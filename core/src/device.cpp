#include "strata/core/device.h"

namespace strata {

std::string Device::toString() const {
    return isHost() ? std::string("host") : "cuda:" + std::to_string(ordinal);
}

} // namespace strata
