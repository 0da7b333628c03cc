#!/usr/bin/env bash
# Deliberate bugs, one at a time: each is applied to the source (small sed edits), the tests
# that should see it are rebuilt and run, and the source is restored. A mutant the tests pass
# with SURVIVED: a test is missing. Not part of CI (it rebuilds the library once per mutant);
# the last result is kept in docs/mutants.md.
# usage: scripts/mutants.sh [build-dir] [name...]   (default build; every mutant)
#        scripts/mutants.sh --dry [name...]          each edit applied to a copy: does it match?
#        scripts/mutants.sh --cuda-bundle DIR [name...]
#            the CUDA twins (mutants of .cu/.cuh code, which only the GPU machine can run):
#            each applied, its GPU tests built, copied with the mutated libraries into DIR
#            (payload.tar.xz, under 60 MiB), the source restored; run them there with
#            scripts/gpu-mutants-run.sh DIR. CUDA_BUILD_DIR (default build-cuda) is configured
#            as scripts/gpu-check.sh does; twins of the image code build in BUILD_DIR (build).
# Runs under Xvfb when there is no DISPLAY (the window and image tests need one).
#
# Only a failing test kills a mutant. Each of a mutant's edits must change the file (an edit
# that matches nothing is reported, not run); a mutant that does not build is BROKEN, not
# killed; the tests must pass unmutated first (MUTANTS_NO_BASELINE=1 skips that run). The
# exit status is 0 only when every mutant run was killed.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mode=run
case ${1:-} in
--dry) mode=dry && shift ;;
--cuda-bundle) mode=bundle && bundle=${2:?--cuda-bundle needs a directory} && shift 2 ;;
esac
if [ $mode = run ]; then
  build=${1:-$root/build}
  shift || true
else
  build=${BUILD_DIR:-$root/build}
fi
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-/work}
jobs=${JOBS:-2}

