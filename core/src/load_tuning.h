#pragma once
// Test hooks for Variable::load's upload pipelines: smaller batches make a small file take
// several rounds through the double-buffered staging. Not for production use.
#include <cstddef>

namespace strata::detail {

// The bytes of inflated chunks (or read values) staged per round before an upload; 0 restores
// the default (64 MiB). Set, it is also the exact budget of the slab uploads (load_plan.h),
// which by default grow to a chunked source's parallelReadBytes, and loadSlabBytes gives the
// slab it is asked for (loadWhole's slabs are then the test's).
void setUploadBatchBytes(std::size_t bytes);
std::size_t uploadBatchBytes();
bool uploadBatchForced();

} // namespace strata::detail
