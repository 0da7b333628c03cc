#include "strata/core/cancel.h"

namespace strata {
namespace {
thread_local const std::atomic<bool>* currentFlag = nullptr;
} // namespace

CancelScope::CancelScope(const std::atomic<bool>* flag) : previous_(currentFlag) { currentFlag = flag; }
CancelScope::~CancelScope() { currentFlag = previous_; }
const std::atomic<bool>* CancelScope::current() { return currentFlag; }
bool CancelScope::cancelled() {
    const std::atomic<bool>* f = currentFlag;
    return f && f->load();
}

} // namespace strata