# name | file | tests (ctest names) | sed edits, separated by ' @@ ' (each one must change the file)
mutants=(
  "isel-off-by-one|core/src/variable.cpp|tst_variable tst_dataarray tst_netcdf tst_mainwindow|s/start = resolveIndex(\*i, n, ix.dim);/start = std::min(resolveIndex(*i, n, ix.dim) + 1, n - 1);/"
  "frame-x-y-swapped|core/src/view.cpp|tst_frameservice tst_viewroles tst_mainwindow tst_mapwindow|s/    order.push_back(spec.xDim);/    order.insert(order.begin(), spec.xDim);/"
  "colormap-index-plus-one|core/src/cpu/colormap.inc.h|tst_colormap tst_imagerender|s/idx\[i\] = static_cast<std::int32_t>(c);/idx[i] = static_cast<std::int32_t>(c < top ? c + 1 : c);/"
  "mean-counts-nan|core/src/cpu/kernels.h|tst_reduce|s/            n += ok;/            n += 1;/ @@ s/            c\[l\] += o0 + o1;/            c[l] += 2;/ @@ s/        tc += o;/        tc += 1;/"
  "april-has-31-days|core/src/cftime.cpp|tst_cftime|s/{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}/{31, 28, 31, 31, 31, 30, 31, 31, 30, 31, 30, 31}/"
  "csv-header-x-before-y|core/io/src/csv.cpp|tst_cli|s/    for (const auto\& d : frame.dims()) {/    for (const auto\& d : std::vector<std::string>(frame.dims().rbegin(), frame.dims().rend())) {/"
  "scale-factor-dropped|core/src/cf.cpp|tst_cfencoding tst_netcdf|s/    if (scale) e.scale = \*scale;/    (void)scale;/"
  "reduce-dims-reversed|core/src/ops_reduce.cpp|tst_reduce|s/    Variable v(s.keptDims, s.keptShape, type/    Variable v(std::vector<std::string>(s.keptDims.rbegin(), s.keptDims.rend()), s.keptShape, type/"
  "range-kept-across-files|app/frames/range_book.cpp|tst_rangebook tst_frameservice|/^    variables_.clear();\$/d @@ s/if (k.key == key) return rangeInUnits/if (k.key.variable == key.variable) return rangeInUnits/"
  # The chunk filters and the HDF5 chunk index (core/io).
  "unshuffle-planes-reversed|core/io/src/chunk_filters.cpp|tst_direct_read|s/unsigned char\* o = out + k;/unsigned char* o = out + (element - 1 - k);/"
  "fletcher32-halves-swapped|core/io/src/chunk_filters.cpp|tst_direct_read|s/    return (b << 16) | a;/    return (a << 16) | b;/"
  "fletcher32-over-the-trailer|core/io/src/chunk_filters.cpp|tst_direct_read|s/const std::uint32_t sum = fletcher32(cur, want);/const std::uint32_t sum = fletcher32(cur, want + 4);/"
  "inflate-short-chunk-accepted|core/io/src/chunk_filters.cpp|tst_direct_read|s/STRATA_EXPECTS(got == want, NetcdfError,/STRATA_EXPECTS(got <= want, NetcdfError,/"
  "chunk-index-fortran-order|core/io/src/direct_layout.cpp|tst_direct_read|s/for (int i = rank - 1; i >= 0; --i) { \/\/ next chunk, C order/for (int i = 0; i < rank; ++i) { \/\/ next chunk, C order/"
  "chunk-lattice-drops-edge-chunks|core/io/src/direct_layout.cpp|tst_direct_read|s/(shape\[std::size_t(i)\] + c - 1) \/ c;/shape[std::size_t(i)] \/ c;/"
  "chunk-overlap-ignores-size|core/io/src/direct_layout.cpp|tst_direct_read|s/byAddress\[i - 1\]->address + byAddress\[i - 1\]->bytes <= byAddress\[i\]->address,/byAddress[i - 1]->address <= byAddress[i]->address,/"
  "superblock-eof-one-field-early|core/io/src/hdf5_superblock.cpp|tst_badfiles|s/const std::size_t eofAt = addresses + 2 \* std::size_t(offsets);/const std::size_t eofAt = addresses + std::size_t(offsets);/"
  # Chunk placement (the CPU's; the CUDA twins are below).
  "place-shuffled-bytes-reversed|core/src/cpu/place_chunks.cpp|tst_chunks|s/b\[Swap ? E - 1 - k : k\]/b[Swap ? k : E - 1 - k]/"
  "place-fill-dropped|core/src/cpu/place_chunks.cpp|tst_chunks|/    if (!stored) std::memcpy(\&fill, p.fill, sizeof(T));/d"
  "place-row-carry-off-by-one|core/src/cpu/place_chunks.cpp|tst_chunks|s/            s -= box.count\[k\] \* p.srcStrides\[k\];/            s -= (box.count[k] - 1) * p.srcStrides[k];/"
  # Residency: eviction and reservations.
  "evict-most-recent|core/src/residency.cpp|tst_residency|s/(!victim || e.lastUse < victim->lastUse)/(!victim || e.lastUse > victim->lastUse)/"
  "evict-in-use|core/src/residency.cpp|tst_residency|s/if (e.data \&\& !e.borrowed \&\& e.data->variable().buffer().use_count() == 1 \&\&/if (e.data \&\& !e.borrowed \&\&/"
  "reservation-not-taken|core/src/residency.cpp|tst_residency|/            e.reserved = need; \/\/ before anything is allocated/d"
  "cancel-drops-reservation-early|core/src/residency.cpp|tst_residency|/^        draining_ += it->second.reserved;\$/d"
  # The streamed reductions' merge (merge.inc.h is shared with the CUDA kernel).
  "merge-mean-weighted-by-own-count|core/src/merge.inc.h|tst_streaming|s/p.acc\[1\]\[i\] += delta \* nb \/ n;/p.acc[1][i] += delta * na \/ n;/"
  "merge-arg-offset-dropped|core/src/merge.inc.h|tst_streaming|s/p.argAcc\[i\] = index + p.offset;/p.argAcc[i] = index;/"
  "merge-last-element-dropped|core/src/cpu/merge.cpp|tst_streaming|s/for (std::int64_t i = 0; i < p.n; ++i) mergeElement(p, i);/for (std::int64_t i = 0; i + 1 < p.n; ++i) mergeElement(p, i);/"
  # Area weights.
  "area-cos-of-degrees|core/src/area.cpp|tst_area tst_weightedmean|s/std::cos(c.values\[i\] \* M_PI \/ 180.0)/std::cos(c.values[i])/"
  "cell-measures-key-without-colon|core/src/area.cpp|tst_area|s/if (w == \"area:\" \&\& (words >> w)) return w;/if (w == \"area\" \&\& (words >> w)) return w;/"
  "weighted-denominator-unweighted|core/src/cpu/reduce_weighted.inc.h|tst_weightedmean tst_area|s/st.sw += wv \* n;/st.sw += n;/"
  # The projections' formulas and the resampling.
  "mollweide-inverse-x-scale|render/src/projection_math.h|tst_projection|s/const double cx = 2 \* M_SQRT2 \/ M_PI;/const double cx = M_SQRT2 \/ M_PI;/"
  "south-polar-latitude-sign|render/src/projection_math.h|tst_projection|s/lat = north ? M_PI \/ 2 - c : c - M_PI \/ 2;/lat = north ? M_PI \/ 2 - c : M_PI \/ 2 - c;/"
  "lambert-forward-cone-dropped|render/src/projection_math.h|tst_projection|s/X = rho \* std::sin(p.n \* dl);/X = rho * std::sin(dl);/"
  "pixel-sampled-at-corner|render/src/projection_math.h|tst_reprojection|s/return x0 + (static_cast<double>(i) + 0.5) \* (x1 - x0) \/ width;/return x0 + static_cast<double>(i) * (x1 - x0) \/ width;/"
  "reproject-strides-swapped|render/src/reprojection.cpp|tst_projection|s/(cell \/ nlon) \* c.rowStride + (cell % nlon) \* c.colStride/(cell \/ nlon) * c.colStride + (cell % nlon) * c.rowStride/"
  # Multi-file sets: ordering and time units.
  "mf-order-descending|core/io/src/multifile.cpp|tst_multifile|s/return a.key < b.key; });/return a.key > b.key; });/"
  "mf-key-in-own-units|core/io/src/multifile.cpp|tst_multifile|s/m.values.push_back(c->units == c0->units ? v : encodeTime(d, ref, cal));/m.values.push_back(v);/"
  "mf-axis-not-rebased|core/io/src/multifile.cpp|tst_multifile|s/m.values\[i\] = c->units == c0->units ? c->values\[i\]/m.values[i] = c->units != c0->units ? c->values[i]/"
  # Zarr codecs and sharding (not the blosc checks), HTTP.
  "zarr-shuffle-encodes|core/io/src/zarr_codec.cpp|tst_zarr|s/out\[i \* e + b\] = in\[b \* n + i\];/out[b * n + i] = in[i * e + b];/"
  "zarr-gzip-and-zlib-swapped|core/io/src/zarr_codec.cpp|tst_zarr|s/^            c.kind == K::Zlib\$/            c.kind != K::Zlib/"
  "zarr-shard-offset-from-size-slot|core/io/src/zarr_codec.cpp|tst_zarr|s/std::memcpy(\&offset, \&index\[k \* 16\], 8);/std::memcpy(\&offset, \&index[k * 16 + 8], 8);/"
  "zarr-shard-chunk-position|core/io/src/zarr_codec.cpp|tst_zarr|s/dst += std::uint64_t(at\[i\] \* s.chunk\[i\] + r\[i\]) \* outStride\[i\];/dst += std::uint64_t(at[i] + r[i]) * outStride[i];/"
  "http-404-is-an-error|core/io/src/zarr_http.cpp|tst_zarr_http|s/(status == 404 || status == 410)/(status == 410)/"
  "http-503-not-retried|core/io/src/zarr_http.cpp|tst_zarr_http|s/if (status != 429 \&\& status < 500) break;/if (status != 429 || status < 500) break;/"
  "http-401-retried|core/io/src/zarr_http.cpp|tst_zarr_http|s/if (status != 429 \&\& status < 500) break;/if (status == 429 \&\& status < 500) break;/"
  # The image: whole-pixel layout, pick, curvilinear corners, the coastline's seam.
  "whole-pixel-y-offset-from-x|render/src/view_layout.cpp|tst_viewlayout|s/plot.y0 += std::floor(spareY \/ 2);/plot.y0 += std::floor(spareX \/ 2);/"
  "pick-row-from-x|render/src/view_layout.cpp|tst_viewlayout|s/p.row = cellIndex(y.edges, p.y);/p.row = cellIndex(y.edges, p.x);/"
  "map-pick-longitude-in-radians|render/src/image_content.cpp|tst_imageprojection|s/^    p.x = lon \* (180 \/ M_PI);/    p.x = lon;/"
  "curv-corners-clockwise|render/src/curvilinear_grid.cpp|tst_curvilinear|s/{j \* cw + i, j \* cw + i + 1, (j + 1) \* cw + i + 1, (j + 1) \* cw + i}/{j * cw + i, (j + 1) * cw + i, (j + 1) * cw + i + 1, j * cw + i + 1}/"
  "curv-edge-extrapolated-inwards|render/src/curvilinear_grid.cpp|tst_curvilinear|s/return lin(self(self, j, columns - 1), self(self, j, columns - 2));/return lin(self(self, j, columns - 2), self(self, j, columns - 1));/"
  "curv-unwrap-args-swapped|render/src/curvilinear_grid.cpp|tst_curvilinear|s/if (std::isfinite(ref)) lon = unwrapped(lon, ref);/if (std::isfinite(ref)) lon = unwrapped(ref, lon);/"
  "coast-copy-left-of-view-dropped|render/src/coast_plan.cpp|tst_coastplan|s/std::ceil((lonLo - l.lonMax) \/ 360)/std::ceil((lonLo - l.lonMin) \/ 360)/"
  "map-line-not-cut-at-seam|render/src/map_plan.cpp|tst_mapplan tst_coastplan|s/std::fabs(rel - lastRel) > M_PI) flush();/std::fabs(rel - lastRel) > 2 * M_PI) flush();/"
)

