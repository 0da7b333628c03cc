#!/usr/bin/env bash
# The Python module on the GPU machine (Python 3.12 with CuPy there; no Qt or netCDF).
#   scripts/gpu-python.sh pack   here: the package from BUILD (build/python: the extension for
#                                3.11 and 3.12, the .py files, the entry point's metadata,
#                                libstrata_vtkviews.so) and every library it loads but the base
#                                system's and the GPU driver's, into gpu-python/python.tar.xz
#                                (with build/bench/bench_gpu, which writes the benchmark's files)
#   scripts/gpu-python.sh run    there: unpack into /opt/strata-py, then run tests/python/test_gpu.py
#                                with STRATA_REQUIRE_GPU=1 (a test fails where it would skip for
#                                want of a GPU, CuPy, cupy-xarray, the reference or a display),
#                                and tests/zarr/cross_check_tensorstore.py on the committed v3
#                                fixtures (tests/data/zarr_v3). A skip that is left fails the run
#                                too, unless its reason matches PYTHON_ALLOWED_SKIPS (a grep -E
#                                pattern; default: the test that needs a second GPU, on a machine
#                                with one), as gpu-suite.sh treats the C++ tests' skips.
#                                The window's tests need a display: DISPLAY, or an Xvfb of its
#                                own started from gpu-window.sh's X stack in /opt/x
#   scripts/gpu-python.sh bench  there: unpack, then bench/python_bench.py show (1000 × 721 × 1440
#                                float32 CuPy; needs the display as above) and open on the ingest
#                                benchmark's 2.08 GB files (contiguous, zlib1: written by bench_gpu
#                                unless /tmp/strata-ingest-LAYOUT.nc is there); JSON lines in
#                                $OUT (default /tmp/strata-py-bench)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${PYTHON_DIR:-$ROOT/gpu-python}
BUILD=${BUILD_DIR:-$ROOT/build}
PY=${PYTHON:-python3}
PEERS=${PEERS_DIR:-/opt/py311}
cmd=${1:-run}

