#pragma once
// Test hooks for Variable::load's upload pipelines: smaller batches make a small file take
// several rounds through the double-buffered staging. Not for production use.
#include <cstddef>

namespace strata::detail {

// The bytes of inflated chunks (or read values) staged per round before an upload; 0 restores
// the default (64 MiB).
void setUploadBatchBytes(std::size_t bytes);
std::size_t uploadBatchBytes();

} // namespace strata::detail
