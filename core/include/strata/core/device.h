#pragma once
// Where bytes live: the host, or one CUDA device.
#include <string>

namespace strata {

enum class DeviceKind { Host, Cuda };

struct Device {
    DeviceKind kind = DeviceKind::Host;
    int ordinal = 0;

    static constexpr Device host() { return {DeviceKind::Host, 0}; }
    static constexpr Device cuda(int ordinal = 0) { return {DeviceKind::Cuda, ordinal}; }
    constexpr bool isHost() const { return kind == DeviceKind::Host; }
    constexpr bool isCuda() const { return kind == DeviceKind::Cuda; }
    friend constexpr bool operator==(const Device&, const Device&) = default;
    std::string toString() const; // "host", "cuda:0"
};

} // namespace strata
