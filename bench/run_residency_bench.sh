#!/usr/bin/env bash
# The residency benchmark on the CPU path of this machine, before and after side by side:
# bench_residency in its three modes on each file, and the command line's mean over time
# exported as CSV by an older strata binary and by this one (time and peak RSS, page cache warm).
#
#   bench/run_residency_bench.sh BUILD OLD_STRATA OUT.jsonl FILE...
set -euo pipefail
build=$1 old=$2 out=$3
shift 3
: > "$out"
export STRATA_CPU=1
for f in "$@"; do
  cat "$f" > /dev/null # the page cache holds it, as for a file opened a second time
  for mode in file resident stream; do
    steps=20
    [ "$mode" = file ] && steps=5
    "$build/bench/bench_residency" "$f" --mode $mode --steps $steps --cpu >> "$out"
  done
  for which in old new; do
    bin=$build/app/strata
    [ "$which" = old ] && bin=$old
    for rep in 1 2 3; do
      csv=$(mktemp --suffix .csv)
      /usr/bin/time -f '%e %M' -o /tmp/cli_time.txt "$bin" "$f" --var air --x lon --y lat --reduce time=mean \
        --export-csv "$csv" 2> /dev/null
      read -r secs kb < /tmp/cli_time.txt
      printf '{"file": "%s", "mode": "cli-mean-csv", "binary": "%s", "rep": %d, "seconds": %s, "peak_rss_mb": %d}\n' \
        "$f" "$which" "$rep" "$secs" $((kb / 1024)) >> "$out"
      rm -f "$csv"
    done
  done
done
