// Without CUDA: no device frames to resample.
#include "healpix_map_backend.h"
#include "reproject_backend.h"
#include "strata/core/error.h"

namespace strata::detail {

void reprojectCuda(const ReprojectProblem&) {
    STRATA_FAIL(Error, "reprojection on a device: CUDA was not compiled in");
}

void gatherCuda(const ReprojectProblem&, const std::int64_t*, std::int64_t) {
    STRATA_FAIL(Error, "reprojection on a device: CUDA was not compiled in");
}

void interpolateCuda(const void*, std::int64_t, int, const std::int32_t*, const float*, int, std::int64_t,
                     void*, void*) {
    STRATA_FAIL(Error, "node values interpolated on a device: CUDA was not compiled in");
}

void inverseCuda(const ProjParams&, const double*, const double*, double*, double*, std::int64_t, void*) {
    STRATA_FAIL(Error, "inverse projection on a device: CUDA was not compiled in");
}

void healpixIndexCuda(const HealpixMapProblem&, std::int64_t*) {
    STRATA_FAIL(Error, "a HEALPix map on a device: CUDA was not compiled in");
}

} // namespace strata::detail
