#pragma once
// The host Buffers' free list: large pageable host allocations released by a Buffer are kept,
// keyed by size, and handed to the next Buffer of the same size instead of fresh memory, whose
// first touch costs a page fault per 4 KiB page (slow on virtual machines: filling a fresh
// 1.5 GB buffer took 1.7-6.2 s on the benchmark VM). A viewer stepping through a variable
// allocates the same frame-sized buffers step after step. Fresh allocations of 8 MiB or more
// are 2 MiB aligned and advised for transparent huge pages. Off under AddressSanitizer, so that
// it still sees every use after free.
#include <cstddef>

namespace strata::detail {

struct HostPoolLimits {
    std::size_t minBytes = std::size_t(1) << 20;  // smaller blocks: malloc's own free lists
    std::size_t maxBytes = std::size_t(64) << 20; // kept in all, the largest block included
    std::size_t maxBlocks = 16;
};

void* hostAllocate(std::size_t bytes);                    // null when out of memory
void hostRelease(void* data, std::size_t bytes) noexcept; // `bytes` as given to hostAllocate

// For tests and memory pressure.
std::size_t hostPoolBytes();                          // bytes kept for reuse
std::size_t hostPoolBlocks();                         // blocks kept for reuse
void trimHostPool();                                  // frees every kept block
void setHostPoolLimits(const HostPoolLimits& limits); // trims to the new limits
HostPoolLimits hostPoolLimits();

} // namespace strata::detail
