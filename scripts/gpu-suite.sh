#!/usr/bin/env bash
# The whole GPU suite, one command on a machine with a GPU and its GL driver:
#   1. the core and io tests (scripts/gpu-run.sh tests, from gpu-bundle/: scripts/gpu-check.sh);
#   2. the window on the GPU's GL under Xvfb, its GL tests and the app tests with device frames
#      (scripts/gpu-window.sh run: the X stack in /opt/x, the app from gpu-window/ or /opt/app).
# Every test runs with STRATA_REQUIRE_GPU=1, so that a row needing the device fails where it
# would skip. Prints each executable's totals, its cuda rows apart, and the sums; exits non-zero
# when a test failed, skipped or did not finish. Each skip is printed with its reason; those
# whose reason matches SUITE_ALLOWED_SKIPS (a grep -E pattern; default: none) are allowed, the
# others fail the suite. (zarr-python, absent on the team's GPU machine, is no longer a skip:
# tst_frameservice reads the store gpu-check.sh wrote, named by STRATA_ZARR_LOAD_DIR.)
#
# On the GPU machine of the team, whose transfers are smaller than the three parts together:
#   here:  scripts/gpu-check.sh; scripts/gpu-window.sh pack-x; scripts/gpu-window.sh pack-app
#   there: scripts/gpu-window.sh unpack-x     (carrying gpu-window-x/)
#          scripts/gpu-window.sh unpack-app   (carrying gpu-window/)
#          scripts/gpu-suite.sh               (carrying gpu-bundle/)
# WINDOW_* variables pass to gpu-window.sh (WINDOW_SANITIZE=0 leaves out the window's memcheck).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-/tmp/strata-suite}
ALLOWED=${SUITE_ALLOWED_SKIPS:-}
mkdir -p "$OUT/core" "$OUT/window"
WORK=${WORK_DIR:-/tmp/strata-gpu}

OUT=$OUT/core WORK_DIR=$WORK bash "$ROOT/scripts/gpu-run.sh" tests >"$OUT/core/run.log" 2>&1
coreRc=$?
OUT=$OUT/window bash "$ROOT/scripts/gpu-window.sh" run >"$OUT/window/run.log" 2>&1
windowRc=$?

# One line per test executable: its Qt Test totals, and how its cuda rows ended.
report() {
    local log=$1 name
    name=$(basename "$log" .log)
    awk -v name="$name" '
        /^PASS   : .*\(cuda\)$/ { cp++ } /^FAIL!  : .*\(cuda\)/ { cf++ } /^SKIP   : .*\(cuda\)/ { cs++ }
        /^Totals:/ { p += $2; f += $4; s += $6; done = 1 } # one per presentation for some
        END {
            if (!done) { printf "%-24s did not finish\n", name; exit 1 }
            printf "%-24s %4d passed %3d failed %3d skipped | cuda rows: %3d passed %d failed %d skipped\n",
                   name, p, f, s, cp, cf, cs
        }' "$log"
}
{
    echo "card: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
    echo "core and io tests (gpu-run.sh tests, rc=$coreRc):"
    for log in "$WORK"/logs/tst_*.log; do [[ $log == *.*.log ]] || report "$log"; done
    echo "window and its tests (gpu-window.sh run, rc=$windowRc):"
    for log in "$OUT"/window/w/tst_*.log; do [[ -f $log ]] && report "$log"; done
    grep -E "renderer string|strata-path|window quit|window under memcheck" "$OUT/window/run.log" | sort | uniq -c
    # An executable that ended with another status than 0 (a crash at exit after its totals).
    grep -hE "^test tst_[a-z_]+ rc=[1-9]" "$OUT/core/summary.txt" "$OUT/window/run.log" | sed 's/^/exit status: /'
    # Every skip, with the reason its test gave (the line after it).
    for log in "$WORK"/logs/tst_*.log "$OUT"/window/w/tst_*.log; do
        [[ -f $log && $log != *.*.log ]] || continue
        grep -A1 -E "^SKIP   :" "$log" | grep -vE "^--$" | paste - - |
            awk -v name="$(basename "$log" .log)" -v allowed="$ALLOWED" \
                '{ print (allowed != "" && $0 ~ allowed ? "skipped (allowed): " : "skipped: ") name ": " $0 }'

    done
} | tee "$OUT/suite.txt"
sums=$(grep -E " passed .* failed .* skipped" "$OUT/suite.txt" |
    awk '{p += $2; f += $4; s += $6; cp += $11; cf += $13; cs += $15}
         END {printf "%d passed %d failed %d skipped; cuda rows %d passed %d failed %d skipped", p, f, s, cp, cf, cs}')
unfinished=$(grep -c "did not finish" "$OUT/suite.txt")
echo "all: $sums; $unfinished did not finish" | tee -a "$OUT/suite.txt"
[[ $unfinished == 0 ]] && ! grep -qE " [1-9][0-9]* failed|^exit status|^skipped: " "$OUT/suite.txt"
