#pragma once
// The command line: `strata [FILE] [options]`, parsed into plain options. Misuse throws
// UsageError (exit status 2) with one line naming the problem.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "strata/core/error.h"

namespace strata::app {

class UsageError : public Error {
    using Error::Error;
};

struct CliOptions {
    std::string file;               // the first FILE
    std::vector<std::string> files; // every FILE: files, quoted globs or directories (a file set)
    std::string variable;
    std::vector<std::string> derive;                       // --derive 'NAME = EXPR', in order
    std::vector<std::pair<std::string, std::string>> with; // --with ALIAS=PATH: other datasets
    std::string gridFile; // --grid-file PATH: a mesh's geometry, when the data's file lacks it
    std::string xDim, yDim;
    std::vector<std::pair<std::string, std::string>> isel;   // DIM, INDEX text
    std::vector<std::pair<std::string, std::string>> sel;    // DIM, VALUE text
    std::vector<std::pair<std::string, std::string>> reduce; // DIM, OP text
    std::string colormap = "viridis";
    std::string range = "frame";
    int width = 1024, height = 768;
    std::string exportPng, exportCsv;
    std::string exportMovie; // --export-movie PATH (.mp4, .webm, .gif)
    std::string animate;     // --animate DIM: the dim the movie steps through
    double fps = 10;         // --fps N
    std::string frames;      // --frames START:STOP:STEP (checked; empty: every step)
    bool info = false, cpu = false, gl = false, help = false, version = false, verbose = false;
    bool listColormaps = false;
    bool coastlines = true; // --coastlines on|off: over longitude/latitude frames
    bool lonLatGrid = true; // --grid lonlat|index: curvilinear frames in lon/lat or index space
    std::string units;      // --units U: the values shown in U (empty: the variable's own)
    std::string contours;   // --contours auto|N|v1,v2,...|step:base (checked; empty: none)
    std::string
        contourVariable;    // --contour-var NAME: isolines of another variable (contours auto unless set)
    bool filled = false;    // --filled: filled contours (at --contours' levels, or auto)
    std::string vectors;    // --vectors arrows|barbs|streamlines|particles (checked; empty: none)
    std::string uv;         // --uv U,V: the vector pair (empty: the dataset's first on the frame's grid)
    std::string projection; // --projection NAME: longitude/latitude frames on a map (empty: none)

    bool batch() const { return !exportPng.empty() || !exportCsv.empty() || !exportMovie.empty(); }
};

// --frames START:STOP:STEP, as Python slices it (STOP excluded; -1: the dim's end); each part
// may be left out. Throws UsageError.
struct MovieFrames {
    std::int64_t start = 0, stop = -1, step = 1;
};
MovieFrames parseFrames(const std::string& text);

CliOptions parseCommandLine(const std::vector<std::string>& args);
std::string helpText();

} // namespace strata::app
