// GPU benchmark: the operations of shared/bench/peer_xarray.py on the same array (float32
// time × lat × lon, 1 % NaN) through Strata's public API on one CUDA device, timed with CUDA
// events (warm-up, median of the repetitions), with the peer's byte counts, against the
// device-to-device copy as the ceiling. Also host→device copies (pageable, pinned) and the
// upload of a netCDF file through Variable::load (read from the file, packed over PCIe).
//
//   bench_gpu [--time N --lat N --lon N --reps N] [--json out.json]
//   bench_gpu --make-file f.nc [--time N] [--layout contiguous|zlib1|nc3]
//                                              write a float32 file of time×lat×lon: netCDF-4
//                                              contiguous, netCDF-4 chunked (1, lat, lon) with
//                                              shuffle and deflate 1, or netCDF-3 (64-bit offset)
//   bench_gpu --file f.nc [--json out.json]    time reading it and uploading it (Variable::load)
#include <cuda_runtime.h>
#include <netcdf.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "strata/core/ops.h"
#include "strata/core/runtime.h"
#include "strata/core/transfer.h"

using namespace strata;

namespace {

#define CHECK(call)                                                                                          \
    do {                                                                                                     \
        cudaError_t e_ = (call);                                                                             \
        if (e_ != cudaSuccess) {                                                                             \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));      \
            std::exit(2);                                                                                    \
        }                                                                                                    \
    } while (0)
#define NC(call)                                                                                             \
    do {                                                                                                     \
        int e_ = (call);                                                                                     \
        if (e_ != NC_NOERR) {                                                                                \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, nc_strerror(e_));             \
            std::exit(2);                                                                                    \
        }                                                                                                    \
    } while (0)

struct Options {
    std::int64_t nt = 1000, nlat = 721, nlon = 1440;
    int reps = 20;
    std::string json, makeFile, file;
    std::string layout = "contiguous"; // for --make-file: contiguous, zlib1 or nc3
};

struct Row {
    std::string op;
    double ms, bytes;
};

std::vector<Row> rows;
double copyGBps = 0;

double gbps(const Row& r) { return r.bytes / (r.ms * 1e-3) / 1e9; }

void print(const Row& r) {
    const double g = gbps(r);
    std::printf("%-44s %10.4f ms %9.1f GB/s %6.3f of copy\n", r.op.c_str(), r.ms, g,
                copyGBps > 0 ? g / copyGBps : 0.0);
    std::fflush(stdout);
}

// Median milliseconds of `reps` runs of fn on `s`, timed with events, after two warm-ups.
double timeEvents(const std::function<void()>& fn, cudaStream_t s, int reps) {
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    for (int i = 0; i < 2; ++i) fn();
    CHECK(cudaStreamSynchronize(s));
    std::vector<float> ms;
    for (int i = 0; i < reps; ++i) {
        CHECK(cudaEventRecord(a, s));
        fn();
        CHECK(cudaEventRecord(b, s));
        CHECK(cudaEventSynchronize(b));
        float t = 0;
        CHECK(cudaEventElapsedTime(&t, a, b));
        ms.push_back(t);
    }
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

double seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void bench(const std::string& op, double bytes, const std::function<void()>& fn, cudaStream_t s, int reps) {
    Row r{op, timeEvents(fn, s, reps), bytes};
    rows.push_back(r);
    print(r);
}

// The peer's data: normal-ish values around 280 (sum of four uniforms), 1 % NaN, filled by
// all host threads.
void fill(float* p, std::int64_t n) {
    const int threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([=] {
            std::uint64_t x = 0x9E3779B97F4A7C15ull * std::uint64_t(t + 1);
            auto next = [&x] {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                return x;
            };
            const std::int64_t a = n * t / threads, b = n * (t + 1) / threads;
            for (std::int64_t i = a; i < b; ++i) {
                const std::uint64_t r = next();
                const double u = double(r & 0xffff) + double((r >> 16) & 0xffff) +
                                 double((r >> 32) & 0xffff) + double(r >> 48);
                const double normal = (u / 65535.0 - 2.0) * 1.7320508; // mean 0, sd 1
                p[i] = (r % 100 == 0) ? NAN : float(280.0 + 10.0 * normal);
            }
        });
    }
    for (auto& t : pool) t.join();
}

std::string cardName() {
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, 0));
    return prop.name;
}

