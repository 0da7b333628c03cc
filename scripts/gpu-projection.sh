#!/usr/bin/env bash
# The map projections on the GPU machine: tst_projection and tst_reprojection (their cuda rows: the kernel's inverse
# against PROJ's on 100000 points a projection, the device resampling against the host's) and
# bench_reproject (a 1440 x 721 frame into a 1920 x 1080 Robinson image; target <= 100 us).
#   here:  scripts/gpu-projection.sh pack   builds both in build/ and gathers them with the
#          shared libraries they load (PROJ, Qt Core/Test, cudart, ...) into gpu-projection/, and
#          packs that as gpu-bundle/projection.tar.xz (the folder is over what a call carries)
#   there: scripts/gpu-projection.sh run    (carry gpu-bundle) unpacks and runs them, output in $OUT
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=$ROOT/gpu-projection
case ${1:-} in
pack)
    export CCACHE_BASEDIR=${CCACHE_BASEDIR:-/work}
    cmake --build "$ROOT/build" -j"${JOBS:-2}" --target tst_projection tst_reprojection bench_reproject
    rm -rf "$DIR"
    mkdir -p "$DIR/bin" "$DIR/lib"
    cp "$ROOT/build/tests/render/tst_projection" "$ROOT/build/tests/render/tst_reprojection" "$ROOT/build/bench/bench_reproject" "$DIR/bin/"
    # As gpu-check.sh: every library but the C library's, the driver's, the loader and the C++
    # runtime (the machine has its own, newer).
    skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libresolv\.so|libcuda\.so|libnvidia|libstdc\+\+|libgcc_s|libz\.so)'
    for e in "$DIR"/bin/*; do
        ldd "$e" | awk '/=> \// {print $1, $3}' | while read -r name path; do
            if [[ ! $name =~ $skip ]]; then cp -L -n "$path" "$DIR/lib/$name"; fi
        done
    done
    mkdir -p "$ROOT/gpu-bundle"
    tar -C "$ROOT" -cJf "$ROOT/gpu-bundle/projection.tar.xz" gpu-projection
    du -sh "$DIR" "$ROOT/gpu-bundle/projection.tar.xz"
    ;;
run)
    OUT=${OUT:-/tmp/strata-out}
    mkdir -p "$OUT"
    [[ -d $DIR ]] || tar -C "$ROOT" -xJf "$ROOT/gpu-bundle/projection.tar.xz"
    export LD_LIBRARY_PATH=$DIR/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export QT_QPA_PLATFORM=offscreen
    rc=0
    for t in tst_projection tst_reprojection; do
        STRATA_REQUIRE_GPU=1 "$DIR/bin/$t" >"$OUT/$t.log" 2>&1 || rc=1
        grep -E '^(FAIL|Totals)' "$OUT/$t.log" || true
    done
    for p in Robinson Mollweide NorthPolarStereo LambertConformal; do
        "$DIR/bin/bench_reproject" "$p" | tee -a "$OUT/bench_reproject.json" || rc=1
    done
    exit $rc
    ;;
*)
    echo "usage: $0 pack|run" >&2
    exit 2
    ;;
esac
