#!/usr/bin/env bash
# Runs on the GPU machine, in the repository root of the copied working tree, with
# gpu-bundle/ (from scripts/gpu-check.sh) carried along: unpacks it, then runs the stages
# named (default: all) and writes logs and JSON under $OUT.
#   tests     every test executable: tests/core's and tst_device_failures (their cuda rows run here)
#             (STRATA_REQUIRE_GPU=1: a cuda row that would skip fails)
#   sanitize  the cuda rows of every test under compute-sanitizer memcheck, racecheck,
#             initcheck and synccheck (STRATA_TEST_SMALL=1: the small shapes)
#   bench     bench_gpu (JSON), and the netCDF file upload through Variable::load
#   peer      shared-copy/peer_xarray.py (xarray on CuPy) in the same run
#   residency bench_residency on a 1.5 GB file (from the file, resident, streamed) and on a
#             ~40 GB one (resident; RESIDENCY_BIG_STEPS time steps, 0 to skip), JSON lines
#   zarr      bench_zarr against bench/peer_zarr.py on a 1.5 GB blosc-lz4 store written here by
#             zarr-python (Debian's Python 3.11 from scripts/gpu-peers.sh in PEERS_DIR, else
#             tensorstore); the peers run in both Pythons: zarr-python and xarray + dask in 3.11,
#             tensorstore and the host→device copy with CuPy in the machine's own
#   derived   bench_derived (derived frames against stored ones, the whole-record anomaly, moving
#             the base period) on a ~10 GB resident record (DERIVED_STEPS daily maps), and
#             bench/peer_derived.py with CuPy on the same shapes
#   contour   bench_contour (a 1440 x 721 frame at 20 levels on the device, and a step shown with
#             and without its contours), then bench/peer_contour.py (contourpy) where it imports
#   flow      bench_flow (a 1440 x 721 vector pair as the image view draws it: arrow samples,
#             evenly spaced streamlines, particle steps)
#   ingest    bench_ingest and bench/peer_ingest.py on 2.08 GB files (INGEST_STEPS maps) written
#             here: netCDF-4 contiguous, netCDF-4 deflate 1 + shuffle in map chunks, netCDF-3
# Prints a summary last; returns non-zero when a test or a sanitizer failed.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUNDLE=${BUNDLE_DIR:-$ROOT/gpu-bundle}
OUT=${OUT:-/tmp/strata-out}
WORK=${WORK_DIR:-/tmp/strata-gpu}
stages=${*:-tests sanitize bench peer}
mkdir -p "$OUT" "$WORK" "$WORK/logs"
LOGS=$WORK/logs
SUMMARY=$OUT/summary.txt
: >"$SUMMARY"
say() { echo "$*" | tee -a "$SUMMARY"; }
status=0

tar -xJf "$BUNDLE/payload.tar.xz" -C "$WORK"
LIBS=$WORK/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# Our executables find the bundled libraries; python3 and the tools keep their own.
ours() { LD_LIBRARY_PATH=$LIBS "$@"; }
export QT_QPA_PLATFORM=offscreen
export UDUNITS2_XML_PATH=$WORK/share/udunits/udunits2.xml
nvidia-smi >"$LOGS/nvidia-smi.txt" 2>&1
say "card: $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>/dev/null)"
say "date: $(date -u +%FT%TZ)  host: $(uname -r)"

tests=$(ls "$WORK"/bin/tst_* 2>/dev/null)
# tst_zarr_load's store, written by zarr-python where gpu-check.sh ran (none here).
[[ -d $BUNDLE/zarr-load ]] && export STRATA_ZARR_LOAD_DIR=$BUNDLE/zarr-load
PEERS=${PEERS_DIR:-/opt/py311}

# The test functions of an executable that have a "cuda" row, as func:cuda arguments.
cudaRows() { ours "$1" -datatags 2>/dev/null | awk '$NF == "cuda" {print $2 ":cuda"}'; }

