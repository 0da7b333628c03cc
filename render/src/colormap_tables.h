#pragma once
// The colour-map tables embedded at build time from resources/colormaps (generated source).
#include <vector>

namespace strata::detail {

struct BuiltinColormap {
    const char* name;
    const unsigned char* rgb; // entries × 3, low values first
    int entries;
};

const std::vector<BuiltinColormap>& builtinColormaps();

} // namespace strata::detail
