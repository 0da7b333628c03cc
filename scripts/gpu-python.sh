#!/usr/bin/env bash
# The Python module on the GPU machine (Python 3.12 with CuPy there; no Qt or netCDF).
#   scripts/gpu-python.sh pack   here: the package from BUILD (build/python: the extension for
#                                3.11 and 3.12, the .py files, the entry point's metadata,
#                                libstrata_vtkviews.so) and every library it loads but the base
#                                system's and the GPU driver's, into gpu-python/python.tar.xz
#   scripts/gpu-python.sh run    there: unpack into /opt/strata-py, then run tests/python/test_gpu.py
#                                with STRATA_REQUIRE_GPU=1 (a GPU row fails where it would skip);
#                                the window's test runs when DISPLAY is set (gpu-window.sh's Xvfb)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${PYTHON_DIR:-$ROOT/gpu-python}
BUILD=${BUILD_DIR:-$ROOT/build}
PY=${PYTHON:-python3}
cmd=${1:-run}

pack() {
    local stage
    stage=$(mktemp -d)
    mkdir -p "$DIR" "$stage/lib"
    cp -r "$BUILD/python" "$stage/python"
    find "$stage/python" -name __pycache__ -prune -exec rm -rf {} +
    cp "$BUILD/app/libstrata_vtkviews.so" "$stage/python/strata/" 2>/dev/null
    local skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libresolv\.so|libcuda\.so|libnvidia|libstdc\+\+|libgcc_s|libz\.so|libGL\.so|libGLX\.so|libGLdispatch|libEGL\.so|libOpenGL\.so|libpython)'
    for e in "$stage"/python/strata/*.so; do
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
    strip --strip-unneeded "$stage"/lib/* "$stage"/python/strata/*.so 2>/dev/null || true
    tar -C "$stage" -cf - . | xz -T0 -3 >"$DIR/python.tar.xz"
    rm -rf "$stage"
    ls -l "$DIR/python.tar.xz"
}

run() {
    rm -rf /opt/strata-py && mkdir -p /opt/strata-py && tar -xJf "$DIR/python.tar.xz" -C /opt/strata-py || return 1
    # libOpenGL and the GLX dispatch come with gpu-window.sh's X stack (/opt/x), the driver's
    # libraries from /usr/local/nvidia/lib64.
    local x=/opt/x/usr/lib/x86_64-linux-gnu:/opt/x/lib/x86_64-linux-gnu:/usr/local/nvidia/lib64
    export PYTHONPATH=/opt/strata-py/python LD_LIBRARY_PATH=/opt/strata-py/lib:$x:${LD_LIBRARY_PATH:-}
    export QT_PLUGIN_PATH=${QT_PLUGIN_PATH:-/opt/strata-py/plugins} STRATA_REQUIRE_GPU=1
    export STRATA_TEST_DATA=$ROOT/tests/data STRATA_PY_REFERENCE=/opt/strata-py/reference.npz
    "$PY" -c 'import sys, strata; print(sys.version.split()[0], "strata on", strata.compute_device(), "-", strata.compute_reason())'
    (cd "$ROOT/tests/python" && "$PY" -m unittest -v test_gpu)
}

case $cmd in
pack) pack ;;
run) run ;;
*) echo "usage: $0 pack|run" >&2; exit 2 ;;
esac
