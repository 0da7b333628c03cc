#!/usr/bin/env bash
# Installs the Debian packages Strata builds and tests with, if any is missing. Idempotent:
# when everything is there it does nothing (and needs no network).
#   scripts/setup.sh           what `make` needs
#   scripts/setup.sh --bench   and what the window's benchmarks beside ncview need
#                              (bench/app/run_startup_bench.sh calls it)
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  qt6-base-dev libqt6opengl6-dev qt6-base-dev-tools
  libvtk9-dev libnetcdf-dev netcdf-bin libhdf5-dev libdeflate-dev libproj-dev
  libgl-dev libegl-dev libfontconfig-dev fonts-dejavu-core
  xvfb xauth
  python3-xarray python3-netcdf4 python3-dask python3-distributed
  nlohmann-json3-dev libblosc-dev libzstd-dev liblz4-dev python3-zarr python3-numcodecs
  libcurl4-openssl-dev
  python3-dev pybind11-dev python3-numpy python3-ipython
  clang-14 libclang-rt-14-dev
  libshp-dev python-cartopy-data gmt-gshhg-low gmt-gshhg-high gmt-gshhg-full
  libudunits2-dev python3-contourpy
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev
  libeccodes-dev
)
# The peer (ncview) with the fonts its buttons are laid out in where the peers' driver clicks
# them (its lucida; without them they sit 50 px higher and every click misses), XTest from
# Python, GNU time's peak RSS, xdpyinfo, the movie benchmark's peer (ffmpeg encoding PNGs) and
# the HEALPix one's (healpy):
# only for the benchmarks, not pulled into every build.
if [ "${1:-}" = "--bench" ]; then
  packages+=(ncview xfonts-base xfonts-75dpi xfonts-100dpi python3-xlib time x11-utils libx11-dev ffmpeg
    python3-healpy)
fi

packages+=(python3-attr python3-click python3-cffi python3-pandas)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
updated=""
if [ "${#missing[@]}" -ne 0 ]; then
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -q
  updated=1
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The GRIB tests' oracle (cfgrib, with ecCodes' Python bindings) is unpacked, not installed:
# Debian's python3-eccodes depends on python3-ecmwflibs, whose chain (libmagics++-dev, libodc-dev,
# libeckit-dev) ends in libcurl4-gnutls-dev, which conflicts with libcurl4-openssl-dev above;
# installing it would remove the Zarr reader's libcurl. Its Python files need nothing of that chain
# (they find libeccodes0 through findlibs), so they are unpacked under
# ~/.cache/strata/grib-oracle, where tests/io/grib_oracle.py's callers look.
grib_oracle="${XDG_CACHE_HOME:-$HOME/.cache}/strata/grib-oracle"
if [ ! -d "$grib_oracle/usr/lib/python3/dist-packages/cfgrib" ]; then
  tmp="$(mktemp -d)"
  fetch() {
    (cd "$tmp" && apt-get download -q python3-eccodes python3-cfgrib python3-findlibs &&
      mkdir -p "$grib_oracle" && for d in ./*.deb; do dpkg -x "$d" "$grib_oracle"; done)
  }
  # A fresh machine may have no package lists yet: fetched again after an update.
  fetch || { [ -z "$updated" ] && $SUDO apt-get update -q && fetch; } ||
    echo "setup: the GRIB oracle (cfgrib) could not be fetched; the GRIB oracle test will skip"
  rm -rf "$tmp"
fi
