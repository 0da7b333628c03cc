#!/usr/bin/env bash
# Installs the Debian packages Strata builds and tests with, if any is missing. Idempotent:
# when everything is there it does nothing (and needs no network).
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  qt6-base-dev libqt6opengl6-dev qt6-base-dev-tools
  libvtk9-dev libnetcdf-dev netcdf-bin libhdf5-dev libdeflate-dev libproj-dev
  libgl-dev libegl-dev libfontconfig-dev fonts-dejavu-core
  xvfb xauth
  python3-xarray python3-netcdf4 python3-dask
  nlohmann-json3-dev libblosc-dev libzstd-dev liblz4-dev python3-zarr python3-numcodecs
  libcurl4-openssl-dev
  python3-dev pybind11-dev python3-numpy python3-ipython
  clang-14 libclang-rt-14-dev
  libshp-dev python-cartopy-data gmt-gshhg-low gmt-gshhg-high gmt-gshhg-full
  libudunits2-dev python3-contourpy
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