void writeJson(const Options& o, const std::string& extra) {
    if (o.json.empty()) return;
    std::ofstream f(o.json);
    f << "{\n \"card\": \"" << cardName() << "\",\n \"shape\": [" << o.nt << ", " << o.nlat << ", " << o.nlon
      << "],\n \"copyGBps\": " << copyGBps << ",\n"
      << extra << " \"rows\": [\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        f << "  {\"op\": \"" << r.op << "\", \"ms\": " << r.ms << ", \"GBps\": " << gbps(r)
          << ", \"ratioToCopy\": " << (copyGBps > 0 ? gbps(r) / copyGBps : 0) << "}"
          << (i + 1 < rows.size() ? "," : "") << "\n";
    }
    f << " ]\n}\n";
}

int mainSuite(const Options& o) {
    const Device dev = Device::cuda(0);
    const Stream stream = defaultStream(dev);
    const cudaStream_t s = static_cast<cudaStream_t>(stream.handle());
    std::printf("GPU: %s\n", cardName().c_str());

    { // The ceiling: a device-to-device copy of 4 GiB (bytes read + written).
        const std::size_t bytes = std::size_t(4) << 30;
        Buffer x(bytes, dev, stream), y(bytes, dev, stream);
        CHECK(cudaMemsetAsync(x.data(), 1, bytes, s));
        Row r{"device copy 4 GiB (ceiling)",
              timeEvents(
                  [&] { CHECK(cudaMemcpyAsync(y.data(), x.data(), bytes, cudaMemcpyDeviceToDevice, s)); }, s,
                  o.reps),
              2.0 * double(bytes)};
        copyGBps = gbps(r);
        rows.push_back(r);
        print(r);
    }

    const std::int64_t n = o.nt * o.nlat * o.nlon;
    const std::size_t bytes = std::size_t(n) * 4;
    Buffer pinned(bytes, Device::host(), Stream::host(), HostMemory::Pinned);
    double t0 = seconds();
    fill(static_cast<float*>(pinned.data()), n);
    std::printf("(filled %.2f GB on the host in %.2f s)\n", bytes / 1e9, seconds() - t0);
    Buffer device(bytes, dev, stream);
    {
        std::vector<float> pageable(static_cast<std::size_t>(n));
        std::memcpy(pageable.data(), pinned.data(), bytes);
        bench(
            "H2D upload pageable", double(bytes),
            [&] { copyBytes(device.data(), dev, pageable.data(), Device::host(), bytes, stream); }, s, 5);
    }
    bench(
        "H2D upload pinned", double(bytes),
        [&] { copyBytes(device.data(), dev, pinned.data(), Device::host(), bytes, stream); }, s, 10);

    const DataArray da(
        "air", Variable({"time", "lat", "lon"}, {o.nt, o.nlat, o.nlon}, DType::Float32, std::move(device)));
    const double frame = double(o.nlat * o.nlon * 4);
    std::vector<std::uint8_t> lutValues(256 * 4);
    for (std::size_t i = 0; i < lutValues.size(); ++i) lutValues[i] = std::uint8_t((i * 37) % 251);
    const DataArray lut =
        DataArray::fromHost("lut", {"entry", "channel"}, {256, 4}, lutValues).asDevice(dev, stream);
    std::vector<double> cosLat(static_cast<std::size_t>(o.nlat));
    for (std::int64_t i = 0; i < o.nlat; ++i)
        cosLat[i] = std::cos((-90.0 + 180.0 * double(i) / double(o.nlat - 1)) * M_PI / 180.0);
    const DataArray w = DataArray::fromHost("w", {"lat"}, {o.nlat}, cosLat).asDevice(dev, stream);
    const std::int64_t t = o.nt / 2, k = o.nlon / 2;

    const TransferCounters before = transferCounters();
    bench(
        "isel(time=t) -> frame (contiguous)", frame * 2,
        [&] {
            contiguous(da.isel({{"time", t}}), stream);
        },
        s, 50);
    bench(
        "isel(lon=k) -> time x lat (strided)", double(o.nt * o.nlat * 4 * 2),
        [&] {
            contiguous(da.isel({{"lon", k}}), stream);
        },
        s, o.reps);
    bench(
        "frame -> minmax -> RGBA colormap", frame * 3 + double(o.nlat * o.nlon * 4),
        [&] {
            const DataArray f = da.isel({{"time", t}});
            colormap(f, lut, minmax(f, stream), Rgba8{0, 0, 0, 0}, stream);
        },
        s, 50);
    bench(
        "frame -> minmax only", frame,
        [&] {
            minmax(da.isel({{"time", t}}), stream);
        },
        s, 50);
    bench(
        "mean('time') skipna", double(bytes), [&] { reduce(da, {"time"}, ReduceOp::Mean, stream); }, s,
        o.reps);
    bench(
        "max('time') skipna", double(bytes), [&] { reduce(da, {"time"}, ReduceOp::Max, stream); }, s, o.reps);
    bench(
        "std('time') skipna", double(bytes), [&] { reduce(da, {"time"}, ReduceOp::Std, stream); }, s, o.reps);
    bench(
        "mean('lon') skipna (zonal mean)", double(bytes),
        [&] { reduce(da, {"lon"}, ReduceOp::Mean, stream); }, s, o.reps);
    bench(
        "weighted(cos lat).mean(lat,lon)", double(bytes),
        [&] {
            weightedMean(da, w, {"lat", "lon"}, stream);
        },
        s, o.reps);
    bench(
        "sum over all dims", double(bytes),
        [&] {
            reduce(da, {"time", "lat", "lon"}, ReduceOp::Sum, stream);
        },
        s, o.reps);
    stream.synchronize();
    const std::uint64_t back = transferredSince(before).deviceToHost;
    std::printf("device->host bytes during the operations: %llu\n", (unsigned long long)back);
    writeJson(o, " \"deviceToHostDuringOps\": " + std::to_string(back) + ",\n");
    return 0;
}

