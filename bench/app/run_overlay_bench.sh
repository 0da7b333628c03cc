#!/bin/bash
# The window's step latency with overlays (issue 33): key → frame presented, stepping through
# time back to back, with no overlay, with isolines (--contours auto), with filled contours and
# with arrows, each in a fresh window on the same file. The path is the one the build takes
# here (the CPU without a GPU). Writes JSON under $RES and prints the medians.
#
#   apt-get install -y xvfb python3-xlib python3-netcdf4 time
#   bash bench/app/run_overlay_bench.sh    # env: BUILD=build RES=$T/overlaybench STEPS=100
set -euo pipefail
T=$(dirname "$(mktemp -u)")
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
RES=${RES:-$T/overlaybench}
STEPS=${STEPS:-100}
PY=/usr/bin/python3
mkdir -p "$RES"
F="$RES/waves.nc"
[ -f "$F" ] || $PY "$HERE/make_overlay_file.py" "$F" $((STEPS + 20))

. "$HERE/xvfb.sh"
private_xvfb 2560x1600x24
D=$XVFB_DISPLAY P=$XVFB_PID
trap 'kill $P 2>/dev/null || true' EXIT
export DISPLAY=:$D

run() { # name, then the window's options
    local name=$1
    shift
    $PY "$HERE/run_app_bench.py" "$F" --strata "$BUILD/app/strata" --strata-opts "--var zg $*" --reps 1 \
        --series b2b --steps "$STEPS" --out "$RES/$name.json" | tail -1 >"$RES/$name.txt"
}
for round in 1 2; do # alternated, so that a slow moment of the machine does not fall on one
    run "plain$round"
    run "contours$round" --contours auto
    run "filled$round" --filled
    run "arrows$round" --vectors arrows
done
$PY - "$RES" <<'PYEOF'
import json, sys, os
res = sys.argv[1]
print(f"{'overlay':<10} {'round':>5} {'key->present median ms':>24} {'p90 ms':>8} {'n':>4}")
for name in ("plain", "contours", "filled", "arrows"):
    for r in (1, 2):
        p = os.path.join(res, f"{name}{r}.json")
        if not os.path.exists(p):
            continue
        s = json.load(open(p))["summary"].get("b2b")
        if s:
            print(f"{name:<10} {r:>5} {s['median_ms']:>24.2f} {s['p90_ms']:>8.2f} {s['n']:>4}")
PYEOF
