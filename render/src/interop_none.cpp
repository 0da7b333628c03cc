// CUDA-GL interop without CUDA: registration always declines.
#include "interop.h"

namespace strata::detail {

std::unique_ptr<RegisteredPbo> registerPbo(unsigned, std::size_t, Device, const std::string&,
                                           std::string* whyNot) {
    if (whyNot) *whyNot = "CUDA is not compiled in";
    return nullptr;
}

} // namespace strata::detail