// ---- the netCDF file: written with netCDF-C, read back through Variable::load ----

// A field that compresses like real 2 m temperature (the peers' zlib file shrinks to 0.53 of
// its size): a meridional gradient, travelling waves and 0.05 K of noise.
void fillSmooth(float* p, std::int64_t t0, std::int64_t steps, std::int64_t nlat, std::int64_t nlon) {
    const int threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (int w = 0; w < threads; ++w)
        pool.emplace_back([=] {
            std::uint64_t x = 0x9E3779B97F4A7C15ull * std::uint64_t(w + 1 + t0 * 131);
            for (std::int64_t t = 0; t < steps; ++t)
                for (std::int64_t j = nlat * w / threads; j < nlat * (w + 1) / threads; ++j) {
                    const double phi = (double(j) / double(nlat - 1) - 0.5) * 3.14159265358979;
                    float* row = p + (t * nlat + j) * nlon;
                    for (std::int64_t i = 0; i < nlon; ++i) {
                        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                        const double lam = double(i) / double(nlon) * 6.28318530717959;
                        const double noise = (double(x & 0xffff) / 65535.0 - 0.5) * 0.1;
                        row[i] = float(300.0 - 45.0 * std::sin(phi) * std::sin(phi) +
                                       4.0 * std::sin(3 * lam + 0.05 * double(t0 + t)) * std::cos(phi) +
                                       1.5 * std::sin(7 * lam - 2 * phi + 0.11 * double(t0 + t)) + noise);
                    }
                }
        });
    for (auto& th : pool) th.join();
}

int makeFile(const Options& o) {
    int nc, dims[3], var;
    const bool classic = o.layout == "nc3";
    NC(nc_create(o.makeFile.c_str(), NC_CLOBBER | (classic ? NC_64BIT_OFFSET : NC_NETCDF4), &nc));
    NC(nc_def_dim(nc, "time", size_t(o.nt), &dims[0]));
    NC(nc_def_dim(nc, "lat", size_t(o.nlat), &dims[1]));
    NC(nc_def_dim(nc, "lon", size_t(o.nlon), &dims[2]));
    NC(nc_def_var(nc, "air", NC_FLOAT, 3, dims, &var));
    if (o.layout == "zlib1") { // what the peers' zlib file has: chunks of one map, shuffle, level 1
        const size_t chunks[3] = {1, size_t(o.nlat), size_t(o.nlon)};
        NC(nc_def_var_chunking(nc, var, NC_CHUNKED, chunks));
        NC(nc_def_var_deflate(nc, var, 1, 1, 1));
    } else if (!classic) {
        NC(nc_def_var_chunking(nc, var, NC_CONTIGUOUS, nullptr));
    }
    NC(nc_enddef(nc));
    const std::int64_t slab = o.nlat * o.nlon;
    std::vector<float> buf(static_cast<std::size_t>(slab * 50));
    const double t0 = seconds();
    for (std::int64_t t = 0; t < o.nt; t += 50) {
        const std::int64_t m = std::min<std::int64_t>(50, o.nt - t);
        if (o.layout == "zlib1")
            fillSmooth(buf.data(), t, m, o.nlat, o.nlon);
        else
            fill(buf.data(), m * slab);
        const size_t start[3] = {size_t(t), 0, 0}, count[3] = {size_t(m), size_t(o.nlat), size_t(o.nlon)};
        NC(nc_put_vara_float(nc, var, start, count, buf.data()));
    }
    NC(nc_close(nc));
    std::printf("wrote %s (%s): %.2f GB of values in %.2f s\n", o.makeFile.c_str(), o.layout.c_str(),
                double(o.nt * slab * 4) / 1e9, seconds() - t0);
    return 0;
}

