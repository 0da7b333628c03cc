#include "strata/core/fallback.h"

#include <map>
#include <mutex>

#include "strata/core/error.h"
#include "strata/core/runtime.h"

namespace strata {
namespace {

struct Marks {
    std::mutex mutex;
    std::map<int, std::string> why; // by CUDA ordinal
};
Marks& marks() {
    static Marks m;
    return m;
}

std::string describe(const DataArray& a) {
    if (const auto& s = a.variable().source()) return s->describe();
    return "variable '" + a.name() + "'";
}

// The message, prefixed with the variable's description unless it names it already.
std::string named(const DataArray& a, const std::string& message) {
    const std::string d = describe(a);
    return message.find(d) != std::string::npos ? message : d + ": " + message;
}

// Why `device` cannot be used now, or empty.
std::string absence(Device device) {
    if (device.isHost()) return {};
    if (!cudaCompiled()) return "this build has no CUDA backend";
    if (device.ordinal < 0 || device.ordinal >= cudaDeviceCount())
        return "there is no usable CUDA device " + device.toString() + " (" +
               std::to_string(cudaDeviceCount()) + " found)";
    const std::string why = whyUnusable(device);
    return why.empty() ? std::string() : device.toString() + " was marked unusable earlier: " + why;
}

DataArray onHost(const DataArray& source) {
    if (source.isLoaded() && source.device().isHost()) return source;
    return source.load(Device::host(), Stream::host());
}

} // namespace

bool deviceUsable(Device device) { return device.isHost() || whyUnusable(device).empty(); }

std::string whyUnusable(Device device) {
    if (device.isHost()) return {};
    Marks& m = marks();
    std::lock_guard<std::mutex> lock(m.mutex);
    const auto it = m.why.find(device.ordinal);
    return it == m.why.end() ? std::string() : it->second;
}

void markUnusable(Device device, const std::string& why) {
    if (device.isHost()) return;
    Marks& m = marks();
    std::lock_guard<std::mutex> lock(m.mutex);
    m.why.emplace(device.ordinal, why); // the first reason is the telling one
}

void resetUnusable() {
    Marks& m = marks();
    std::lock_guard<std::mutex> lock(m.mutex);
    m.why.clear();
}

DataArray loadWithFallback(const DataArray& a, Device device, Stream stream, FallbackNote& note) {
    note = {};
    if (device.isHost()) {
        try {
            return a.load(device, stream);
        } catch (const OutOfMemoryError& e) {
            throw OutOfMemoryError(named(a, e.what()), e.where());
        }
    }
    std::string why = absence(device);
    if (why.empty()) {
        try {
            return a.load(device, stream);
        } catch (const OutOfMemoryError& e) {
            why = e.what();
        } catch (const CudaError& e) {
            why = e.what();
            markUnusable(device, e.what());
        }
    }
    note.fellBack = true;
    note.reason = named(a, why) + "; loaded on the CPU instead";
    return onHost(a);
}

DataArray runWithFallback(Device device, const DataArray& source, const std::function<DataArray(Device)>& op,
                          FallbackNote& note) {
    note = {};
    if (device.isHost()) {
        try {
            return op(device);
        } catch (const OutOfMemoryError& e) {
            throw OutOfMemoryError(named(source, e.what()), e.where());
        }
    }
    std::string why = absence(device);
    if (why.empty()) {
        try {
            return op(device);
        } catch (const OutOfMemoryError& e) {
            why = e.what();
        } catch (const CudaError& e) {
            why = e.what();
            markUnusable(device, e.what());
        }
    }
    note.fellBack = true;
    note.reason = named(source, why) + "; computed on the CPU instead";
    return op(Device::host());
}

DataArray computeWithFallback(const DataArray& source, const DataArray& resident,
                              const std::function<DataArray(const DataArray&)>& op, FallbackNote& note) {
    const Device device = resident.isLoaded() ? resident.device() : Device::host();
    return runWithFallback(
        device, source, [&](Device d) { return d == device ? op(resident) : op(onHost(source)); }, note);
}

} // namespace strata
