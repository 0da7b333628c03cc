#pragma once
// The stack depth a derived program is evaluated with, chosen once for both backends' host code.
#include "derived_program.h"

namespace strata::detail {

// Calls fn.template operator()<Depth>() with the smallest compiled depth that holds `stack`.
template <class F> void withDepth(int stack, F&& fn) {
    if (stack <= kDerivedDepths[0])
        fn.template operator()<kDerivedDepths[0]>();
    else if (stack <= kDerivedDepths[1])
        fn.template operator()<kDerivedDepths[1]>();
    else
        fn.template operator()<kDerivedDepths[2]>();
}

} // namespace strata::detail
