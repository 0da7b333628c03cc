#!/bin/bash
# Time to the first frame, Strata beside ncview, on the peers' three 365 x 721 x 1440 float32
# files (issue 35), in one command: writes the files if they are missing (the shared
# gen_testdata.py), then REPS rounds; in each, for each file, one fresh Strata (run_app_bench.py,
# with its startup trace) and one fresh ncview at 1:1 (the shared run_ncview.py), by turns.
# Then, unless STEPS=0, the steps: on each file one Strata and one ncview (1:1) take STEPS steps
# each, the next one 50 ms after the last frame (Strata's "peer" series: the Right key; ncview's
# ">" button, found by bench/app/run_ncview.py), by turns.
# Prints the side-by-side tables and Strata's milestones (startup_table.py); JSON under $RES.
#
#   cmake --build build -j2 --target strata
#   bash bench/app/run_startup_bench.sh    # env: BUILD=build DATA=$T/peerdata REPS=5 STEPS=60
#                                          #      RES=$T/startupbench FILES="air_contig ..."
# Installs what it needs that is missing (scripts/setup.sh --bench: ncview, python3-xlib, time).
# Writes only under the temporary folder: 1.5 GB a file, 3.8 GB for the three.
set -euo pipefail
T=$(dirname "$(mktemp -u)")
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
export PEERS=${PEERS:-$ROOT/../shared/bench/peers} # bench/app/run_ncview.py reads it too
BUILD=${BUILD:-$ROOT/build}
DATA=${DATA:-$T/peerdata}
RES=${RES:-$T/startupbench}
REPS=${REPS:-5}
STEPS=${STEPS:-60}
FILES=${FILES:-"air_contig air_zlib1 air_nc3_64bit"}
PY=/usr/bin/python3 # Debian's python (netCDF4, numpy, Xlib), not pyenv

"$ROOT/scripts/setup.sh" --bench
[ -x "$BUILD/app/strata" ] || { echo "no $BUILD/app/strata: build the target strata first" >&2; exit 1; }
[ -f "$PEERS/run_ncview.py" ] || { echo "no peer driver at $PEERS (set PEERS)" >&2; exit 1; }
for f in $FILES; do
    [ -f "$DATA/$f.nc" ] || { $PY "$PEERS/gen_testdata.py" "$DATA" && break; }
done
rm -rf "$RES"
mkdir -p "$RES" "$T/peerbin" "$T/peerwork" "$T/peerhome"
gcc -O2 -shared -fPIC -o "$T/peerbin/xputimage_shim.so" "$PEERS/xputimage_shim.c" -ldl -lX11

# Private X servers, as run_app_bench.sh: Strata's window at its default size; ncview at 1:1
# (a 1440 x 721 image) on the screen the peers used. -displayfd picks free numbers.
. "$HERE/xvfb.sh"
private_xvfb 2560x1600x24
D1=$XVFB_DISPLAY P1=$XVFB_PID
private_xvfb 1920x1280x24
D2=$XVFB_DISPLAY P2=$XVFB_PID
trap 'kill $P1 $P2 2>/dev/null || true' EXIT

{
    echo "date: $(date -u '+%F %H:%MZ')"
    uname -r
    echo "cores: $(nproc)"
    grep -m1 "model name" /proc/cpuinfo
    free -g | head -2
    dpkg-query -W xvfb qt6-base-dev libnetcdf19 libhdf5-103-1 ncview 2>/dev/null
    git -C "$ROOT" log -1 --format='strata %h %s'
} >"$RES/versions.txt" 2>&1 || true

for r in $(seq 1 "$REPS"); do
    for f in $FILES; do
        F="$DATA/$f.nc"
        cat "$F" >/dev/null # page cache warm, as the peers
        echo "== round $r, $f (load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$RES/load.txt"
        DISPLAY=":$D1" $PY "$HERE/run_app_bench.py" "$F" --strata "$BUILD/app/strata" --reps 1 --series "" \
            --out "$RES/strata_${f}_$r.json" | grep "^rep"
        DISPLAY=":$D2" HOME="$T/peerhome" $PY "$HERE/run_ncview.py" "$F" --reps 1 --steps 0 \
            --out "$RES/ncview_${f}_$r.json" --ncview-opts="-maxsize 100 -xrm Ncview*blowupDefaultSize:1440"
    done
done
if [ "$STEPS" -gt 0 ]; then
    for f in $FILES; do
        F="$DATA/$f.nc"
        echo "== steps, $f (load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$RES/load.txt"
        DISPLAY=":$D1" $PY "$HERE/run_app_bench.py" "$F" --strata "$BUILD/app/strata" --reps 1 --series peer \
            --steps "$STEPS" --out "$RES/steps_strata_${f}.json" | grep "^rep"
        DISPLAY=":$D2" HOME="$T/peerhome" $PY "$HERE/run_ncview.py" "$F" --reps 1 --steps "$STEPS" \
            --out "$RES/steps_ncview_${f}.json" --ncview-opts="-maxsize 100 -xrm Ncview*blowupDefaultSize:1440"
    done
fi
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$RES/load.txt"
$PY "$HERE/startup_table.py" "$RES"
