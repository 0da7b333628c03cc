#!/bin/bash
# Movies (issue 36), Strata beside its peer, in one command. The file is the peers'
# 365 x 721 x 1440 float32 air_contig.nc (the shared gen_testdata.py writes it when missing);
# the view is its map at the command line's size (1024 x 768).
#   strata  strata FILE --export-movie out.mp4 --animate time --fps 30    (365 frames)
#           strata FILE --export-movie out.gif --animate time --frames 0:120:1
#   peer    the same frames written as PNGs by Strata (strata.export_view, one Python process),
#           then encoded by ffmpeg -i %04d.png: MP4 with the same libx264 settings (veryfast,
#           crf 18, yuv420p, +faststart); GIF through ffmpeg's palettegen and paletteuse (one
#           palette for the movie, as Strata's).
# REPS rounds, Strata and the peer by turns, under one private Xvfb; prints the medians.
#
#   cmake --build build -j2 --target strata strata_python
#   bash bench/app/run_movie_bench.sh     # env: BUILD=build DATA=$T/peerdata REPS=3 RES=$T/moviebench
# Installs what it needs that is missing (scripts/setup.sh --bench: ffmpeg, time).
# On the GPU machine, STRATA=/opt/app/bin/strata and NO_PEER=1 time Strata alone.
set -euo pipefail
T=$(dirname "$(mktemp -u)")
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PEERS=${PEERS:-$ROOT/../shared/bench/peers}
BUILD=${BUILD:-$ROOT/build}
STRATA=${STRATA:-$BUILD/app/strata}
DATA=${DATA:-$T/peerdata}
RES=${RES:-$T/moviebench}
REPS=${REPS:-3}
NO_PEER=${NO_PEER:-0}
PY=${PY:-/usr/bin/python3}
FILE=${FILE:-$DATA/air_contig.nc}

[[ $NO_PEER == 1 ]] || "$ROOT/scripts/setup.sh" --bench # ffmpeg
[ -x "$STRATA" ] || { echo "no $STRATA: build the target strata first" >&2; exit 1; }
[ -f "$FILE" ] || $PY "$PEERS/gen_testdata.py" "$DATA"
rm -rf "$RES" && mkdir -p "$RES"

if [ -z "${DISPLAY:-}" ]; then
    exec 3< <(Xvfb -displayfd 1 -screen 0 1920x1200x24 -nolisten tcp 2>/dev/null)
    read -r -t 30 D <&3
    export DISPLAY=:$D
    XVFB=$!
    trap 'kill $XVFB 2>/dev/null || true' EXIT
fi

# Seconds (wall) of a command, its output to $RES/$1.log; the whole run stops if it fails.
timed() {
    local name=$1 t0 t1
    shift
    t0=$(date +%s.%N)
    "$@" >"$RES/$name.log" 2>&1 || {
        echo "failed: $* (see $RES/$name.log)" >&2
        tail -5 "$RES/$name.log" >&2
        kill $$
    }
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{printf "%.2f", $2 - $1}'
}

# The peer's first half: N PNGs of the steps 0..N-1, by Strata, in one process.
cat >"$RES/pngs.py" <<PYEOF
import strata, sys
n, out = int(sys.argv[1]), sys.argv[2]
for i in range(n):
    strata.export_view("$FILE", f"{out}/{i:04d}.png", isel={"time": i}, size=(1024, 768))
PYEOF

echo "round what seconds" >"$RES/times.txt"
for r in $(seq "$REPS"); do
    rm -f "$RES"/*.mp4 "$RES"/*.gif
    echo "$r strata_mp4 $(timed strata_mp4 "$STRATA" "$FILE" --export-movie "$RES/s.mp4" --animate time --fps 30)" >>"$RES/times.txt"
    echo "$r strata_gif $(timed strata_gif "$STRATA" "$FILE" --export-movie "$RES/s.gif" --animate time --frames 0:120:1 --fps 10)" >>"$RES/times.txt"
    if [[ $NO_PEER != 1 ]]; then
        rm -rf "$RES/png" && mkdir -p "$RES/png"
        echo "$r peer_png365 $(timed peer_png env PYTHONPATH="$BUILD/python" $PY "$RES/pngs.py" 365 "$RES/png")" >>"$RES/times.txt"
        echo "$r peer_mp4 $(timed peer_mp4 ffmpeg -y -loglevel error -framerate 30 -i "$RES/png/%04d.png" -c:v libx264 \
            -preset veryfast -crf 18 -pix_fmt yuv420p -movflags +faststart "$RES/p.mp4")" >>"$RES/times.txt"
        echo "$r peer_gif $(timed peer_gif ffmpeg -y -loglevel error -framerate 10 -i "$RES/png/%04d.png" -frames:v 120 \
            -vf "split[a][b];[a]palettegen[p];[b][p]paletteuse" "$RES/p.gif")" >>"$RES/times.txt"
    fi
    tail -n +2 "$RES/times.txt" | awk -v r="$r" '$1 == r {printf "%s %s s  ", $2, $3} END {print ""}'
done
grep -h "strata: wrote" "$RES"/strata_*.log

$PY - "$RES/times.txt" <<'EOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]).read().splitlines()[1:]]
t = {}
for _, what, s in rows:
    t.setdefault(what, []).append(float(s))
m = {k: statistics.median(v) for k, v in t.items()}
print(f"medians of {len(t['strata_mp4'])} rounds")
print("| movie | Strata | peer: PNGs by Strata + ffmpeg | ratio | ffmpeg's encoding alone | ratio |")
print("|---|---|---|---|---|---|")
if "peer_png365" in m:
    png120 = m["peer_png365"] * 120 / 365  # the first 120 PNGs of the 365, pro rata
    peer_mp4, peer_gif = m["peer_png365"] + m["peer_mp4"], png120 + m["peer_gif"]
    print(f"| 365 frames, MP4 | {m['strata_mp4']:.2f} s | {peer_mp4:.2f} s ({m['peer_png365']:.2f} + {m['peer_mp4']:.2f}) "
          f"| {m['strata_mp4'] / peer_mp4:.2f}x | {m['peer_mp4']:.2f} s | {m['strata_mp4'] / m['peer_mp4']:.2f}x |")
    print(f"| 120 frames, GIF | {m['strata_gif']:.2f} s | {peer_gif:.2f} s ({png120:.2f} + {m['peer_gif']:.2f}) "
          f"| {m['strata_gif'] / peer_gif:.2f}x | {m['peer_gif']:.2f} s | {m['strata_gif'] / m['peer_gif']:.2f}x |")
else:
    print(f"| 365 frames, MP4 | {m['strata_mp4']:.2f} s | - | - |")
    print(f"| 120 frames, GIF | {m['strata_gif']:.2f} s | - | - |")
EOF
