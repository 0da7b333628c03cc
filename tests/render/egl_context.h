#pragma once
// A headless OpenGL context through EGL, for tests that need GL but no window system: on the
// NVIDIA device that is CUDA device `cudaOrdinal` when the driver offers one, else any EGL
// device (Mesa's software one here), else the default display, made current surfaceless.
#include <string>

namespace test {

class EglContext {
public:
    explicit EglContext(int cudaOrdinal = 0);
    ~EglContext();
    EglContext(const EglContext&) = delete;
    EglContext& operator=(const EglContext&) = delete;

    bool ok() const { return context_ != nullptr; }
    const std::string& problem() const { return problem_; }         // why not ok
    const std::string& description() const { return description_; } // which display and renderer
    bool makeCurrent();

private:
    std::string tryDisplay(void* display, const std::string& which); // empty on success
    void* display_ = nullptr;
    void* context_ = nullptr;
    std::string problem_, description_;
};

} // namespace test
