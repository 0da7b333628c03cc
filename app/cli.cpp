#include "cli.h"
#include "export_names.h"

#include <charconv>
#include <tuple>

#include "strata/core/contour.h"
#include "strata/core/flow.h"
#if STRATA_HAVE_RENDER
#include "strata/render/projection.h"
#endif

namespace strata::app {
namespace {

std::pair<std::string, std::string> splitAssignment(const std::string& option, const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        throw UsageError(option + " takes DIM=VALUE, got '" + text + "'");
    return {text.substr(0, eq), text.substr(eq + 1)};
}

std::pair<int, int> parseSize(const std::string& text) {
    const auto x = text.find('x');
    int w = 0, h = 0;
    auto number = [](const std::string& s, int& v) {
        auto r = std::from_chars(s.data(), s.data() + s.size(), v);
        return r.ec == std::errc() && r.ptr == s.data() + s.size();
    };
    if (x == std::string::npos || !number(text.substr(0, x), w) || !number(text.substr(x + 1), h) || w < 16 ||
        h < 16 || w > 16384 || h > 16384)
        throw UsageError("--size takes WxH with each between 16 and 16384, got '" + text + "'");
    return {w, h};
}

} // namespace

MovieFrames parseFrames(const std::string& text) {
    MovieFrames f;
    std::vector<std::string> parts{""};
    for (char ch : text) {
        if (ch == ':')
            parts.emplace_back();
        else
            parts.back() += ch;
    }
    auto number = [&](const std::string& s, std::int64_t& v) {
        if (s.empty()) return true;
        const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
        return r.ec == std::errc() && r.ptr == s.data() + s.size();
    };
    if (parts.size() > 3 || !number(parts[0], f.start) || (parts.size() > 1 && !number(parts[1], f.stop)) ||
        (parts.size() > 2 && !number(parts[2], f.step)) || f.start < 0 || f.step <= 0 ||
        (parts.size() > 1 && !parts[1].empty() && f.stop <= f.start))
        throw UsageError("--frames takes START:STOP:STEP (indices, STOP excluded, STEP above 0; each may be "
                         "left out), got '" +
                         text + "'");
    if (parts.size() == 1) f.stop = f.start + 1; // one index: that step alone
    return f;
}

CliOptions parseCommandLine(const std::vector<std::string>& args) {
    CliOptions o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= args.size()) throw UsageError(a + " needs a value (see --help)");
            return args[++i];
        };
        if (a == "--help" || a == "-h")
            o.help = true;
        else if (a == "--version")
            o.version = true;
        else if (a == "--info")
            o.info = true;
        else if (a == "--cpu")
            o.cpu = true;
        else if (a == "--gl")
            o.gl = true;
        else if (a == "--verbose" || a == "-v")
            o.verbose = true;
        else if (a == "--var")
            o.variable = value();
        else if (a == "--derive")
            o.derive.push_back(value());
        else if (a == "--with") {
            auto [alias, path] = splitAssignment(a, value());
            if (alias == "a")
                throw UsageError("--with: the alias 'a' is the first dataset's; take b, c, ...");
            o.with.emplace_back(std::move(alias), std::move(path));
        } else if (a == "--grid-file")
            o.gridFile = value();
        else if (a == "--x")
            o.xDim = value();
        else if (a == "--y")
            o.yDim = value();
        else if (a == "--isel")
            o.isel.push_back(splitAssignment(a, value()));
        else if (a == "--sel")
            o.sel.push_back(splitAssignment(a, value()));
        else if (a == "--reduce")
            o.reduce.push_back(splitAssignment(a, value()));
        else if (a == "--cmap" || a == "--colormap")
            o.colormap = value();
        else if (a == "--list-cmaps")
            o.listColormaps = true;
        else if (a == "--range")
            o.range = value();
        else if (a == "--coastlines") {
            const std::string v = value();
            if (v != "on" && v != "off") throw UsageError("--coastlines takes on or off, not '" + v + "'");
            o.coastlines = v == "on";
        } else if (a == "--grid") {
            const std::string v = value();
            if (v != "lonlat" && v != "index")
                throw UsageError("--grid takes lonlat or index, not '" + v + "'");
            o.lonLatGrid = v == "lonlat";
        } else if (a == "--projection") {
            o.projection = value();
#if STRATA_HAVE_RENDER
            try { // the canonical name; an unknown one is misuse, with the names there are
                o.projection = Projection::byName(o.projection).name();
            } catch (const ValueError& e) {
                throw UsageError(std::string("--projection: ") + e.what());
            }
#endif
        } else if (a == "--units")
            o.units = value();
        else if (a == "--contours") {
            o.contours = value();
            try { // misuse at once, with what is wrong
                (void)parseContourSpec(o.contours);
            } catch (const ValueError& e) {
                throw UsageError(std::string("--contours: ") + e.what());
            }
        } else if (a == "--contour-var")
            o.contourVariable = value();
        else if (a == "--filled")
            o.filled = true;
        else if (a == "--vectors") {
            o.vectors = value();
            try {
                if (parseVectorStyle(o.vectors) == VectorStyle::None) o.vectors.clear();
            } catch (const ValueError& e) {
                throw UsageError(std::string("--vectors: ") + e.what());
            }
        } else if (a == "--uv") {
            o.uv = value();
            const auto comma = o.uv.find(',');
            if (comma == std::string::npos || comma == 0 || comma + 1 == o.uv.size() ||
                o.uv.find(',', comma + 1) != std::string::npos)
                throw UsageError("--uv: '" + o.uv + "' is not two variables U,V (as --uv ua,va)");
        } else if (a == "--size")
            std::tie(o.width, o.height) = parseSize(value());
        else if (a == "--export-png")
            o.exportPng = withExtension(value(), "png"); // as the window's dialogs: "january" → january.png
        else if (a == "--export-csv")
            o.exportCsv = withExtension(value(), "csv");
        else if (a == "--export-movie")
            o.exportMovie = value();
        else if (a == "--animate")
            o.animate = value();
        else if (a == "--fps") {
            const std::string v = value();
            double fps = 0;
            const auto r = std::from_chars(v.data(), v.data() + v.size(), fps);
            if (r.ec != std::errc() || r.ptr != v.data() + v.size() || !(fps > 0 && fps <= 120))
                throw UsageError("--fps takes frames per second above 0 and up to 120, got '" + v + "'");
            o.fps = fps;
        } else if (a == "--frames") {
            o.frames = value();
            (void)parseFrames(o.frames); // checked now
        } else if (a.size() > 1 && a[0] == '-')
            throw UsageError("unknown option " + a + " (see --help)");
        else {
            if (o.file.empty()) o.file = a;
            o.files.push_back(a);
        }
    }
    return o;
}

