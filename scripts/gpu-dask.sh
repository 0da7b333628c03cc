#!/usr/bin/env bash
# Dask arrays of CuPy chunks shown by Strata on the GPU machine (issue 38): Python 3.12 with CuPy
# and NumPy 2 there, but no Dask and no network.
#   scripts/gpu-dask.sh pack   here: the Python door as scripts/gpu-python.sh packs it (from
#                              BUILD_DIR, a CUDA build with the extension for 3.12), and Dask's
#                              pure-Python packages from Debian 12 (/usr/lib/python3/dist-packages:
#                              dask, toolz, tlz, cloudpickle, partd, fsspec, locket, packaging and
#                              yaml without its C part) into gpu-bundle/dask/ (gitignored): carry
#                              that folder to the GPU machine.
#   scripts/gpu-dask.sh run    there: unpack both (gpu-python.sh's unpack, then Dask into
#                              /opt/strata-dask), then tests/python/test_gpu_dask.py with
#                              STRATA_REQUIRE_GPU=1: a step's frame and reductions of a CuPy-chunked
#                              Dask array on the device with zero bytes across PCIe, equal to CuPy's,
#                              and a step's time against Dask's own compute (a JSON line). Any skip
#                              fails the run.
# distributed cannot travel (psutil, msgpack and tornado have C parts built for 3.11), so the
# GPU run uses Dask's local threaded scheduler: what strata.show does with no client current.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export PYTHON_DIR=${PYTHON_DIR:-$ROOT/gpu-bundle/dask}
DASK_PACKAGES="dask toolz tlz cloudpickle partd fsspec locket packaging yaml"
SITE=${DEBIAN_SITE:-/usr/lib/python3/dist-packages}
# gpu-python.sh's functions (pack, unpack, skipsAllowed) and settings, not its command.
source "$ROOT/scripts/gpu-python.sh"

packDask() {
    local stage p
    stage=$(mktemp -d)
    mkdir -p "$stage/site"
    for p in $DASK_PACKAGES; do
        [[ -d $SITE/$p ]] || { echo "no $SITE/$p (Debian: python3-dask and its dependencies)" >&2; return 1; }
        cp -r "$SITE/$p" "$stage/site/"
    done
    # Only pure Python travels: C parts are built for this Python (3.11), not the GPU machine's.
    find "$stage/site" \( -name '*.so' -o -name __pycache__ -o -name tests \) -prune -exec rm -rf {} +
    rm -rf "$stage/site/dask/dataframe" "$stage/site/dask/bag" # arrays only: less to carry
    local v
    v=$(/usr/bin/python3 -c 'import dask; print(dask.__version__)')
    echo "dask $v from $SITE" >"$stage/site/STRATA_DASK_FROM"
    # The pure part imports without NumPy on another Python where one is here (pyenv's 3.12).
    local other
    other=$(ls /root/.pyenv/versions/3.12*/bin/python3.12 2>/dev/null | head -1)
    if [[ -n $other ]]; then
        PYTHONPATH=$stage/site "$other" -c 'import dask, toolz, tlz, cloudpickle, packaging, yaml, dask.config; print("dask", dask.__version__, "imports on", __import__("sys").version.split()[0])' ||
            { echo "the packed Dask does not import on $other" >&2; return 1; }
    fi
    mkdir -p "$PYTHON_DIR"
    tar -C "$stage/site" -cf - . | xz -T0 -6 >"$PYTHON_DIR/dask-py.tar.xz"
    rm -rf "$stage"
    ls -l "$PYTHON_DIR/dask-py.tar.xz"
}

runDask() {
    unpack || return 1 # gpu-python.sh's: PYTHONPATH, LD_LIBRARY_PATH, STRATA_REQUIRE_GPU=1
    rm -rf /opt/strata-dask && mkdir -p /opt/strata-dask &&
        tar -xJf "$PYTHON_DIR/dask-py.tar.xz" -C /opt/strata-dask || return 1
    export PYTHONPATH=$PYTHONPATH:/opt/strata-dask
    "$PY" -c 'import numpy, cupy; print("numpy", numpy.__version__, "cupy", cupy.__version__)'
    local log=/tmp/strata-py-test_gpu_dask.log
    (cd "$ROOT/tests/python" && "$PY" -m unittest -v test_gpu_dask) 2>&1 | tee "$log"
    local rc=${PIPESTATUS[0]}
    PYTHON_ALLOWED_SKIPS='' skipsAllowed "$log" || rc=1
    return $rc
}

case ${1:-run} in
pack) pack && packDask ;;
pack-dask) packDask ;; # Dask alone, the Python door packed already
run) runDask ;;
*) echo "usage: $0 pack|pack-dask|run" >&2; exit 2 ;;
esac