pack() {
    local stage
    stage=$(mktemp -d)
    mkdir -p "$DIR" "$stage/lib"
    cp -r "$BUILD/python" "$stage/python"
    find "$stage/python" -name __pycache__ -prune -exec rm -rf {} +
    cp "$BUILD/app/libstrata_vtkviews.so" "$BUILD/app/libstrata_movie.so" "$stage/python/strata/" 2>/dev/null
    mkdir -p "$stage/bin" && cp "$BUILD/bench/bench_gpu" "$stage/bin/" 2>/dev/null
    local skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libresolv\.so|libcuda\.so|libnvidia|libstdc\+\+|libgcc_s|libz\.so|libGL\.so|libGLX\.so|libGLdispatch|libEGL\.so|libOpenGL\.so|libpython)'
    for e in "$stage"/python/strata/*.so "$stage"/bin/*; do
        [[ -f $e ]] || continue
        ldd "$e" | awk '/=> \// {print $1, $3}' | while read -r name path; do
            [[ $name =~ $skip ]] || cp -L -n "$path" "$stage/lib/$name"
        done
    done
    # Qt's xcb platform plugin, for the window where gpu-window.sh's X stack runs.
    local qtp=/usr/lib/x86_64-linux-gnu/qt6/plugins
    mkdir -p "$stage/plugins/platforms" && cp "$qtp/platforms/libqxcb.so" "$stage/plugins/platforms/"
    # Its GLX integration: without it the window's GL context cannot be made there.
    mkdir -p "$stage/plugins/xcbglintegrations" &&
        cp "$qtp/xcbglintegrations/libqxcb-glx-integration.so" "$stage/plugins/xcbglintegrations/"
    ldd "$qtp/platforms/libqxcb.so" | awk '/=> \// {print $1, $3}' | while read -r name path; do
        [[ $name =~ $skip ]] || cp -L -n "$path" "$stage/lib/$name"
    done
    # netCDF-C's reading of tests/data, the GPU test's oracle there (no netcdf4 engine there).
    STRATA_TEST_DATA=$ROOT/tests/data /usr/bin/python3 "$ROOT/tests/python/make_reference.py" "$stage/reference.npz"
    # cupy-xarray (pure Python; not a Debian package, not on the GPU machine), for test_gpu's
    # comparison with as_cupy(): from a checkout named by CUPY_XARRAY_SRC, never committed here.
    if [[ -n ${CUPY_XARRAY_SRC:-} ]]; then
        mkdir -p "$stage/peers"
        if [[ -d $CUPY_XARRAY_SRC/cupy_xarray ]]; then cp -r "$CUPY_XARRAY_SRC/cupy_xarray" "$stage/peers/"
        else git --git-dir="$CUPY_XARRAY_SRC" archive HEAD cupy_xarray | tar -x -C "$stage/peers"; fi
        rm -rf "$stage/peers/cupy_xarray/tests"
    fi
    strip --strip-unneeded "$stage"/lib/* "$stage"/python/strata/*.so 2>/dev/null || true
    tar -C "$stage" -cf - . | xz -T0 -3 >"$DIR/python.tar.xz"
    rm -rf "$stage"
    ls -l "$DIR/python.tar.xz"
}

# A display for the window: DISPLAY as set, else an Xvfb of this script's own on :6 from the X
# stack gpu-window.sh unpack-x leaves in /opt/x (as gpu-window.sh run starts its own on :5).
display() {
    [[ -n ${DISPLAY:-} ]] && return 0
    if [[ ! -x /opt/x/usr/bin/Xvfb ]]; then
        echo "no DISPLAY and no X stack in /opt/x (scripts/gpu-window.sh unpack-x): the window's tests fail"
        return 0
    fi
    local L=/opt/x/usr/lib/x86_64-linux-gnu
    ln -sfn $L/dri /usr/lib/x86_64-linux-gnu/dri # Xvfb looks for swrast_dri.so only there
    ln -sf /opt/x/usr/bin/xkbcomp /usr/bin/xkbcomp
    LD_LIBRARY_PATH=$L:/opt/x/lib/x86_64-linux-gnu:/usr/local/nvidia/lib64 /opt/x/usr/bin/Xvfb :6 \
        -screen 0 1920x1200x24 -nolisten tcp -xkbdir /opt/x/usr/share/X11/xkb -fp built-ins >/tmp/strata-py-xvfb.log 2>&1 &
    XVFB_PID=$!
    trap 'kill "$XVFB_PID" 2>/dev/null' EXIT
    sleep 2 # the server's start
    export DISPLAY=:6 __GLX_VENDOR_LIBRARY_NAME=nvidia QT_QPA_PLATFORM=xcb
    [[ -d /opt/app/fonts ]] && export QT_QPA_FONTDIR=/opt/app/fonts
    echo "display: Xvfb :6 from /opt/x"
}

unpack() {
    rm -rf /opt/strata-py && mkdir -p /opt/strata-py && tar -xJf "$DIR/python.tar.xz" -C /opt/strata-py || return 1
    # libOpenGL and the GLX dispatch come with gpu-window.sh's X stack (/opt/x), the driver's
    # libraries from /usr/local/nvidia/lib64.
    local x=/opt/x/usr/lib/x86_64-linux-gnu:/opt/x/lib/x86_64-linux-gnu:/usr/local/nvidia/lib64
    export PYTHONPATH=/opt/strata-py/python:/opt/strata-py/peers LD_LIBRARY_PATH=/opt/strata-py/lib:$x:${LD_LIBRARY_PATH:-}
    export QT_PLUGIN_PATH=${QT_PLUGIN_PATH:-/opt/strata-py/plugins} STRATA_REQUIRE_GPU=1
    export STRATA_TEST_DATA=$ROOT/tests/data STRATA_PY_REFERENCE=/opt/strata-py/reference.npz
    "$PY" -c 'import sys, strata; print(sys.version.split()[0], "strata on", strata.compute_device(), "-", strata.compute_reason())'
    display
}

# Every skip in a unittest -v log, with its reason; non-zero when one is not allowed (its reason
# does not match PYTHON_ALLOWED_SKIPS). Under STRATA_REQUIRE_GPU a skip is a test not run.
skipsAllowed() {
    local log=$1 allowed=${PYTHON_ALLOWED_SKIPS-needs a second GPU} line bad=0
    while IFS= read -r line; do
        if [[ -n $allowed ]] && grep -qE -- "$allowed" <<<"$line"; then
            echo "skipped (allowed): $line"
        else
            echo "skipped: $line"
            bad=1
        fi
    done < <(grep -E " \.\.\. skipped " "$log")
    return $bad
}

run() {
    unpack || return 1
    local log=/tmp/strata-py-test_gpu.log
    (cd "$ROOT/tests/python" && "$PY" -m unittest -v test_gpu) 2>&1 | tee "$log"
    local rc=${PIPESTATUS[0]}
    skipsAllowed "$log" || rc=1
    # Issue 20's cross-check: tensorstore reads the committed v3 fixtures, and Strata reads onto
    # the GPU what tensorstore writes.
    echo "== tensorstore cross-check of the Zarr v3 fixtures"
    "$PY" "$ROOT/tests/zarr/cross_check_tensorstore.py" "$ROOT/tests/data/zarr_v3" python /tmp/strata-xcheck || rc=1
    return $rc
}

bench() {
    unpack || return 1
    local out=${OUT:-/tmp/strata-py-bench} f layout
    mkdir -p "$out"
    echo "peers installed: $("$PY" -c 'import importlib.util as u; print(*[m for m in ("netCDF4", "h5netcdf", "h5py", "matplotlib", "cupy_xarray") if u.find_spec(m)])')" | tee "$out/peers.txt"
    "$PY" "$ROOT/bench/python_bench.py" show --reps "${BENCH_REPS:-3}" 2>&1 | tee "$out/show.jsonl"
    for layout in ${INGEST_LAYOUTS:-contiguous zlib1}; do
        f=/tmp/strata-ingest-$layout.nc
        [[ -s $f ]] || LD_LIBRARY_PATH=/opt/strata-py/lib:$LD_LIBRARY_PATH \
            /opt/strata-py/bin/bench_gpu --make-file "$f" --time "${INGEST_STEPS:-500}" --layout "$layout"
        cat "$f" >/dev/null # from the page cache, as the ingest benchmark's figures are
        "$PY" "$ROOT/bench/python_bench.py" open "$f" --reps "${BENCH_REPS:-3}" 2>&1 | tee -a "$out/open.jsonl"
        # xarray's netcdf4 engine, in Debian's Python carried by gpu-peers.sh (none here has netCDF4)
        if [[ -x $PEERS/python3.11 ]]; then
            "$PEERS/python3.11" "$ROOT/bench/python_bench.py" open "$f" --peer-only --device cpu \
                --reps "${BENCH_REPS:-3}" 2>&1 | sed 's/^{/{"python": "Debian 3.11", /' | tee -a "$out/open.jsonl"
        fi
    done
}

# Sourced (scripts/gpu-dask.sh), it only defines its functions and settings.
[[ ${BASH_SOURCE[0]} != "$0" ]] && return 0
case $cmd in
pack) pack ;;
run) run ;;
bench) bench ;;
*) echo "usage: $0 pack|run|bench" >&2; exit 2 ;;
esac