std::string helpText() {
    return R"(usage: strata [FILE...] [options]

Opens FILE (netCDF-3/4, a Zarr store or GRIB; the bundled sample when none is given).
Several files, a quoted glob ('dir/*.nc') or a directory open as one dataset, combined along
the record dim (the unlimited dim, else time). With --export-png or --export-csv no window
opens: the view the options describe is computed and written.

  --var NAME          the variable to show (default: the first data variable)
  --derive 'NAME = EXPR'
                      a derived variable (repeatable; --var NAME shows it): + - * / ** and
                      comparisons, & | ~, where(), abs sqrt exp log hypot clip fillna ...,
                      climatology/anomaly/std_anomaly(x, "month", 1991, 2020),
                      rolling_mean/rolling_sum(x, "time", 30), diff(x, "time");
                      NAME [units] = EXPR sets the units
  --with ALIAS=PATH   another dataset, whose variables expressions read as ALIAS.NAME
  --grid-file PATH    the mesh the data lie on, from another file (MPAS, ICON and UGRID
                      output often comes apart from its grid)
  --x DIM, --y DIM    the dims on the axes (default: the last two; one dim with --x only: a line)
  --isel DIM=INDEX    slice DIM at INDEX (dims without a role are sliced at 0)
  --sel DIM=VALUE     slice DIM at the nearest coordinate value (ISO 8601 dates for time)
  --reduce DIM=OP     reduce DIM with OP: mean, min, max, std, sum, or area-mean (an area-
                      weighted mean: cos(latitude), or the file's cell_measures areas; every
                      mean of the view joins it, e.g. --reduce lat=area-mean --reduce lon=mean)
  --cmap NAME         colour map (or --colormap): viridis, magma, plasma, inferno, cividis,
                      turbo, gray; ColorBrewer (RdBu, BrBG, RdYlBu, Blues, YlOrRd, ...);
                      cmocean (cmo.thermal, cmo.balance, ...); Crameri (batlow, roma,
                      vik, ...); append _r to reverse
  --list-cmaps        print every colour map's name, one a line, and exit
  --range R           colour range: frame, global, or MIN,MAX (in the units shown)
  --contours L        isolines over the frame: auto (about ten, at nice numbers in the colour
                      range), N (that many), v1,v2,... (increasing) or step:base
  --contour-var NAME  the isolines of NAME, a variable on the frame's grid, over the frame's
                      colours (zg over ta); its levels in its own range (--contours, or auto)
  --filled            filled contours: the colour map banded at the levels (--contours', or
                      auto), the colour bar in bands; with --contours the lines are drawn too
  --vectors STYLE     a vector pair over the frame: arrows (scaled, with a reference arrow),
                      barbs (knots), streamlines (evenly spaced) or particles (a still of
                      their trails); turned into the map's directions
  --uv U,V            the pair (default: the first by CF standard_name on the frame's grid,
                      eastward_*/northward_*, or x_*/y_* grid relative); arrows unless --vectors
  --units U           show the values in U, converted through udunits2: K as degC or
                      degF, Pa as hPa, kg m-2 s-1 as mm/day (as liquid water), m s-1 as
                      knots or km/h, ...
  --coastlines on|off coastlines over longitude/latitude frames (GSHHS; default on)
  --grid lonlat|index a frame with 2-D latitude/longitude: its cells where their lon/lat
                      say, or as rows and columns (default lonlat)
  --projection NAME   show longitude/latitude frames on a map: PlateCarree, Robinson,
                      Mollweide, NorthPolarStereo, SouthPolarStereo, LambertConformal
                      (any case), with a labelled graticule
  --size WxH          PNG size in pixels (default 1024x768)
  --export-png PATH   write the view as PNG
  --export-csv PATH   write the view's numbers as CSV (long form, one row per cell)
  --export-movie PATH write a movie of the view (.mp4: H.264, .webm: VP9, .gif), one frame
                      per step of --animate DIM, drawn as --export-png draws the view
  --animate DIM       the sliced dim the movie steps through
  --fps N             the movie's frames per second (default 10)
  --frames START:STOP:STEP  the steps of DIM shown (Python's slice: STOP excluded; default all)
  --info              print the dataset summary and exit
  --cpu               compute on the CPU even when a GPU is present
  --gl                draw frames on the host through OpenGL too (by default the window
                      paints them without GL; frames on a GPU always go through GL)
  -v, --verbose       report what the file's reading left out or ignored, what was
                      computed and the bytes copied from the device; the window
                      writes its errors to stderr too
  --version, --help

examples:
  strata tas.nc --info
  strata tas.nc --var tas --sel time=2005-07-16 --export-csv july.csv
  strata tas.nc --var tas --reduce time=mean --cmap RdBu --range 250,310 --export-png mean.png
  strata tas.nc --derive 'tas_anom = anomaly(tas, "month", 1991, 2020)' --var tas_anom --export-png a.png
  strata run1.nc --with b=run2.nc --derive 'dt = tas - b.tas' --var dt --reduce time=mean --export-csv dt.csv
  strata hgt.nc --var HGT --x lon --y time --isel lat=36 --export-csv hovmoller.csv
  strata tas.nc --var tas --export-movie tas.mp4 --animate time --fps 12
  strata 'tas_*.nc' --var tas --x time --isel lat=300 --isel lon=700 --export-csv series.csv

exit status: 0 done, 1 the file could not be read or written, 2 misuse.
)";
}

} // namespace strata::app
