#pragma once
// FaceLocator's tables (face_locator.h), built on the host's threads: each node's unit vector,
// each face's winding, and the uniform lon/lat bin grid over the faces' boxes, each bin's faces
// in ascending order. The same mesh gives the same tables, bit for bit, on any thread count.
#include <cstdint>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "face_find.h"
#include "host_pool.h"
#include "strata/core/mesh.h"

namespace strata::mesh::detail {

// The tables' allocator: host_pool.h's memory (huge pages for large tables: a 5 M-face mesh's
// tables and their helpers fault in 700 MB, 4 KiB at a time otherwise), and new elements of
// trivial types left unwritten, so that resize() neither writes them nor faults their pages in
// on one thread: the threads that fill a table first write it.
template <class T> struct UnwrittenAllocator : std::allocator<T> {
    template <class U> struct rebind { using other = UnwrittenAllocator<U>; };
    UnwrittenAllocator() = default;
    template <class U> UnwrittenAllocator(const UnwrittenAllocator<U>&) noexcept {}
    T* allocate(std::size_t n) {
        void* p = n > SIZE_MAX / sizeof(T) ? nullptr : strata::detail::hostAllocate(n * sizeof(T));
        if (!p) throw std::bad_alloc();
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) noexcept { strata::detail::hostRelease(p, n * sizeof(T)); }
    template <class U> void construct(U* p) noexcept { ::new (static_cast<void*>(p)) U; }
    template <class U, class... A> void construct(U* p, A&&... a) {
        ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
    }
};
template <class T> using Table = std::vector<T, UnwrittenAllocator<T>>;

struct FaceGrid {
    Table<double> xyz;       // nodes × 3: each node's unit vector
    Table<std::int8_t> sign; // each face's winding: 1 or -1 (0: no area, never found)
    double latMin = 0, dLat = 1, lonStart = -180, dLon = 360;
    int nx = 0, ny = 0;
    bool allLon = true;           // the bins go round the whole circle of longitude
    Table<std::int64_t> binStart; // bins (row-major) + 1 offsets into binFaces; empty: no bins
    Table<std::uint32_t> binFaces;

    // Views of the tables, with `m`'s faceNodes (the mesh they were built from).
    FaceTables tables(const Mesh& m) const;
};

// The tables of `m` on `threads` threads (at least 1). Throws ValueError when m has more faces
// than 2^32 - 1, arrays whose sizes disagree, or a face naming a node it does not have.
FaceGrid buildFaceGrid(const Mesh& m, int threads);

} // namespace strata::mesh::detail
