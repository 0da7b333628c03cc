#!/usr/bin/env bash
# Reproduces bench/RESULTS.md's CPU section: the peer (xarray + NumPy, Debian's python3) and
# Strata's CPU backend on the same float32 60 x 721 x 1440 array, in one shell session, then
# a side-by-side markdown table with the ratios and the targets.
# Usage: scripts/bench-cpu.sh [build dir, default build-cpu] [time steps, default 60]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build-cpu}"
nt="${2:-60}"
peer="${PEER:-/work/shared/bench/peer_xarray.py}"
py="${PYTHON:-/usr/bin/python3}"
out="$(mktemp -d)"

if [ ! -x "$build/bench/bench_cpu" ]; then
    cmake -S "$root" -B "$build" -DSTRATA_CUDA=OFF -DSTRATA_GUI=OFF >/dev/null
    cmake --build "$build" -j2 --target bench_cpu >/dev/null
fi

echo "date: $(date -u +%Y-%m-%d)  machine: $(lscpu | grep 'Model name' | sed 's/.*: *//') ($(nproc) cores)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$py" "$peer" --time "$nt" --cpu-time "$nt" --json "$out/peer.json" 2>&1 | grep -v '^no cupy' || true
"$build/bench/bench_cpu" --time "$nt" --json "$out/strata.json"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

"$py" - "$out/peer.json" "$out/strata.json" <<'EOF'
import json, sys
peer = {r["op"]: r for r in json.load(open(sys.argv[1]))["rows"] if r["backend"] == "xarray+numpy"}
ours = {r["op"]: r for r in json.load(open(sys.argv[2]))["rows"]}
# target: GB/s for the reductions, ms for the frame
targets = {"mean('time') skipna": ("GBps", 12), "max('time') skipna": ("GBps", 12),
           "std('time') skipna": ("GBps", 12), "mean('lon') skipna (zonal mean)": ("GBps", 12),
           "weighted(cos lat).mean(lat,lon)": ("GBps", 12), "frame -> minmax -> RGBA colormap": ("ms", 2)}
print()
print("| operation | xarray+NumPy ms | GB/s | Strata CPU ms | GB/s | speed-up | target | met |")
print("| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |")
for op, o in ours.items():
    p = peer.get(op)
    pm = f"{p['ms']:.3f}" if p else "—"
    pg = f"{p['GBps']:.1f}" if p else "—"
    ratio = f"{p['ms'] / o['ms']:.1f}×" if p else "—"
    t = targets.get(op)
    if t is None:
        tt, met = "—", "—"
    elif t[0] == "GBps":
        tt, met = f"≥ {t[1]} GB/s", "yes" if o["GBps"] >= t[1] else f"no ({o['GBps'] / t[1]:.0%})"
    else:
        tt, met = f"≤ {t[1]} ms", "yes" if o["ms"] <= t[1] else f"no ({o['ms'] / t[1]:.1f}× over)"
    print(f"| `{op}` | {pm} | {pg} | {o['ms']:.3f} | {o['GBps']:.1f} | {ratio} | {tt} | {met} |")
EOF
rm -rf "$out"
