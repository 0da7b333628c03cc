#pragma once
// The reader's own threads: file reads and chunk inflation run here, apart from the compute
// pool (core/src/cpu), so that a load in the background never takes the threads a frame needs.
#include <cstddef>
#include <functional>

namespace strata::io::detail {

// Threads that read: STRATA_IO_THREADS when set (1 to 256), else the machine's cores.
int ioThreads();

// Calls fn(i) for every i in [0, tasks) on the reader's threads and the caller's, and returns
// when all are done. After a task throws, tasks not yet started are skipped and the first
// exception is rethrown here. Safe to call from several threads at once.
void ioParallel(std::size_t tasks, const std::function<void(std::size_t)>& fn);

} // namespace strata::io::detail
