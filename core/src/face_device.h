#pragma once
// FaceLocator's search on a device (face_locator.h's findOnDevice): its tables, uploaded to a
// device on the first search there and kept with the locator (cuda/face_tables.cpp), and the
// kernel that finds each point's face by face_find.h (cuda/face_locator.cu).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "face_find.h"
#include "strata/core/stream.h"

namespace strata::mesh::detail {

struct FaceTablesOnDevice; // cuda/face_tables.cpp: the tables' Buffers and how they are ordered

// A locator's tables on the devices it searched on, by device ordinal; empty without CUDA.
struct FaceDeviceCache {
    std::mutex mutex;
    std::vector<std::shared_ptr<FaceTablesOnDevice>> byOrdinal;
};

// How many elements each of FaceTables' arrays has: what goes up.
struct FaceTableSizes {
    std::size_t xyz = 0, faceNodes = 0, sign = 0, binStart = 0, binFaces = 0;
};

#if STRATA_HAVE_CUDA
// out[k] = findFace(the tables on stream's device, lon[k], lat[k]) for k < n (n > 0), ordered
// on `stream`; the tables uploaded from `host` first where that device has none yet. Throws
// ValueError for arrays not in memory of stream's device.
void findFacesCuda(FaceDeviceCache& cache, const FaceTables& host, const FaceTableSizes& sizes,
                   const double* lon, const double* lat, std::int64_t n, std::int64_t* out, Stream stream);
// The kernel's launch on `stream`, the tables in `t` on its device (current).
void launchFindFaces(const FaceTables& t, const double* lon, const double* lat, std::int64_t n,
                     std::int64_t* out, Stream stream);
#endif

} // namespace strata::mesh::detail
