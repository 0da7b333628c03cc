#pragma once
// A ceiling on the bytes one request may allocate (a variable's load, a coordinate read at
// open), so that a file declaring an enormous variable gets a clear refusal instead of an
// attempt. Unlimited by default (a device's free memory still limits loads); the environment
// variable STRATA_MEMORY_BUDGET ("1048576", "512M", "8G", "1.5T"; binary units) sets it on
// first use, setMemoryBudget() overrides it.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace strata {

inline constexpr std::size_t kUnlimitedMemory = static_cast<std::size_t>(-1);

// The budget in bytes (kUnlimitedMemory when none). A STRATA_MEMORY_BUDGET that is not a size
// is warned about once and leaves it unlimited.
std::size_t memoryBudget();
void setMemoryBudget(std::size_t bytes); // kUnlimitedMemory lifts it
// "512M" → 536870912; a plain number is bytes; K/M/G/T (optionally followed by "iB" or "B")
// are powers of 1024. nullopt for anything else, negative or overflowing sizes.
std::optional<std::size_t> parseByteSize(std::string_view text);

// Throws OutOfMemoryError "<what>: needs 12 GiB, more than the memory budget of 2 GiB
// (STRATA_MEMORY_BUDGET)" when `bytes` exceeds the budget; allocates nothing.
void checkMemoryBudget(std::size_t bytes, const std::string& what);
// "12 MiB", "1.5 GiB", "512 bytes": a size for messages.
std::string formatBytes(std::size_t bytes);

} // namespace strata
