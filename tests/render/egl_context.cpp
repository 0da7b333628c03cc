#include "egl_context.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <cstring>
#include <vector>

#ifndef EGL_CUDA_DEVICE_NV
#define EGL_CUDA_DEVICE_NV 0x323A
#endif

namespace test {
namespace {

bool hasExtension(const char* list, const char* name) {
    if (!list) return false;
    const std::size_t n = std::strlen(name);
    for (const char* p = list; (p = std::strstr(p, name)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
    return false;
}

// The display of the EGL device that is CUDA device `ordinal`, else the first device's.
EGLDisplay deviceDisplay(int ordinal, std::string& which) {
    const char* clientExt = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!hasExtension(clientExt, "EGL_EXT_device_enumeration") &&
        !hasExtension(clientExt, "EGL_EXT_device_base"))
        return EGL_NO_DISPLAY;
    auto queryDevices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
    auto queryAttrib =
        reinterpret_cast<PFNEGLQUERYDEVICEATTRIBEXTPROC>(eglGetProcAddress("eglQueryDeviceAttribEXT"));
    auto platformDisplay =
        reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (!queryDevices || !platformDisplay) return EGL_NO_DISPLAY;
    EGLint n = 0;
    if (!queryDevices(0, nullptr, &n) || n <= 0) return EGL_NO_DISPLAY;
    std::vector<EGLDeviceEXT> devices(static_cast<std::size_t>(n));
    queryDevices(n, devices.data(), &n);
    EGLDeviceEXT chosen = devices[0];
    which = "EGL device 0 of " + std::to_string(n);
    for (EGLint i = 0; i < n && queryAttrib; ++i) {
        EGLAttrib cuda = -1;
        if (queryAttrib(devices[static_cast<std::size_t>(i)], EGL_CUDA_DEVICE_NV, &cuda) && cuda == ordinal) {
            chosen = devices[static_cast<std::size_t>(i)];
            which = "EGL device " + std::to_string(i) + " (CUDA device " + std::to_string(ordinal) + ")";
            break;
        }
    }
    eglGetError(); // a device without the CUDA attribute leaves an error behind
    return platformDisplay(EGL_PLATFORM_DEVICE_EXT, chosen, nullptr);
}

} // namespace

EglContext::EglContext(int cudaOrdinal) {
    // Candidate displays in order; the first on which a context can be made current wins.
    std::vector<std::pair<EGLDisplay, std::string>> candidates;
    std::string which;
    EGLDisplay dev = deviceDisplay(cudaOrdinal, which);
    if (dev != EGL_NO_DISPLAY) candidates.emplace_back(dev, which);
    auto platformDisplay =
        reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (platformDisplay &&
        hasExtension(eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS), "EGL_MESA_platform_surfaceless"))
        candidates.emplace_back(platformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr),
                                "Mesa's surfaceless platform");
    candidates.emplace_back(eglGetDisplay(EGL_DEFAULT_DISPLAY), "the default EGL display");
    for (auto& [dpy, name] : candidates) {
        if (dpy == EGL_NO_DISPLAY) continue;
        std::string why = tryDisplay(dpy, name);
        if (context_) return;
        problem_ += (problem_.empty() ? "" : "; ") + name + ": " + why;
    }
}

std::string EglContext::tryDisplay(void* display, const std::string& which) {
    EGLDisplay dpy = static_cast<EGLDisplay>(display);
    EGLint major = 0, minor = 0;
    if (!eglInitialize(dpy, &major, &minor)) return "eglInitialize failed";
    if (!eglBindAPI(EGL_OPENGL_API)) return "cannot bind the OpenGL API";
    const EGLint configAttribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint count = 0;
    const bool haveConfig = eglChooseConfig(dpy, configAttribs, &config, 1, &count) && count >= 1;
    if (!haveConfig && !hasExtension(eglQueryString(dpy, EGL_EXTENSIONS), "EGL_KHR_no_config_context"))
        return "no config for desktop OpenGL";
    const EGLint contextAttribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                     3,
                                     EGL_CONTEXT_MINOR_VERSION,
                                     3,
                                     EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                     EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                     EGL_NONE};
    EGLContext ctx =
        eglCreateContext(dpy, haveConfig ? config : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, contextAttribs);
    if (ctx == EGL_NO_CONTEXT) return "eglCreateContext failed (error " + std::to_string(eglGetError()) + ")";
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        eglDestroyContext(dpy, ctx);
        return "eglMakeCurrent without a surface failed";
    }
    display_ = dpy;
    context_ = ctx;
    const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    description_ = which + ", EGL " + std::to_string(major) + "." + std::to_string(minor) + ", " +
                   (renderer ? renderer : "?") + ", OpenGL " + (version ? version : "?");
    return {};
}

bool EglContext::makeCurrent() {
    return context_ && eglMakeCurrent(static_cast<EGLDisplay>(display_), EGL_NO_SURFACE, EGL_NO_SURFACE,
                                      static_cast<EGLContext>(context_));
}

EglContext::~EglContext() {
    if (!display_) return;
    eglMakeCurrent(static_cast<EGLDisplay>(display_), EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context_) eglDestroyContext(static_cast<EGLDisplay>(display_), static_cast<EGLContext>(context_));
    eglTerminate(static_cast<EGLDisplay>(display_));
}

} // namespace test
