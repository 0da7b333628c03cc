#pragma once
// The flag that cancels the work a thread is doing now, for readers that wait on the network
// (Zarr over HTTP): while a CancelScope is alive, a read on this thread, or on the reader's
// threads working for it, aborts its transfers and throws CancelledError once the flag turns
// true. The flags are the ones the work already polls between slabs (a load's cancel, the
// frame service's interrupt, an open's Cancel); the scope lets a read that is stuck inside one
// slab see them too.
#include <atomic>

namespace strata {

class CancelScope {
public:
    // `flag` (null: none) is this thread's until the scope ends; scopes nest.
    explicit CancelScope(const std::atomic<bool>* flag);
    ~CancelScope();
    CancelScope(const CancelScope&) = delete;
    CancelScope& operator=(const CancelScope&) = delete;

    // This thread's flag (null outside any scope).
    static const std::atomic<bool>* current();
    // True when this thread's flag is set.
    static bool cancelled();

private:
    const std::atomic<bool>* previous_;
};

} // namespace strata
