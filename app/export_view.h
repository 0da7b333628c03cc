#pragma once
// The one export of a view, for the window (File ▸ Export PNG/CSV) and the command line
// (--export-png/--export-csv): the view's frame computed from the dataset, then written as CSV
// (with latitude/longitude columns from the grid mapping) or as PNG (the image view's scene
// rendered offscreen, or the line plot). The same view and options give the same bytes from both.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "strata/core/contour.h"
#include "strata/core/dataset.h"
#include "strata/core/flow.h"
#include "view_spec.h"

namespace strata::app {

enum class ExportFormat { Png, Csv };

// How a PNG is drawn: what is not part of the view (the window keeps these in its View menu, the
// command line takes them as options). A CSV ignores them.
struct ExportOptions {
    int width = 1024, height = 768; // the PNG's pixels
    bool coastlines = true;         // over longitude/latitude frames
    bool lonLatGrid = true;         // a curvilinear frame's cells in longitude/latitude, else index space
    std::optional<ContourSpec> contours; // isolines over the frame (--contours); unset: none
    // The variable whose isolines are drawn (--contour-var), on the frame's grid and computed as
    // the view's frame is (its indices and reductions); empty: the frame's own.
    std::string contourVariable;
    bool filledContours = false; // the colours banded at the contours' levels (--filled)
    ContourSpec fillLevels;      // ... or at these when no contours are drawn (automatic unless chosen)
    // The vector pair drawn over the frame (--vectors, --uv): its style, and its components
    // (computed as the view's frame is); empty names: the dataset's first pair on the frame's grid.
    VectorStyle vectors = VectorStyle::None;
    std::string vectorU, vectorV;
    double particleDensity = 1, particleSpeed = 1; // particles' (the window's View ▸ Vectors)
    bool verbose = false; // `tell` is told the details too (the title, a virtual display)
    // Told, as it happens, what the user may want to know, one line each (a fallback to the CPU,
    // "coastlines not drawn: ..."); unset: nothing is told.
    std::function<void(const std::string& line)> tell;
    // The view's frame when it is already computed (the window's, on the screen): written as it
    // is, not computed again. It must be the frame of the view exported (computeFrame's).
    DataArray frame;
    // The file a mesh's geometry is read from when the dataset's own file lacks it (--grid-file);
    // null: the dataset's.
    std::shared_ptr<const Dataset> gridFile;
};

// One file to write.
struct ExportTarget {
    ExportFormat format = ExportFormat::Csv;
    std::string path; // written atomically, never over one of the dataset's files
};

// What an export wrote.
struct ExportResult {
    std::string path;
    ExportFormat format = ExportFormat::Csv;
    std::int64_t rows = 0;             // a CSV's data rows
    std::uint64_t bytesFromDevice = 0; // device→host bytes this file's writing moved
};

// What exporting a view did: one result per target, in order, and the frame's story.
struct ExportReport {
    std::vector<ExportResult> files;
    Device frameDevice; // where the frame was computed
    FallbackNote note;  // the frame fell back to the CPU, and why
};

// Computes `view`'s frame of `ds` once and writes each of `targets`. A view of one dim (no yDim)
// is a line: its PNG is the line plot. Throws Error (ValueError, IndexError for a view that does
// not fit; IoError for a file that cannot be written; Error for a PNG without a display or a
// build without the render layer); files written before the failure stay.
ExportReport exportView(const Dataset& ds, const ViewSpec& view, const std::vector<ExportTarget>& targets,
                        const ExportOptions& options = {});

// The files an export must never replace: the dataset's file, or every file of a set.
// The vector pair to draw over `variable`: u and v as named (grid relative when the dataset pairs
// them so by their standard names), or, with no names, the dataset's first pair with the
// variable's dims. Throws ValueError naming the file and the pairs it has when there is none.
VectorPair vectorPairFor(const Dataset& ds, const std::string& variable, const std::string& u,
                         const std::string& v);

// The files `ds` was read from, which an export never writes: a set's files, else its path, and
// the stores of its groups where they are others (a HEALPix pyramid's zooms).
std::vector<std::string> inputsOf(const Dataset& ds);

// A movie of the view along one of its sliced dims (issue 36): each frame computed as the view's
// is, drawn as the PNG export draws it (title with the step's value, colour bar, axes, coasts,
// projection, contours and vectors), and written by MovieWriter (.mp4, .webm or .gif).
struct MovieExport {
    std::string path;
    std::string dim; // animated: one of the view's sliced dims
    // The steps shown: start, start + step, ... while below stop (-1: the dim's length).
    std::int64_t start = 0, stop = -1, step = 1;
    double fps = 10;
    // Told after each frame is written (frames done, of total); false stops the export at once:
    // it throws CancelledError and leaves no file.
    std::function<bool(int done, int total)> progress;
};
struct MovieResult {
    std::string path, encoder;             // encoder: libavcodec's name ("libx264", "libvpx-vp9", "gif")
    std::string encoderNote;               // why not h264_nvenc, for an MP4
    int frames = 0, width = 0, height = 0; // the size encoded (even for MP4 and WebM)
    std::uint64_t bytesFromDevice = 0;     // device→host bytes: each frame's pixels, once
};
// Throws ValueError for a dim that is not sliced in the view (naming those that are), a view of
// one dim, or an empty range; IndexError for a range beyond the dim; IoError when the file
// cannot be written. Nothing is left of a movie that failed or was stopped.
MovieResult exportMovie(const Dataset& ds, const ViewSpec& view, const MovieExport& movie,
                        const ExportOptions& options = {});

// One file: exportView of one target, its result.
ExportResult exportView(const Dataset& ds, const ViewSpec& view, const ExportTarget& target,
                        const ExportOptions& options = {});

} // namespace strata::app