# The CUDA twins: the same slips in the device code, built here and run on the GPU machine.
# name | file | where: cuda (CUDA_BUILD_DIR: shared libraries, no GUI, as gpu-check.sh) or gui
# (BUILD_DIR, whose image tests link the image library statically) | test executables | edits
cuda_mutants=(
  "place-shuffled-bytes-reversed-cuda|core/src/cuda/place_chunks.cu|cuda|tst_chunks|s/const int at = a.swap ? E - 1 - k : k;/const int at = a.swap ? k : E - 1 - k;/"
  "place-fill-dropped-cuda|core/src/cuda/place_chunks.cu|cuda|tst_chunks|s/            v = T(a.fill);/            v = T(0);/"
  "merge-last-block-dropped-cuda|core/src/cuda/merge.cu|cuda|tst_streaming|s/(p.n + threads - 1) \/ threads/p.n \/ threads/"
  "weighted-denominator-unweighted-cuda|core/src/cuda/accumulators.cuh|cuda|tst_weightedmean|s/^            sw += w;/            sw += 1;/"
  "mean-counts-nan-cuda|core/src/cuda/accumulators.cuh|cuda|tst_reduce|/^struct SumAcc/,/^};/s/^        if (!isNan(v)) {/        n += isNan(v);\n        if (!isNan(v)) {/"
  "colormap-index-plus-one-cuda|core/src/cuda/colormap.cu|cuda|tst_colormap|s/const int i = f >= 0 ? (f > n - 1 ? a.n - 1 : int(f)) : 0;/const int i = f >= 0 ? (f >= n - 2 ? a.n - 1 : int(f) + 1) : 0;/"
  "reproject-strides-swapped-cuda|render/src/cuda/reproject.cu|gui|tst_projection|s/\[row \* p.rowStride + col \* p.colStride\]/[row * p.colStride + col * p.rowStride]/"
  "reproject-last-block-dropped-cuda|render/src/cuda/reproject.cu|gui|tst_projection|0,/(p.pixels.width + 255) \/ 256/s//p.pixels.width \/ 256/"
)

