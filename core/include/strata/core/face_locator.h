#pragma once
// Which face of a mesh (mesh.h) holds a point on the sphere: faces as exact spherical polygons
// (a point is inside when it is on the inner side of every great-circle edge; either winding),
// found through a uniform lon/lat bin grid over the faces' bounding boxes, which knows faces
// across the antimeridian and faces around a pole. Built once on the host's threads (copies
// share the tables); find() and findOnDevice() are const and safe to call from many threads at
// once.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "strata/core/mesh.h"
#include "strata/core/stream.h"

namespace strata::mesh {

namespace detail {
struct FaceTables;      // the tables as face_find.h reads them (core/src)
struct FaceGrid;        // the tables on the host (core/src/face_grid.h)
struct FaceDeviceCache; // the tables on devices (core/src/face_device.h)
} // namespace detail

class FaceLocator {
public:
    // Throws ValueError when the mesh has more faces than 2^32 - 1, or arrays whose sizes
    // disagree, or a face naming a node it does not have (meshOf's meshes have neither).
    explicit FaceLocator(std::shared_ptr<const Mesh> mesh);

    // The face holding (lonDeg, latDeg), any longitude; -1 outside every face (or not finite).
    // A point on an edge shared by two faces gets one of them.
    std::int64_t find(double lonDeg, double latDeg) const;
    // find() for n points, spread over the machine's threads.
    std::vector<std::int64_t> findAll(const double* lon, const double* lat, std::size_t n) const;
    // find() for n points on the device of `stream`: lonDeg, latDeg and out in memory of that
    // device; out[k] is the face find(lonDeg[k], latDeg[k]) gives, bit for bit (one code for
    // both, face_find.h). The tables go up to a device on its first call there and stay until
    // the locator goes (copies share them). Ordered on `stream`, which is not waited for.
    // Throws ValueError for n < 0, a stream that is not a CUDA device's or arrays not on its
    // device, and where this build has no CUDA backend.
    void findOnDevice(const double* lonDeg, const double* latDeg, std::int64_t n, std::int64_t* out,
                      Stream stream) const;

    // Weights of `face`'s nodes (in faceNodes order) for a value at (lonDeg, latDeg): barycentric
    // on a triangle (in the plane of its corners, seen from the sphere's centre), the mean (1/n
    // each) on other polygons, as issue 37 says. Writes mesh().maxNodes values, 0 past the face's
    // nodes. False (w untouched) for a face that is not one or a triangle with no area.
    bool weights(std::int64_t face, double lonDeg, double latDeg, double* w) const;

    const Mesh& mesh() const { return *mesh_; }
    int binsAcross() const; // the bin grid's columns and rows, for tests
    int binsDown() const;

private:
    detail::FaceTables tables() const; // views of grid_'s tables

    std::shared_ptr<const Mesh> mesh_;
    std::shared_ptr<const detail::FaceGrid> grid_; // node vectors, face windings, bins
    // The tables on each device searched on: filled by the const findOnDevice under the cache's
    // mutex.
    std::shared_ptr<detail::FaceDeviceCache> devices_;
};

} // namespace strata::mesh