for stage in $stages; do
    case $stage in
    tests)
        for t in $tests; do
            n=$(basename "$t")
            start=$SECONDS
            timeout 300 env STRATA_REQUIRE_GPU=1 LD_LIBRARY_PATH="$LIBS" "$t" >"$LOGS/$n.log" 2>&1
            rc=$?
            secs=$((SECONDS - start))
            totals=$(grep -E '^Totals:' "$LOGS/$n.log" | tail -1)
            say "test $n rc=$rc ${secs}s $totals"
            [[ $rc -ne 0 ]] && status=1
        done
        ;;
    sanitize)
        # A time budget for the whole stage (SANITIZE_BUDGET seconds): runs that would start
        # after it are reported as not run.
        budget=${SANITIZE_BUDGET:-400}
        t0=$SECONDS
        checked=$tests # SANITIZE_TESTS (names) and SANITIZE_TOOLS narrow it
        [[ -n ${SANITIZE_TESTS:-} ]] && checked=$(for n in $SANITIZE_TESTS; do echo "$WORK/bin/$n"; done)
        for tool in ${SANITIZE_TOOLS:-memcheck racecheck initcheck synccheck}; do
            for t in $checked; do
                n=$(basename "$t")
                rows=$(cudaRows "$t")
                [[ -z $rows ]] && continue
                left=$((budget - (SECONDS - t0)))
                if ((left < 10)); then
                    say "sanitize $tool $n: not run (time budget of ${budget}s spent)"
                    continue
                fi
                ((left > 150)) && left=150
                STRATA_TEST_SMALL=1 LD_LIBRARY_PATH="$LIBS" timeout "$left" compute-sanitizer --tool "$tool" --error-exitcode 97 \
                    "$t" $rows >"$LOGS/$n.$tool.log" 2>&1
                rc=$?
                summary=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY' "$LOGS/$n.$tool.log" | tr '\n' ' ')
                totals=$(grep -E '^Totals:' "$LOGS/$n.$tool.log" | tail -1)
                say "sanitize $tool $n rc=$rc $summary| $totals"
                [[ $rc -ne 0 ]] && status=1
            done
        done
        ;;
    bench)
        ours "$WORK/bin/bench_gpu" --json "$OUT/bench.json" 2>&1 | tee "$LOGS/bench.log"
        file=${BENCH_FILE:-/tmp/strata-bench.nc}
        ours "$WORK/bin/bench_gpu" --make-file "$file" --time 500 2>&1 | tee "$LOGS/upload.log"
        sync
        echo 3 >/proc/sys/vm/drop_caches 2>/dev/null && echo "(page cache dropped)" | tee -a "$LOGS/upload.log"
        ours "$WORK/bin/bench_gpu" --file "$file" --json "$OUT/upload.json" 2>&1 | tee -a "$LOGS/upload.log"
        rm -f "$file"
        ;;
    derived)
        steps=${DERIVED_STEPS:-2400}
        ours "$WORK/bin/bench_derived" --nt "$steps" --reps 11 2>&1 | tee "$LOGS/derived.log"
        PYTHONUNBUFFERED=1 timeout 300 python3 "$ROOT/bench/peer_derived.py" --nt "$steps" --reps 3 --cupy 2>&1 |
            tee -a "$LOGS/derived.log"
        cp "$LOGS/derived.log" "$OUT/derived.log"
        ;;
    contour)
        ours "$WORK/bin/bench_contour" 2>&1 | tee "$LOGS/contour.log"
        timeout 120 python3 "$ROOT/bench/peer_contour.py" 2>&1 | tee -a "$LOGS/contour.log"
        cp "$LOGS/contour.log" "$OUT/contour.log"
        ;;
    flow)
        ours "$WORK/bin/bench_flow" 2>&1 | tee "$LOGS/flow.log"
        cp "$LOGS/flow.log" "$OUT/flow.log"
        ;;
    residency)
        small=/tmp/strata-res-small.nc big=/tmp/strata-res-big.nc
        ours "$WORK/bin/bench_gpu" --make-file "$small" --time 365 2>&1 | tee -a "$LOGS/residency.log"
        for mode in file resident stream; do
            ours "$WORK/bin/bench_residency" "$small" --mode $mode --steps 20 2>>"$LOGS/residency.log" | tee -a "$OUT/residency.jsonl"
        done
        rm -f "$small"
        nbig=${RESIDENCY_BIG_STEPS:-9640}
        if ((nbig > 0)); then
            ours "$WORK/bin/bench_gpu" --make-file "$big" --time "$nbig" 2>&1 | tee -a "$LOGS/residency.log"
            ours "$WORK/bin/bench_residency" "$big" --mode resident --steps 20 2>>"$LOGS/residency.log" | tee -a "$OUT/residency.jsonl"
            rm -f "$big"
        fi
        ;;
    zarr)
        store=/tmp/strata-z.zarr
        writer=python3
        [[ -x $PEERS/python3.11 ]] && writer=$PEERS/python3.11
        [[ -d $store ]] || $writer "$ROOT/bench/make_zarr_store.py" "$store" 2>&1 | tee -a "$LOGS/zarr.log"
        du -sb "$store" | tee -a "$LOGS/zarr.log"
        cat "$store"/data/* >/dev/null # from the page cache, as the figures here are
        ours "$WORK/bin/bench_zarr" "$store" --var data --reps "${ZARR_REPS:-3}" 2>>"$LOGS/zarr.log" | tee -a "$OUT/zarr.jsonl"
        if [[ -x $PEERS/python3.11 ]]; then
            $PEERS/python3.11 "$ROOT/bench/peer_zarr.py" "$store" --var data --reps "${ZARR_REPS:-3}" 2>>"$LOGS/zarr.log" |
                sed 's/^{/{"python": "Debian 3.11", /' | tee -a "$OUT/zarr.jsonl"
        fi
        PYTHONUNBUFFERED=1 python3 "$ROOT/bench/peer_zarr.py" "$store" --var data --reps "${ZARR_REPS:-3}" 2>>"$LOGS/zarr.log" |
            sed 's/^{/{"python": "3.12 (the machine'"'"'s)", /' | tee -a "$OUT/zarr.jsonl"
        ;;
    ingest)
        for layout in ${INGEST_LAYOUTS:-contiguous zlib1 nc3}; do
            f=/tmp/strata-ingest-$layout.nc
            ours "$WORK/bin/bench_gpu" --make-file "$f" --time "${INGEST_STEPS:-500}" --layout "$layout" 2>&1 |
                tee -a "$LOGS/ingest.log"
            ls -l "$f" | tee -a "$LOGS/ingest.log"
            cat "$f" >/dev/null # from the page cache, as the issue's figures are
            ours "$WORK/bin/bench_ingest" "$f" --reps "${INGEST_REPS:-3}" 2>>"$LOGS/ingest.log" | tee -a "$OUT/ingest.jsonl"
            PYTHONUNBUFFERED=1 python3 "$ROOT/bench/peer_ingest.py" "$f" --reps "${INGEST_REPS:-3}" 2>>"$LOGS/ingest.log" |
                tee -a "$OUT/ingest-peer.jsonl"
            rm -f "$f"
        done
        ;;
    peer)
        PYTHONUNBUFFERED=1 python3 "$BUNDLE/shared-copy/peer_xarray.py" --cpu-time "${PEER_CPU_TIME:-20}" \
            --json "$OUT/peer.json" 2>&1 | tee "$LOGS/peer.log"
        ;;
    *) say "unknown stage $stage" ;;
    esac
done

tar -C "$WORK" -czf "$OUT/logs.tgz" logs
echo "----- summary -----"
cat "$SUMMARY"
[[ -f $LOGS/bench.log ]] && grep -E 'GB/s|bytes' "$LOGS/bench.log"
[[ -f $LOGS/upload.log ]] && grep -E 'GB|wrote' "$LOGS/upload.log"
[[ -f $LOGS/peer.log ]] && grep -E 'cupy' "$LOGS/peer.log"
exit $status
