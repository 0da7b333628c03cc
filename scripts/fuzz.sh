#!/usr/bin/env bash
# Builds the libFuzzer target over the netCDF reader (clang 14, ASan + UBSan) and runs it.
#   scripts/fuzz.sh [seconds=60] [build dir=build-fuzz] [extra libFuzzer flags...]
# Seeds: tests/data/bad/ and the small real files in tests/data/. The growing corpus is kept in
# <build>/fuzz-corpus, crashes go to <build>/fuzz-artifacts/ (exit status non-zero). A crash
# found is reproduced with: <build>/tests/io/fuzz_netcdf <artifact>
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds=${1:-60}
build=${2:-$root/build-fuzz}
shift $(( $# > 2 ? 2 : $# )) || true
case "$build" in /*) ;; *) build="$root/$build" ;; esac

CLANG=${CLANG:-clang-14}
CLANGXX=${CLANGXX:-clang++-14}
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1"
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER="$CLANG" -DCMAKE_CXX_COMPILER="$CLANGXX" \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DSTRATA_CUDA=OFF -DSTRATA_GUI=OFF -DSTRATA_BENCH=OFF -DSTRATA_FUZZ=ON >/dev/null
fi
cmake --build "$build" --target fuzz_netcdf -j"${JOBS:-2}"

corpus="$build/fuzz-corpus"
artifacts="$build/fuzz-artifacts"
mkdir -p "$corpus" "$artifacts" "$build/fuzz-seeds"
# Seeds: the bad corpus and the real files small enough to mutate quickly.
cp -f "$root"/tests/data/bad/*.nc "$build/fuzz-seeds/" 2>/dev/null || true
find "$root/tests/data" -maxdepth 1 -name '*.nc' -size -100k -exec cp -f {} "$build/fuzz-seeds/" \;

# Huge requests return null, as glibc's would (netCDF-C then reports NC_ENOMEM).
# Leaks inside netCDF-C and HDF5 on their error paths are theirs, not ours.
export LSAN_OPTIONS="suppressions=$root/tests/io/fuzz_lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=1}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
exec "$build/tests/io/fuzz_netcdf" -max_total_time="$seconds" -max_len=131072 -timeout=20 \
  -rss_limit_mb=3072 -malloc_limit_mb=1024 -print_final_stats=1 \
  -artifact_prefix="$artifacts/" "$@" "$corpus" "$build/fuzz-seeds"
