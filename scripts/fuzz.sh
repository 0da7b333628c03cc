#!/usr/bin/env bash
# Builds the libFuzzer target over the netCDF reader (clang 14, ASan + UBSan) and runs it.
#
#   scripts/fuzz.sh [seconds=60] [build dir=build-fuzz] [extra libFuzzer flags...]
#       runs until the time is up or the first finding (written to <build>/fuzz-artifacts/).
#   scripts/fuzz.sh --ci [seconds=90] [build dir=build-fuzz]
#       runs in fork mode, going on past findings, then reruns every finding and sorts it by
#       where it happened. Exits 1 when one is in Strata's code; findings inside netCDF-C or
#       HDF5 are listed (they cannot be fixed here: checkInChildProcess contains them).
#   scripts/fuzz.sh --triage [build dir=build-fuzz] files...
#       the sorting alone, for findings of earlier runs.
#
# Seeds: tests/data/bad/ (less the files known to crash HDF5) and the small files in tests/data/.
# The growing corpus stays in <build>/fuzz-corpus. Reproduce a finding: <build>/tests/io/fuzz_netcdf FILE
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mode=run
case "${1:-}" in --ci) mode=ci; shift ;; --triage) mode=triage; shift ;; esac
if [ "$mode" = triage ]; then
  seconds=0
  build=${1:-$root/build-fuzz}
  shift || true
