#pragma once
// CancelToken: the one way to ask work to stop. Loads, streamed reductions, reads over the
// network and opens all take one; whoever holds a copy may cancel it, and the work stops at its
// next check with CancelledError (throwIfCancelled), never by returning nothing.
// CancelScope makes a token the current thread's, for readers deep below that take no token
// (Zarr over HTTP, and the reader's helper threads working for this thread): a read stuck inside
// one slab aborts its transfers as soon as the token is cancelled.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace strata {

class CancelToken {
public:
    CancelToken(); // a fresh token, not cancelled; copies share its state

    void cancel() const; // idempotent; wakes waitFor and runs the onCancel callbacks once
    bool cancelled() const noexcept;
    // Throws CancelledError("<what>: cancelled") when cancelled.
    void throwIfCancelled(const std::string& what) const;
    // Sleeps up to `timeout`, woken at once by cancel(); returns cancelled().
    bool waitFor(std::chrono::milliseconds timeout) const;

    // Unregisters its callback when destroyed (waiting for a run in progress, so it must not be
    // destroyed under a lock the callback takes).
    class Subscription {
    public:
        Subscription() = default;
        Subscription(Subscription&& o) noexcept;
        Subscription& operator=(Subscription&& o) noexcept;
        ~Subscription();

    private:
        friend class CancelToken;
        struct Impl;
        std::unique_ptr<Impl> impl_;
    };
    // Runs `fn` once when the token is cancelled (on the cancelling thread; at once, here, when
    // it is cancelled already) unless the subscription has ended before.
    [[nodiscard]] Subscription onCancel(std::function<void()> fn) const;

    friend bool operator==(const CancelToken& a, const CancelToken& b) { return a.state_ == b.state_; }

private:
    struct State;
    std::shared_ptr<State> state_;
};

// While a CancelScope is alive, `token` is this thread's; scopes nest.
class CancelScope {
public:
    explicit CancelScope(const CancelToken& token);
    ~CancelScope();
    CancelScope(const CancelScope&) = delete;
    CancelScope& operator=(const CancelScope&) = delete;

    static const CancelToken* current(); // this thread's token (null outside any scope)
    static bool cancelled();             // true when this thread's token is cancelled

private:
    CancelToken token_;
    const CancelToken* previous_;
};

} // namespace strata
