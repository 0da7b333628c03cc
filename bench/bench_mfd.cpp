// Many files as one dataset (bench/mfd/make_files.py writes them): the times a user waits for,
// each measured on a fresh open (no handle of a member open yet) with the page cache warm:
//
//   bench_mfd DIR [--reps 3] [--no-mean]
//
// Prints JSON lines: open (metadata of every member, in child processes), the first frame,
// the first series through a point after open (one value from each member), a second series
// (members' files cached), a Hovmöller slab (time × lon at one latitude), and the mean over
// time of the whole set streamed slab by slab (GB/s of float32 read). Each result is checked
// against the values make_files.py wrote (base field + 0.01 × month).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "strata/core/runtime.h"
#include "strata/core/streaming.h"
#include "strata/io/multifile.h"

using namespace strata;

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void line(const char* what, const std::vector<double>& t, const std::string& extra = "") {
    std::vector<double> s = t;
    std::sort(s.begin(), s.end());
    std::printf("{\"measure\": \"%s\", \"best_s\": %.4f, \"median_s\": %.4f%s}\n", what, s.front(),
                s[s.size() / 2], extra.c_str());
    std::fflush(stdout);
}

// CPU seconds (user + system) of this process, or of its finished children.
double cpuSeconds(int who) {
    rusage u{};
    getrusage(who, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

std::vector<float> load(const DataArray& a) { return a.load(Device::host(), Stream::host()).values<float>(); }

void expect(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "bench_mfd: wrong values in %s\n", what);
        std::exit(1);
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_mfd DIR [--reps N] [--no-mean]\n");
        return 2;
    }
    int reps = 3;
    bool mean = true;
    for (int i = 2; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::atoi(argv[++i]);
        if (!std::strcmp(argv[i], "--no-mean")) mean = false;
    }
    const std::vector<std::string> files = expandPaths({argv[1]});
    std::vector<double> openCpuChildren, openCpuSelf;
    std::vector<double> open, frame, series, series2, hov, hov2;
    std::int64_t records = 0;
    for (int r = 0; r < reps; ++r) {
        OpenNotes notes;
        const double c0 = cpuSeconds(RUSAGE_CHILDREN), s0 = cpuSeconds(RUSAGE_SELF);
        double t0 = now();
        const Dataset ds = openMultiDataset(files, notes);
        open.push_back(now() - t0);
        openCpuChildren.push_back(cpuSeconds(RUSAGE_CHILDREN) - c0);
        openCpuSelf.push_back(cpuSeconds(RUSAGE_SELF) - s0);
        records = ds.findDim("time")->length;
        const DataArray tas = ds["tas"];

        t0 = now();
        const auto f = load(tas.isel({{"time", std::int64_t(records / 2)}}));
        frame.push_back(now() - t0);
        t0 = now();
        const auto s = load(tas.isel({{"lat", std::int64_t(360)}, {"lon", std::int64_t(720)}}));
        series.push_back(now() - t0);
        t0 = now();
        const auto s2 = load(tas.isel({{"lat", std::int64_t(100)}, {"lon", std::int64_t(10)}}));
        series2.push_back(now() - t0);
        t0 = now();
        const auto h = load(tas.isel({{"lat", std::int64_t(200)}}));
        hov.push_back(now() - t0);
        t0 = now();
        const auto h2 = load(tas.isel({{"lat", std::int64_t(201)}}));
        hov2.push_back(now() - t0);

        expect(f.size() == 721u * 1440u && s.size() == std::size_t(records) &&
                   h.size() == std::size_t(records) * 1440u,
               "shapes");
        for (std::int64_t i = 0; i < records; ++i) // make_files.py: base + 0.01 i, in time order
            expect(std::fabs((s[std::size_t(i)] - s[0]) - float(0.01 * double(i))) < 1e-3f, "the series");
        expect(std::fabs(h[std::size_t(records - 1) * 1440 + 720] - h[720] -
                         float(0.01 * double(records - 1))) < 1e-3f,
               "the Hovmöller slab");
    }
    const std::string n = ", \"files\": " + std::to_string(files.size());
    char cpu[160];
    std::snprintf(cpu, sizeof cpu, "%s, \"cpu_children_s\": %.2f, \"cpu_self_s\": %.2f", n.c_str(),
                  *std::min_element(openCpuChildren.begin(), openCpuChildren.end()),
                  *std::min_element(openCpuSelf.begin(), openCpuSelf.end()));
    line("open", open, cpu);
    line("first frame (721x1440)", frame, n);
    line("first series through a point", series, n);
    line("second series (handles cached)", series2, n);
    line("Hovmoller slab (time x lon)", hov, n);
    line("next Hovmoller step", hov2, n);
    if (mean) {
        OpenNotes notes;
        const Dataset ds = openMultiDataset(files, notes);
        const DataArray tas = ds["tas"];
        std::vector<double> t;
        for (int r = 0; r < std::max(1, reps - 1); ++r) {
            const double t0 = now();
            const DataArray m = reduceStreamed(tas, "time", ReduceOp::Mean, Device::host(), Stream::host(),
                                               std::size_t(256) << 20);
            t.push_back(now() - t0);
            expect(m.size() == 721 * 1440, "the mean");
        }
        const double gb = double(records) * 721 * 1440 * 4 / 1e9;
        char extra[128];
        std::snprintf(extra, sizeof extra, "%s, \"gb\": %.2f, \"gb_per_s\": %.2f", n.c_str(), gb,
                      gb / *std::min_element(t.begin(), t.end()));
        line("mean over time (streamed, host)", t, extra);
    }
    return 0;
}
