#!/usr/bin/env bash
# The Python peers the benchmarks name, for the GPU machine, whose Python (3.12, with CuPy,
# xarray and tensorstore) has neither zarr-python nor netCDF4: Debian's own Python 3.11 with its
# xarray, dask, zarr, numcodecs and netCDF4 packages, and the libraries they load.
#   scripts/gpu-peers.sh pack     here: gpu-peers/py311.tar.xz (gitignored; ~30 MB, carried alone)
#   scripts/gpu-peers.sh unpack   there: into /opt/py311 (PEERS_DIR), with /opt/py311/python3.11,
#                                 a launcher that runs Debian's interpreter on those files
# That interpreter has no CuPy: a peer run there reads to NumPy, and the benchmark adds the
# host→device copy, measured with CuPy in the machine's own Python, where it says so.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${PEERS_PACK_DIR:-$ROOT/gpu-peers}
DEST=${PEERS_DIR:-/opt/py311}
cmd=${1:-pack}

pack() {
    local stage site=/usr/lib/python3/dist-packages
    stage=$(mktemp -d)
    mkdir -p "$DIR" "$stage/bin" "$stage/lib" "$stage/site"
    cp /usr/bin/python3.11 "$stage/bin/"
    # The standard library without what a benchmark never imports.
    tar -C /usr/lib -cf - --exclude='python3.11/test' --exclude='python3.11/idlelib' \
        --exclude='python3.11/tkinter' --exclude='python3.11/lib2to3' --exclude='python3.11/ensurepip' \
        --exclude='python3.11/turtledemo' --exclude='python3.11/pydoc_data' --exclude='__pycache__' \
        --exclude='python3.11/config-*' python3.11 | tar -C "$stage/lib" -xf -
    # Every package of Debian's that the peers import, found by importing them (and reading a
    # Zarr store and a netCDF file through xarray's engines and dask) in Debian's Python.
    local pkgs
    pkgs=$(/usr/bin/python3 - <<'PY'
import sys, tempfile, os
import numpy as np, xarray as xr, zarr, numcodecs, netCDF4, dask.array, tlz
import numcodecs.blosc, numcodecs.zstd, numcodecs.lz4
d = tempfile.mkdtemp()
xr.Dataset({"v": (("t", "x"), np.zeros((4, 3), "f4"))}).to_zarr(d + "/s.zarr")
xr.Dataset({"v": (("t", "x"), np.zeros((4, 3), "f4"))}).to_netcdf(d + "/s.nc")
xr.open_zarr(d + "/s.zarr")["v"].values
xr.open_dataset(d + "/s.nc", engine="netcdf4")["v"].values
top = set()
for m in list(sys.modules.values()):
    f = getattr(m, "__file__", None) or ""
    if "/dist-packages/" in f:
        top.add(f.split("/dist-packages/")[1].split("/")[0])
print(" ".join(sorted(top)))
PY
)
    echo "packages: $pkgs"
    for p in $pkgs; do
        tar -C "$site" -cf - --exclude='__pycache__' --exclude='tests' "$p" | tar -C "$stage/site" -xf -
    done
    # Their metadata (versions, xarray's entry points)
    (cd "$site" && tar -cf - ./*.dist-info ./*.egg-info) | tar -C "$stage/site" -xf -
    # numpy's and netCDF4's bundled libraries live beside them in Debian (numpy.libs does not exist)
    local skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libresolv\.so|libstdc\+\+|libgcc_s|libz\.so|libcrypto|libssl|libexpat)'
    find "$stage" -name '*.so*' -type f -o -name python3.11 -type f | while read -r e; do
        ldd "$e" 2>/dev/null | awk '/=> \// {print $1, $3}' | while read -r name path; do
            [[ $name =~ $skip ]] || cp -L -n "$path" "$stage/lib/$name"
        done
    done
    strip --strip-unneeded "$stage"/lib/*.so* 2>/dev/null || true
    # Check here that the peers import from the staged files alone.
    env -i PYTHONHOME="$stage" PYTHONPATH="$stage/site" LD_LIBRARY_PATH="$stage/lib" PYTHONNOUSERSITE=1 \
        "$stage/bin/python3.11" -S -c 'import xarray, zarr, numcodecs.blosc, numcodecs.zstd, numcodecs.lz4, netCDF4, dask.array
print("staged peers import:", xarray.__version__, zarr.__version__, netCDF4.__version__, sorted(xarray.backends.list_engines()))'
    find "$stage" -name __pycache__ -prune -exec rm -rf {} +
    tar -C "$stage" -cf - . | xz -T0 -6 >"$DIR/py311.tar.xz"
    rm -rf "$stage"
    ls -l "$DIR/py311.tar.xz"
}

unpack() {
    mkdir -p "$DEST"
    tar -xJf "$DIR/py311.tar.xz" -C "$DEST"
    cat >"$DEST/python3.11" <<EOF
#!/bin/sh
# Debian's Python 3.11 with the peers' packages (scripts/gpu-peers.sh)
PYTHONHOME=$DEST PYTHONPATH=$DEST/site PYTHONNOUSERSITE=1 LD_LIBRARY_PATH=$DEST/lib exec $DEST/bin/python3.11 -S "\$@"
EOF
    chmod +x "$DEST/python3.11"
    "$DEST/python3.11" -c 'import xarray, zarr, netCDF4; print("peers:", xarray.__version__, zarr.__version__, netCDF4.__version__)'
}

case $cmd in
pack) pack ;;
unpack) unpack ;;
*) echo "usage: $0 pack|unpack" >&2; exit 2 ;;
esac