// The file's variable behind the DataSource interface (netCDF-C is not thread-safe: a lock).
class NcSource : public DataSource {
public:
    explicit NcSource(const std::string& path) : path_(path) {
        NC(nc_open(path.c_str(), NC_NOWRITE, &nc_));
        NC(nc_inq_varid(nc_, "air", &var_));
    }
    ~NcSource() override { nc_close(nc_); }
    void read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
              std::span<const std::int64_t> stride, void* out) const override {
        std::lock_guard<std::mutex> lock(mutex_);
        size_t st[3], ct[3];
        ptrdiff_t sd[3];
        bool unit = true;
        for (int i = 0; i < 3; ++i) {
            st[i] = size_t(start[i]);
            ct[i] = size_t(count[i]);
            sd[i] = ptrdiff_t(stride[i]);
            unit = unit && stride[i] == 1;
        }
        if (unit)
            NC(nc_get_vara_float(nc_, var_, st, ct, static_cast<float*>(out)));
        else
            NC(nc_get_vars_float(nc_, var_, st, ct, sd, static_cast<float*>(out)));
    }
    std::string describe() const override { return path_ + ": variable 'air'"; }
    Shape shape() const {
        int dims[3];
        NC(nc_inq_vardimid(nc_, var_, dims));
        Shape s;
        for (int d : dims) {
            size_t len = 0;
            NC(nc_inq_dimlen(nc_, d, &len));
            s.push_back(std::int64_t(len));
        }
        return s;
    }

private:
    std::string path_;
    int nc_ = 0, var_ = 0;
    mutable std::mutex mutex_;
};

int uploadFile(Options o) {
    const Device dev = Device::cuda(0);
    const Stream stream = defaultStream(dev);
    auto src = std::make_shared<NcSource>(o.file);
    const Shape shape = src->shape();
    o.nt = shape[0];
    o.nlat = shape[1];
    o.nlon = shape[2];
    CfEncoding enc;
    enc.packed = enc.decoded = DType::Float32;
    const Variable lazy = Variable::lazy({"time", "lat", "lon"}, shape, enc, src);
    const double bytes = double(lazy.nbytes());
    std::printf("file %s: %.2f GB float32\n", o.file.c_str(), bytes / 1e9);
    for (int pass = 0; pass < 2;
         ++pass) { // the first pass may read from disk, the second from the page cache
        double t0 = seconds();
        const Variable host = lazy.load(Device::host(), Stream::host());
        const double readS = seconds() - t0;
        t0 = seconds();
        const TransferCounters before = transferCounters();
        const Variable onGpu = lazy.load(dev, stream);
        stream.synchronize();
        const double loadS = seconds() - t0;
        const std::string p = pass == 0 ? " (first)" : " (again)";
        rows.push_back({"file read to host" + p, readS * 1e3, bytes});
        print(rows.back());
        rows.push_back({"file -> device via Variable::load" + p, loadS * 1e3, bytes});
        print(rows.back());
        std::printf("  host->device bytes counted: %.2f GB\n", transferredSince(before).hostToDevice / 1e9);
    }
    writeJson(o, "");
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--time")
            o.nt = std::stoll(v);
        else if (a == "--lat")
            o.nlat = std::stoll(v);
        else if (a == "--lon")
            o.nlon = std::stoll(v);
        else if (a == "--reps")
            o.reps = std::stoi(v);
        else if (a == "--json")
            o.json = v;
        else if (a == "--make-file")
            o.makeFile = v;
        else if (a == "--file")
            o.file = v;
        else if (a == "--layout")
            o.layout = v;
        else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 1;
        }
    }
    if (cudaDeviceCount() == 0) {
        std::fprintf(stderr, "no CUDA device\n");
        return 1;
    }
    try {
        if (!o.makeFile.empty()) return makeFile(o);
        if (!o.file.empty()) return uploadFile(o);
        return mainSuite(o);
    } catch (const Error& e) {
        std::fprintf(stderr, "error: %s (%s)\n", e.what(), e.where().c_str());
        return 2;
    }
}