fail() {
  echo "mutants: $*" >&2
  exit 2
}
field() { IFS='|' read -r f_name f_file f_tests f_edits <<<"$1"; }
twinField() { IFS='|' read -r f_name f_file f_where f_tests f_edits <<<"$1"; }

# Applies each of `edits` (' @@ '-separated sed scripts) to `src`; says which one matched nothing.
notApplied=""
applyEdits() {
  local src=$1 e
  notApplied=""
  IFS=$'\n' read -r -d '' -a edits < <(echo "$2" | sed 's/ @@ /\n/g' && printf '\0')
  for e in "${edits[@]}"; do
    cp "$src" "$src.step"
    sed -i -e "$e" "$src"
    if cmp -s "$src" "$src.step"; then notApplied="NOT APPLIED (this edit matched nothing: $e)"; fi
    rm -f "$src.step"
    [ -n "$notApplied" ] && return 1
  done
  return 0
}

wanted=("$@")
pool=("${mutants[@]}")
[ $mode = bundle ] && pool=("${cuda_mutants[@]}")
[ $mode = dry ] && pool=("${mutants[@]}" "${cuda_mutants[@]}")
chosen=()
for m in "${pool[@]}"; do
  name=${m%%|*}
  if [ ${#wanted[@]} -gt 0 ] && [[ ! " ${wanted[*]} " == *" $name "* ]]; then continue; fi
  chosen+=("$m")
done
for w in "${wanted[@]}"; do
  printf '%s\n' "${pool[@]}" | grep -q "^$w|" || fail "no mutant named '$w'"
done
[ ${#chosen[@]} -gt 0 ] || fail "no mutant chosen"

current="" # the source file being mutated: put back on any exit
restore() {
  if [ -n "$current" ] && [ -f "$current.orig" ]; then
    mv "$current.orig" "$current"
    touch "$current" # rebuilt from the restored source next time
  fi
  current=""
}

if [ $mode = dry ]; then # each edit on a scratch copy: the source is not touched
  bad=0
  scratch=$(mktemp)
  for m in "${chosen[@]}"; do
    if printf '%s\n' "${cuda_mutants[@]}" | grep -qxF -- "$m"; then twinField "$m"; else field "$m"; fi
    [ -f "$root/$f_file" ] || { echo "mutants: $f_name: no file $f_file"; bad=1; continue; }
    cp "$root/$f_file" "$scratch"
    if applyEdits "$scratch" "$f_edits"; then
      echo "mutants: $f_name: applies ($(diff "$root/$f_file" "$scratch" | grep -c '^[<>]') lines of diff in $f_file)"
    else
      echo "mutants: $f_name: $notApplied"
      bad=1
    fi
  done
  rm -f "$scratch" "$scratch.step"
  exit $bad
fi

if [ $mode = bundle ]; then
  . "$root/scripts/mutants_bundle.sh"
  exit $?
fi
all_tests=$(for m in "${chosen[@]}"; do field "$m"; echo $f_tests; done | tr ' ' '\n' | sort -u | tr '\n' ' ')
regexOf() { echo "^($(echo $1 | tr ' ' '|'))\$"; }

if [ -z "${DISPLAY:-}" ] && command -v Xvfb >/dev/null 2>&1; then
  exec 3< <(Xvfb -displayfd 1 -screen 0 1920x1080x24 -nolisten tcp 2>/dev/null)
  xvfb_pid=$!
  read -r -t 30 number <&3 || fail "Xvfb did not start"
  export DISPLAY=":$number"
fi
log=$(mktemp)
cleanup() {
  restore
  rm -f "$log"
  [ -n "${xvfb_pid:-}" ] && kill "$xvfb_pid" 2>/dev/null
  true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Every test named must exist in the build, and pass before anything is mutated.
cmake --build "$build" -j"$jobs" --target $all_tests >"$log" 2>&1 || { tail -30 "$log"; fail "the unmutated tests do not build"; }
for t in $all_tests; do
  ctest --test-dir "$build" -N -R "^$t\$" | grep -q "Total Tests: 1" || fail "no test '$t' in $build"
done
if [ -z "${MUTANTS_NO_BASELINE:-}" ]; then
  echo "mutants: the unmutated tests first: $all_tests"
  ctest --test-dir "$build" -R "$(regexOf "$all_tests")" --output-on-failure >"$log" 2>&1 ||
    { grep -E "FAIL!|Failed|\*\*\*" "$log" | head -20; fail "the tests fail without a mutant: no verdict would mean anything"; }
fi

# The tests that failed in a ctest log, each with the QtTest functions that failed in it:
# "tst_a (fnA fnB), tst_b". ctest prints a test's output after its status line.
failedIn() {
  awk '
    match($0, /Test +#[0-9]+: [A-Za-z0-9_]+/) { t = substr($0, RSTART, RLENGTH); sub(/.*: /, "", t); cur = t }
    /^FAIL!  : / { f = $0; sub(/^FAIL!  : [A-Za-z0-9_]*::/, "", f); sub(/\(.*/, "", f);
                   if (index(" " fns[cur] " ", " " f " ") == 0) fns[cur] = fns[cur] (fns[cur] ? " " : "") f }
    /The following tests FAILED:/ { list = 1; next }
    list && match($0, /[0-9]+ - [A-Za-z0-9_]+/) { t = substr($0, RSTART, RLENGTH); sub(/.* - /, "", t);
                   out = out (out ? ", " : "") t (fns[t] ? " (" fns[t] ")" : "") }
    END { print out }' "$1"
}

results=()
for m in "${chosen[@]}"; do
  field "$m"
  src="$root/$f_file"
  [ -f "$src" ] || fail "$f_name: no file $f_file"
  cp "$src" "$src.orig"
  current=$src
  verdict=""
  applyEdits "$src" "$f_edits" || verdict=$notApplied
  start=$SECONDS
  if [ -z "$verdict" ]; then
    if ! cmake --build "$build" -j"$jobs" --target $f_tests >"$log" 2>&1; then
      verdict="BROKEN (does not build: fix the edit)"
      grep -m5 "error" "$log" >&2
    elif ctest --test-dir "$build" -R "$(regexOf "$f_tests")" --no-tests=error --output-on-failure >"$log" 2>&1; then
      verdict="SURVIVED"
    else
      killers=$(failedIn "$log")
      if [ -n "$killers" ]; then verdict="killed by $killers"; else
        verdict="UNCLEAR (ctest failed, no test named)"
        tail -20 "$log" >&2
      fi
    fi
  fi
  restore
  results+=("$f_name|$verdict|$((SECONDS - start)) s")
  echo "mutants: $f_name: $verdict ($((SECONDS - start)) s)"
done
# Back to the unmutated build of every target touched.
cmake --build "$build" -j"$jobs" --target $all_tests >/dev/null 2>&1

echo
echo "| mutant | result | time |"
echo "| --- | --- | --- |"
survived=0
for r in "${results[@]}"; do
  IFS='|' read -r n v t <<<"$r"
  echo "| $n | $v | $t |"
  [[ "$v" == killed* ]] || survived=$((survived + 1))
done
echo
echo "mutants: ${#results[@]} run, $survived not killed"
[ "$survived" -eq 0 ]
