#!/bin/bash
# The desktop window's benchmark, side by side with ncview on the peers' files (issue 5):
# time to first frame, step latency at full size (1440 x 721), peak memory; then the
# per-step breakdown of paint_probe. Writes JSON and text under $RES and prints the tables.
#
#   apt-get install -y ncview x11-utils xdotool python3-xlib imagemagick time xvfb
#   cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTRATA_CUDA=OFF
#   nice cmake --build build-bench -j2 --target strata paint_probe
#   bash bench/app/run_app_bench.sh        # env: BUILD=build-bench DATA=$T/peerdata
#                                          #      RES=$T/appbench/results REPS=7 STEPS=200
# Nothing is written outside the temporary folder. Do not install Debian's paraview here: it
# removes libvtk9-dev.
set -euo pipefail
T=$(dirname "$(mktemp -u)")
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
export PEERS=${PEERS:-$ROOT/../shared/bench/peers} # bench/app/run_ncview.py reads it too
BUILD=${BUILD:-$ROOT/build-bench}
DATA=${DATA:-$T/peerdata}
RES=${RES:-$T/appbench/results}
REPS=${REPS:-7}
STEPS=${STEPS:-200}
FILES=${FILES:-"air_contig air_zlib1 air_nc3_64bit"}
NCVIEW=${NCVIEW:-1}
PY=/usr/bin/python3 # Debian's python (netCDF4, numpy, Xlib), not pyenv

mkdir -p "$RES" "$T/peerbin" "$T/peerwork" "$T/peerhome"
[ -f "$DATA/air_nc3_64bit.nc" ] || $PY "$PEERS/gen_testdata.py" "$DATA"

# Private X servers: one for Strata (2560x1600: the window is 2240x1150), one for ncview as
# the peers ran its 1:1 zoom (1920x1280). -displayfd picks free numbers.
. "$HERE/xvfb.sh"
private_xvfb 2560x1600x24
D1=$XVFB_DISPLAY P1=$XVFB_PID
trap 'kill $P1 ${P2:-} 2>/dev/null || true' EXIT

{
    echo "date: $(date -u +%F)"
    uname -r
    nproc
    grep -m1 "model name" /proc/cpuinfo
    free -g | head -2
    dpkg-query -W xvfb libgl1-mesa-dri qt6-base-dev libvtk9-dev libnetcdf19 ncview 2>/dev/null
    cat /sys/kernel/mm/transparent_hugepage/enabled
    git -C "$ROOT" log -1 --format='strata %h %s'
} >"$RES/versions.txt" 2>&1 || true

for f in $FILES; do
    F="$DATA/$f.nc"
    cat "$F" >/dev/null # page cache warm, as the peers
    echo "== $f: strata (load $(cut -d' ' -f1-3 /proc/loadavg))"
    DISPLAY=":$D1" $PY "$HERE/run_app_bench.py" "$F" --strata "$BUILD/app/strata" \
        --reps "$REPS" --steps "$STEPS" --out "$RES/strata_$f.json"
done

if [ "$NCVIEW" = 1 ] && command -v ncview >/dev/null; then
    gcc -O2 -shared -fPIC -o "$T/peerbin/xputimage_shim.so" "$PEERS/xputimage_shim.c" -ldl -lX11
    private_xvfb 1920x1280x24
    D2=$XVFB_DISPLAY P2=$XVFB_PID
    for f in $FILES; do
        cat "$DATA/$f.nc" >/dev/null
        echo "== $f: ncview 1:1 (load $(cut -d' ' -f1-3 /proc/loadavg))"
        DISPLAY=":$D2" HOME="$T/peerhome" $PY "$HERE/run_ncview.py" "$DATA/$f.nc" --reps 5 --steps 60 \
            --out "$RES/ncview11_$f.json" --ncview-opts="-maxsize 100 -xrm Ncview*blowupDefaultSize:1440"
    done
fi

for f in $FILES; do # where a step goes: the image view alone (painted; through GL), the scene in a GL window, bare
    {
        DISPLAY=":$D1" "$BUILD/bench/app/paint_probe" "$DATA/$f.nc" --steps 100
        DISPLAY=":$D1" "$BUILD/bench/app/paint_probe" "$DATA/$f.nc" --steps 100 --gl
        DISPLAY=":$D1" "$BUILD/bench/app/paint_probe" "$DATA/$f.nc" --steps 100 --scene-window
    } >"$RES/probe_$f.txt" 2>/dev/null
done
{
    DISPLAY=":$D1" "$BUILD/bench/app/paint_probe" "$DATA/air_contig.nc" --steps 100 --bare --size 2240x1150
    DISPLAY=":$D1" "$BUILD/bench/app/paint_probe" "$DATA/air_contig.nc" --steps 100 --bare
    DISPLAY=":$D1" "$BUILD/bench/app/paint_probe" "$DATA/air_contig.nc" --steps 100 --bare-window --size 2240x1150
} >"$RES/probe_bare.txt" 2>/dev/null
$PY "$HERE/summarize.py" "$RES"