else
  seconds=${1:-$([ "$mode" = ci ] && echo 90 || echo 60)}
  build=${2:-$root/build-fuzz}
  shift $(( $# > 2 ? 2 : $# )) || true
fi
case "$build" in /*) ;; *) build="$root/$build" ;; esac
# STRATA_FUZZ_TARGET=fuzz_zarr fuzzes the Zarr reader instead (seeds: tests/data/zarr_fuzz),
# STRATA_FUZZ_TARGET=fuzz_expression the expression parser (seeds: tests/data/expression_fuzz),
# STRATA_FUZZ_TARGET=fuzz_mesh the mesh readers and the face locator (seeds: tests/data/mesh),
# STRATA_FUZZ_TARGET=fuzz_grib the GRIB reader's message index (seeds: tests/data/grib).
target=${STRATA_FUZZ_TARGET:-fuzz_netcdf}
fuzzer="$build/tests/io/$target"
[ "$target" = fuzz_expression ] && fuzzer="$build/tests/core/$target"

export LSAN_OPTIONS="suppressions=$root/tests/io/fuzz_lsan.supp:print_suppressions=0"
# Huge requests return null, as glibc's would (netCDF-C then reports NC_ENOMEM).
export ASAN_OPTIONS="${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=1}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
limits=(-timeout=20 -rss_limit_mb=3072 -malloc_limit_mb=1024)

# Prints "ours" or "library" for a finding: where its first frame outside the sanitizer and
# fuzzer runtimes, the C and C++ runtimes and the allocator lies.
classify() {
  local report frame
  report=$(timeout 120 "$fuzzer" "${limits[@]}" "$1" 2>&1 || true)
  if ! grep -qE "ERROR: |runtime error:|SUMMARY: |ALARM:" <<<"$report"; then echo "none"; return; fi
  frame=$(grep -E "^ +#[0-9]+ 0x[0-9a-f]+ in " <<<"$report" |
    grep -vE " in (__asan|__sanitizer|__interceptor|__lsan|__ubsan|fuzzer::|malloc|calloc|realloc|free|operator new|operator delete|abort|raise|gsignal|__GI_|__libc|__pthread|pthread_kill|std::terminate|__cxa_|__gxx_|_Unwind|__cxxabiv1)" |
    grep -vE "/libc\.so|/libstdc\+\+|/libgcc_s|/ld-linux|libc_start|_start " | head -1)
  if grep -qE "/lib(hdf5|netcdf|sz|aec|z|curl|xml2|eccodes|openjp2|jasper|png)[^/]*\.so" <<<"$frame"; then echo "library"; else echo "ours"; fi
}

triage() {
  local f where ours=0 library=0
  for f in "$@"; do
    [ -f "$f" ] || continue
    where=$(classify "$f")
    case "$where" in
      ours) ours=$((ours + 1)); echo "fuzz: IN OUR CODE: $f" ;;
      library) library=$((library + 1)); echo "fuzz: inside netCDF-C/HDF5 (contained by checkInChildProcess): $f" ;;
      none) echo "fuzz: no longer reproduces: $f" ;;
    esac
  done
  echo "fuzz: $ours finding(s) in our code, $library inside netCDF-C/HDF5"
  [ "$ours" -eq 0 ]
}

if [ "$mode" = triage ]; then triage "$@"; exit; fi

CLANG=${CLANG:-clang-14}
CLANGXX=${CLANGXX:-clang++-14}
# -O1 is put after every other flag, strata_core's -O3 too (at -O3 a reduction driver file takes
# 110 s to build under the sanitizers, at -O1 65 s).
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1"
if [ ! -f "$build/CMakeCache.txt" ]; then
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER="$CLANG" -DCMAKE_CXX_COMPILER="$CLANGXX" \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" "${launcher[@]}" \
    "-DCMAKE_CXX_COMPILE_OBJECT=<CMAKE_CXX_COMPILER> <DEFINES> <INCLUDES> <FLAGS> -O1 -o <OBJECT> -c <SOURCE>" \
    -DSTRATA_CUDA=OFF -DSTRATA_GUI=OFF -DSTRATA_BENCH=OFF -DSTRATA_FUZZ=ON >/dev/null
fi
cmake --build "$build" --target "$target" -j"${JOBS:-2}"

corpus="$build/fuzz-corpus"
maxlen=131072
artifacts="$build/fuzz-artifacts"
seeds="$build/fuzz-seeds"
mkdir -p "$corpus" "$artifacts" "$seeds"
if [ "$target" = fuzz_zarr ]; then
  corpus="$build/fuzz-corpus-zarr" seeds="$build/fuzz-seeds-zarr"
  mkdir -p "$corpus" "$seeds"
  cp -f "$root"/tests/data/zarr_fuzz/* "$seeds/"
elif [ "$target" = fuzz_mesh ]; then
  corpus="$build/fuzz-corpus-mesh" seeds="$build/fuzz-seeds-mesh"
  mkdir -p "$corpus" "$seeds"
  cp -f "$root"/tests/data/mesh/*.nc "$root"/tests/data/mesh/*.ug "$seeds/"
  maxlen=262144 # the MPAS and cubed-sphere seeds are up to 180 kB
elif [ "$target" = fuzz_grib ]; then
  corpus="$build/fuzz-corpus-grib" seeds="$build/fuzz-seeds-grib"
  mkdir -p "$corpus" "$seeds"
  cp -f "$root"/tests/data/grib/*.grib* "$seeds/"
  maxlen=65536 # the Gaussian seed is 53 kB
elif [ "$target" = fuzz_expression ]; then
  corpus="$build/fuzz-corpus-expression" seeds="$build/fuzz-seeds-expression"
  mkdir -p "$corpus" "$seeds"
  cp -f "$root"/tests/data/expression_fuzz/* "$seeds/"
else
  find "$root/tests/data/bad" -name '*.nc' ! -name 'hdf5_crash_*' ! -name 'hdf5_hang*' -exec cp -f {} "$seeds/" \;
  find "$root/tests/data" -maxdepth 1 -name '*.nc' -size -100k -exec cp -f {} "$seeds/" \;
fi

if [ "$mode" = run ]; then
  exec "$fuzzer" -max_total_time="$seconds" -max_len="$maxlen" "${limits[@]}" -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$@" "$corpus" "$seeds"
fi

# --ci: new findings of this run only.
stamp="$build/.fuzz-ci-start"
touch "$stamp"
"$fuzzer" -fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1 -max_total_time="$seconds" \
  -max_len="$maxlen" "${limits[@]}" -artifact_prefix="$artifacts/" "$corpus" "$seeds" 2>&1 |
  grep -E "^#[0-9]+: cov|INFO: fuzzed for|DONE" | tail -3 || true
mapfile -t found < <(find "$artifacts" -type f -newer "$stamp")
triage "${found[@]}"
