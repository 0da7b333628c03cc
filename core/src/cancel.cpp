// CancelToken: a shared flag, a condition variable for sleepers and the callbacks to run.
#include "strata/core/cancel.h"

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>

#include "strata/core/error.h"

namespace strata {

struct CancelToken::State {
    std::atomic<bool> flag{false};
    std::mutex mutex; // held while callbacks run, so that a subscription ends after its run
    std::condition_variable woken;
    std::map<std::uint64_t, std::function<void()>> callbacks;
    std::uint64_t next = 0;
};

struct CancelToken::Subscription::Impl {
    std::shared_ptr<State> state;
    std::uint64_t id = 0;
};

CancelToken::CancelToken() : state_(std::make_shared<State>()) {}

void CancelToken::cancel() const {
    if (state_->flag.exchange(true)) return; // before the lock: a callback may cancel it again
    std::lock_guard lock(state_->mutex);
    state_->woken.notify_all();
    for (auto& [id, fn] : state_->callbacks) fn();
    state_->callbacks.clear();
}

bool CancelToken::cancelled() const noexcept { return state_->flag.load(); }

void CancelToken::throwIfCancelled(const std::string& what) const {
    if (cancelled()) STRATA_FAIL(CancelledError, what + ": cancelled");
}

bool CancelToken::waitFor(std::chrono::milliseconds timeout) const {
    std::unique_lock lock(state_->mutex);
    return state_->woken.wait_for(lock, timeout, [&] { return state_->flag.load(); });
}

CancelToken::Subscription CancelToken::onCancel(std::function<void()> fn) const {
    Subscription s;
    {
        std::lock_guard lock(state_->mutex);
        if (!state_->flag.load()) {
            const std::uint64_t id = state_->next++;
            state_->callbacks.emplace(id, std::move(fn));
            s.impl_ = std::make_unique<Subscription::Impl>(Subscription::Impl{state_, id});
            return s;
        }
    }
    fn(); // cancelled already
    return s;
}

CancelToken::Subscription::Subscription(Subscription&& o) noexcept = default;
CancelToken::Subscription& CancelToken::Subscription::operator=(Subscription&& o) noexcept {
    if (this != &o) {
        Subscription gone(std::move(*this));
        impl_ = std::move(o.impl_);
    }
    return *this;
}

CancelToken::Subscription::~Subscription() {
    if (!impl_) return;
    std::lock_guard lock(impl_->state->mutex);
    impl_->state->callbacks.erase(impl_->id);
}

namespace {
thread_local const CancelToken* currentToken = nullptr;
} // namespace

CancelScope::CancelScope(const CancelToken& token) : token_(token), previous_(currentToken) {
    currentToken = &token_;
}
CancelScope::~CancelScope() { currentToken = previous_; }
const CancelToken* CancelScope::current() { return currentToken; }
bool CancelScope::cancelled() { return currentToken && currentToken->cancelled(); }

} // namespace strata
