#!/usr/bin/env bash
# The desktop window on the GPU machine, which has the GPU and its GL driver but no X server,
# Qt, VTK or netCDF. Two parts travel there, each within one transfer:
#   gpu-window-x/x.tar.xz  Debian's Xvfb with Mesa (only so that the virtual server offers GLX;
#                          the window's context is NVIDIA's, through glvnd) and python3-xlib
#   gpu-window/app.tar.xz  strata, the GUI test executables, every library they need (Qt with
#                          its xcb platform plugin, VTK, netCDF, HDF5, cudart), and DejaVu fonts
#
#   scripts/gpu-window.sh pack-x      here: download and pack the X stack (apt-get download)
#   scripts/gpu-window.sh pack-app    here: pack the app from BUILD (default build/, CUDA + GUI)
#   scripts/gpu-window.sh unpack-x    there: unpack x.tar.xz into /opt/x (kept while the machine is)
#   scripts/gpu-window.sh unpack-app  there: unpack app.tar.xz into /opt/app, for a later run
#                                     that carries something else (scripts/gpu-suite.sh)
#   scripts/gpu-window.sh split       here: cut both archives into gpu-parts/{x1,x2,a1,a2}/part,
#                                     for when the tree and one archive pass a transfer's
#                                     64 MiB (the X stack is 53 MB): one transfer a part
#   scripts/gpu-window.sh gather P    there: keep part P (x1, x2, a1 or a2, carried in this
#                                     transfer) in /opt/parts; with both halves, unpack them
#                                     into /opt/x or /opt/app (then `run` takes the app there)
#   scripts/gpu-window.sh run         there: unpack the app, start Xvfb, check the GL renderer
#                                     the window gets and the path its status bar names, run the
#                                     GUI tests, the window under compute-sanitizer, and the
#                                     window benchmark (XTest); logs and JSON under $OUT
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${WINDOW_DIR:-$ROOT/gpu-window}      # the app's part (one transfer)
XDIR=${WINDOW_X_DIR:-$ROOT/gpu-window-x} # the X stack's part (another)
BUILD=${BUILD_DIR:-$ROOT/build}
OUT=${OUT:-/tmp/strata-window-out}
cmd=${1:-run}

packX() {
    local debs=/tmp/strata-xdebs stage
    stage=$(mktemp -d)
    mkdir -p "$debs" "$XDIR"
    local pkgs="xvfb mesa-utils libgl1-mesa-dri libglx-mesa0 x11-xkb-utils xkb-data libegl1 libglvnd0 libopengl0 libgl1 libglx0 python3-xlib"
    # The closure, less what every Debian or Ubuntu system has (the C and C++ runtimes, Python).
    local base='^(libc6|libgcc-s1|libstdc\+\+6|zlib1g|debconf|dpkg|perl-base|python3|python3-minimal|python3\.11.*|libpython3.*|tzdata|media-types|readline-common|libreadline8|libncursesw6|libtinfo6|libsqlite3-0|libssl3|libffi8|libmpdec3|libbz2-1\.0|liblzma5|libuuid1|libcrypt1|libdb5\.3|libgdbm6|libgdbm-compat4|libexpat1|libnsl2|libtirpc3|libtirpc-common|libkrb5-3|libk5crypto3|libcom-err2|libkrb5support0|libkeyutils1|libgssapi-krb5-2|netbase|libselinux1|libpcre2-8-0|libzstd1|libsystemd0|libcap2|libgcrypt20|libgpg-error0|liblz4-1|libudev1|libmd0|libbsd0)$'
    local deps
    deps=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
        --no-enhances --no-pre-depends $pkgs | grep -E '^\w' | sort -u | grep -v -E "$base")
    (cd "$debs" && apt-get download $deps >/dev/null)
    for d in "$debs"/*.deb; do dpkg -x "$d" "$stage"; done
    # Only libicuuc and libicudata are needed (libxml2, for Mesa's LLVM); no Perl, no docs.
    rm -rf "$stage"/usr/share/{doc,man,locale,lintian,bug,info,perl*} "$stage"/usr/share/X11/locale \
        "$stage"/usr/lib/x86_64-linux-gnu/{perl*,libperl*} "$stage"/usr/lib/x86_64-linux-gnu/libicu{i18n,io,test,tu}.* \
        "$stage"/usr/bin/perl*
    tar -C "$stage" -cf - . | xz -T2 -6 >"$XDIR/x.tar.xz"
    rm -rf "$stage"
    ls -l "$XDIR/x.tar.xz"
}

packApp() {
    local stage exes=()
    stage=$(mktemp -d)
    mkdir -p "$stage/bin" "$stage/lib" "$stage/plugins/platforms" "$stage/plugins/xcbglintegrations" "$stage/fonts" "$DIR"
    exes+=("$BUILD/app/strata" "$BUILD/app/libstrata_vtkviews.so") # a module, loaded on first use
    # The movie module (loaded on first use too) brings FFmpeg's codecs, 60 MB: WINDOW_NO_MOVIE=1
    # leaves it out where no movie is made (a time-to-first-frame run).
    [[ ${WINDOW_NO_MOVIE:-0} == 1 ]] || exes+=("$BUILD/app/libstrata_movie.so")
    # The tests that draw device frames through the window's GL (each holds the CUDA kernels:
    # ~30 MB apiece, so only these travel); the benchmarks of the map and Zarr paths on the
    # device; tst_exportbytes (its cuda rows export from the device: STRATA_APP_BINARY),
    # tst_mainwindow, tst_mapwindow and tst_frameservice (frames computed and kept on the
    # device). The whole list packed to 84 MB before tst_mapwindow (about 7 MB more, xz'd on
    # its own), over one transfer's 64 MiB: WINDOW_EXES names a part of it (paths under BUILD),
    # e.g. "tests/render/tst_imageview tests/app/tst_exportbytes".
    local all="tests/render/tst_imageview tests/render/tst_imagecurvilinear tests/render/tst_imageprojection
        tests/render/tst_projection tests/render/tst_reprojection tests/render/tst_frametexture bench/bench_reproject bench/bench_zarr
        tests/app/tst_exportbytes tests/app/tst_mainwindow tests/app/tst_mapwindow tests/app/tst_frameservice tests/app/tst_frameresidency tests/app/tst_frameisolines"
    for t in ${WINDOW_EXES:-$all}; do exes+=("$BUILD/$t"); done
    local qtp=/usr/lib/x86_64-linux-gnu/qt6/plugins
    cp "$qtp/platforms/libqxcb.so" "$stage/plugins/platforms/"
    # The GSHHS shorelines (Debian's python-cartopy-data, 2 MB): the coastline tests need them.
    mkdir -p "$stage/coast" && cp -r /usr/share/cartopy/data/shapefiles/gshhs/. "$stage/coast/"
    # GSHHG's binned crude, low and intermediate levels (gmt-gshhg-low, 3 MB), which the
    # coastline tests and baselines draw when they are there.
    mkdir -p "$stage/gshhg" && cp /usr/share/gmt-gshhg/binned_GSHHS_[cli].nc "$stage/gshhg/"
    # udunits2's unit database (display units): the GPU machine has none.
    mkdir -p "$stage/share" && cp -r /usr/share/xml/udunits "$stage/share/udunits"
    cp "$qtp/xcbglintegrations/libqxcb-glx-integration.so" "$stage/plugins/xcbglintegrations/"
    cp /usr/share/fonts/truetype/dejavu/DejaVuSans*.ttf "$stage/fonts/" 2>/dev/null
    # Debian's fontconfig rules (hinting, antialiasing, aliases), so that text is drawn there
    # as it is here: the tests that count a label's ink compare Qt's text with VTK's.
    mkdir -p "$stage/fontconfig/conf.d" && cp -L /etc/fonts/conf.d/*.conf "$stage/fontconfig/conf.d/"
    for e in "${exes[@]}"; do [[ -x $e ]] && cp "$e" "$stage/bin/" || echo "left out: $e"; done
    # Every library they load but the base system's, the GPU driver's, and the GL dispatch
    # libraries and X client libraries the X stack brings.
    local skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libresolv\.so|libcuda\.so|libnvidia|libstdc\+\+|libgcc_s|libz\.so|libGL\.so|libGLX\.so|libGLdispatch|libEGL\.so|libOpenGL\.so)'
    local xlibs=/tmp/strata-xstack-libs.txt # what the X stack brings (pack-x first)
    tar -tJf "$XDIR/x.tar.xz" | sed -n 's|.*/||p' | sort -u >"$xlibs"
    for e in "$stage"/bin/* "$stage"/plugins/*/*.so; do
        ldd "$e" | awk '/=> \// {print $1, $3}' | while read -r name path; do
            [[ $name =~ $skip ]] || grep -qxF "$name" "$xlibs" || cp -L -n "$path" "$stage/lib/$name"
        done
    done
    strip --strip-unneeded "$stage"/bin/* "$stage"/lib/* 2>/dev/null || true
    tar -C "$stage" -cf - . | xz -T2 -6 >"$DIR/app.tar.xz"
    rm -rf "$stage"
    ls -l "$DIR/app.tar.xz"
}

# The app unpacked ahead, in a transfer of its own (the GPU suite then carries the core tests'
# bundle with the run): kept in /opt/app while the machine is.
unpackApp() {
    rm -rf /opt/app && mkdir -p /opt/app && tar -xJf "$DIR/app.tar.xz" -C /opt/app &&
        echo "app in /opt/app: $(ls /opt/app/bin | tr '\n' ' ')"
}

unpackX() {
    mkdir -p /opt/x && tar -xJf "$XDIR/x.tar.xz" -C /opt/x && echo "X stack in /opt/x: $(du -sh /opt/x | cut -f1)"
}

# One test executable, its functions logged as they start (-v1), so that a hang names its
# function; one still running after WINDOW_TEST_S seconds has its threads' kernel waits and
# stacks written to the log before it is stopped.
runTest() {
    local t=$1 log pid waited=0
    log="$OUT/$(basename "$t").log"
    STRATA_REQUIRE_GPU=1 STRATA_EXPECT_INTEROP=1 STRATA_APP_BINARY=/opt/app/bin/strata STRATA_TEST_OUTPUT="$OUT/images" \
        LD_LIBRARY_PATH=$APP "$t" -v1 >"$log" 2>&1 &
    pid=$!
    while kill -0 $pid 2>/dev/null && ((waited < ${WINDOW_TEST_S:-120})); do sleep 1; ((waited++)); done
    if kill -0 $pid 2>/dev/null; then
        { echo "== still running after ${waited} s: threads"
          for task in /proc/$pid/task/*; do
              echo "-- $(cat $task/comm) wchan=$(cat $task/wchan 2>/dev/null)"
              cat $task/stack 2>/dev/null | head -8
          done; } >>"$log"
        kill -ABRT $pid; sleep 2; kill -KILL $pid 2>/dev/null
    fi
    wait $pid
    echo "test $(basename "$t") rc=$? $(grep -E '^Totals' "$log" | tail -1)"
    grep -E "^(FAIL|QWARN.*(timeout|Timed))|still running" "$log" | head -5
    grep -A14 "strata-crash" "$log" | head -16
}

# Everything under $OUT goes into one archive (a device call brings back only a few files):
# logs over 2 MB keep their first 0.5 and last 1.5 MB.
packOut() {
    local f
    for f in $(find "$OUT" -name '*.log' -size +2M); do
        { head -c 500000 "$f"; echo; echo "[... cut ...]"; tail -c 1500000 "$f"; } >"$f.cut" && mv "$f.cut" "$f"
    done
    tar -C "$OUT" -czf "$OUT_FINAL/window-out.tgz" . && ls -l "$OUT_FINAL/window-out.tgz"
}

run() {
    OUT_FINAL=$OUT
    OUT=$OUT_FINAL/w
    mkdir -p "$OUT" /opt/app
    [[ -d /opt/x/usr ]] || { echo "no X stack in /opt/x: run unpack-x first (its own transfer)"; return 1; }
    if [[ -f $DIR/app.tar.xz ]]; then
        tar -xJf "$DIR/app.tar.xz" -C /opt/app
    elif [[ ! -x /opt/app/bin/strata ]]; then
        echo "no app: carry gpu-window/ (pack-app), or unpack-app it in an earlier transfer"; return 1
    fi
    local L=/opt/x/usr/lib/x86_64-linux-gnu
    ln -sfn $L/dri /usr/lib/x86_64-linux-gnu/dri # Xvfb looks for swrast_dri.so only there
    ln -sf /opt/x/usr/bin/xkbcomp /usr/bin/xkbcomp
    local XLIBS=$L:/opt/x/lib/x86_64-linux-gnu:/usr/local/nvidia/lib64
    pkill -f "Xvfb :5" && sleep 1 # one left by an earlier run on a machine kept warm
    LD_LIBRARY_PATH=$XLIBS /opt/x/usr/bin/Xvfb :5 -screen 0 2560x1440x24 -nolisten tcp \
        -xkbdir /opt/x/usr/share/X11/xkb -fp built-ins >"$OUT/xvfb.log" 2>&1 &
    local xvfb=$!
    sleep 2
    export DISPLAY=:5 __GLX_VENDOR_LIBRARY_NAME=nvidia QT_QPA_PLATFORM=xcb
    export QT_PLUGIN_PATH=/opt/app/plugins QT_QPA_FONTDIR=/opt/app/fonts
    export STRATA_VTKVIEWS=/opt/app/bin/libstrata_vtkviews.so # for the tests, which lie elsewhere
    export STRATA_COASTLINES_DIR=/opt/app/coast # the shorelines that travelled
    export STRATA_GSHHG_DIR=/opt/app/gshhg
    export UDUNITS2_XML_PATH=/opt/app/share/udunits/udunits2.xml
    # tst_frameservice's Zarr store, written by zarr-python where gpu-check.sh ran (that machine
    # has no zarr-python): gpu-suite.sh carries gpu-bundle/. Without it the test fails.
    local zarrLoad=${BUNDLE_DIR:-$ROOT/gpu-bundle}/zarr-load
    [[ -d $zarrLoad ]] && export STRATA_ZARR_LOAD_DIR=$zarrLoad
    # Only the fonts that travelled, with Debian's rules: that machine's own fonts differ.
    mkdir -p /tmp/strata-fc
    cat >/opt/app/fontconfig/fonts.conf <<'CONF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>/opt/app/fonts</dir>
  <cachedir>/tmp/strata-fc</cachedir>
  <include ignore_missing="yes">/opt/app/fontconfig/conf.d</include>
</fontconfig>
CONF
    export FONTCONFIG_FILE=/opt/app/fontconfig/fonts.conf
    # Ours first, then the X stack's GL dispatch and client libraries, then the driver's.
    APP=/opt/app/lib:$XLIBS
    LD_LIBRARY_PATH=$XLIBS /opt/x/usr/bin/glxinfo -B >"$OUT/glxinfo.txt" 2>&1
    grep -E "renderer|vendor string|version string" "$OUT/glxinfo.txt"

    # The window on a file written here, traced: the path its status bar names and the
    # renderer of the window's own context, then every frame with the bytes copied to the host.
    local f=${WINDOW_FILE:-$ROOT/resources/sample/tas_rectilinear_grid_2D.nc}
    [[ ${WINDOW_RUN:-1} == 1 ]] && STRATA_TRACE_FRAMES=1 LD_LIBRARY_PATH=$APP timeout 15 /opt/app/bin/strata "$f" >"$OUT/window.log" 2>&1
    echo "window rc=$? (124: closed by the timeout, as meant)"
    grep -E "strata-path" "$OUT/window.log" | sort | uniq -c
    grep -c "strata-frame" "$OUT/window.log" | sed 's/^/frames: /'
    grep -E "strata-frame" "$OUT/window.log" | tail -2

    # The window closes by itself (as a user's Quit): it must end with status 0, not crash in
    # its teardown on the GPU's GL driver.
    STRATA_QUIT_AFTER_MS=6000 LD_LIBRARY_PATH=$APP timeout 60 /opt/app/bin/strata "$f" >"$OUT/window-quit.log" 2>&1
    echo "window quit by itself rc=$? (0: a clean exit)"

    [[ ${WINDOW_TESTS:-1} == 1 ]] && for t in /opt/app/bin/tst_*; do runTest "$t"; done
    if [[ ${WINDOW_DPR_CHECK:-0} == 1 ]]; then # the sample at a device-pixel ratio of 2, and resized
        for spec in "QT_SCALE_FACTOR=2 2500x1300 -dpr2" "QT_SCALE_FACTOR=1 1700x1000 -resized"; do
            set -- $spec
            PYTHONPATH=/opt/x/usr/lib/python3/dist-packages LD_LIBRARY_PATH=$APP python3 "$ROOT/bench/app/compare_paths.py" \
                "$f" --strata "${WINDOW_STRATA:-/opt/app/bin/strata}" --env "$1" --size "$2" --cells 192x96 --name="$3" \
                --out "$OUT/compare" >"$OUT/compare-paths$3.log" 2>&1
            echo "compare paths $spec rc=$?"
            grep -E '"(differing|differing_on_cell_edges|worst_channel_difference|same|pixels|width|height)"|strata-path' \
                "$OUT/compare-paths$3.log" | tr -s ' \n' ' '; echo
        done
    fi
    if [[ ${WINDOW_SPLIT_IMAGEVIEW:-0} == 1 ]]; then # one function at a time: which one leaves the crash
        for fn in reportsThePath drawsWhatExportDraws survivesContextLoss switchesBetweenPaintAndGl; do
            STRATA_TEST_OUTPUT="$OUT/images" LD_LIBRARY_PATH=$APP timeout 40 /opt/app/bin/tst_imageview $fn \
                >"$OUT/tst_imageview-$fn.log" 2>&1
            echo "tst_imageview $fn rc=$? $(grep -E '^Totals' "$OUT/tst_imageview-$fn.log" | tr '\n' ' ')"
            grep -A12 "strata-crash" "$OUT/tst_imageview-$fn.log" | head -14
        done
    fi

    if [[ ${WINDOW_SANITIZE:-1} == 1 ]]; then
        STRATA_QUIT_AFTER_MS=20000 STRATA_TRACE_FRAMES=1 LD_LIBRARY_PATH=$APP timeout 100 compute-sanitizer --tool memcheck \
            --error-exitcode 97 /opt/app/bin/strata "$f" >"$OUT/window-memcheck.log" 2>&1
        echo "window under memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/window-memcheck.log")"
    fi
    if [[ ${WINDOW_BENCH_FILE:-} == make ]]; then
        # The peers' shape (365 × 721 × 1440 float32), written with h5py (the machine's Python has
        # no netCDF4); netCDF-C reads it as netCDF-4 with dims named by dimension scales.
        WINDOW_BENCH_FILE=/tmp/strata-window-air.nc
        [[ -s $WINDOW_BENCH_FILE ]] || python3 - "$WINDOW_BENCH_FILE" <<'PY'
import sys, numpy as np, h5py
nt, ny, nx = 365, 721, 1440
lat = np.linspace(-90, 90, ny); lon = np.arange(nx) * 0.25
with h5py.File(sys.argv[1], "w") as f:
    for name, v in (("time", np.arange(nt, dtype="f8")), ("lat", lat), ("lon", lon)):
        d = f.create_dataset(name, data=v); d.make_scale(name)
    f["time"].attrs["units"] = np.bytes_("days since 2001-01-01")
    air = f.create_dataset("air", (nt, ny, nx), dtype="f4")
    phi = np.deg2rad(lat)[:, None]; lam = np.deg2rad(lon)[None, :]
    for t in range(nt):
        air[t] = (300 - 45 * np.sin(phi) ** 2 + 4 * np.sin(3 * lam + 0.05 * t) * np.cos(phi)).astype("f4")
    for i, name in enumerate(("time", "lat", "lon")):
        air.dims[i].attach_scale(f[name])
PY
        ls -l "$WINDOW_BENCH_FILE"
    fi
    # WINDOW_BENCH_ONLY: "map" (the map view's two range modes), "hovmoller" (that view alone) or
    # "ttff" (time to first frame, fresh processes, WINDOW_STRATA against WINDOW_STRATA_B by turns).
    local only=${WINDOW_BENCH_ONLY:-}
    if [[ $only == ttff ]]; then
        local round exe
        for round in 1 2 3; do
            for exe in "${WINDOW_STRATA:-/opt/app/bin/strata}" ${WINDOW_STRATA_B:-}; do
                PYTHONPATH=/opt/x/usr/lib/python3/dist-packages LD_LIBRARY_PATH=$APP python3 "$ROOT/bench/app/run_app_bench.py" \
                    "$WINDOW_BENCH_FILE" --strata "$exe" --reps "${WINDOW_BENCH_REPS:-3}" --series "" \
                    --out "$OUT/ttff-$(basename "$exe")-$round.json" >"$OUT/ttff-$(basename "$exe")-$round.log" 2>&1
                echo "ttff $(basename "$exe") round $round: $(grep -o '"ttff_median_s": [0-9.]*' "$OUT/ttff-$(basename "$exe")-$round.log")" \
                    "request at $(grep -o 'first_frame_request_s[^,]*' "$OUT/ttff-$(basename "$exe")-$round.json" | tr '\n' ' ')"
            done
        done
        only=none
    fi
    [[ $only == hovmoller ]] && WINDOW_BENCH_HOVMOLLER=1
    [[ $only == map ]] && WINDOW_BENCH_HOVMOLLER=
    if [[ -n ${WINDOW_BENCH_FILE:-} && $only != hovmoller && $only != none ]]; then
        PYTHONPATH=/opt/x/usr/lib/python3/dist-packages LD_LIBRARY_PATH=$APP python3 "$ROOT/bench/app/run_app_bench.py" \
            "$WINDOW_BENCH_FILE" --strata "${WINDOW_STRATA:-/opt/app/bin/strata}" --reps "${WINDOW_BENCH_REPS:-3}" \
            --steps "${WINDOW_BENCH_STEPS:-60}" --series b2b,hz --hz 60 --out "$OUT/window-bench.json" >"$OUT/window-bench.log" 2>&1
        echo "window bench rc=$?"; grep "^rep" "$OUT/window-bench.log"
        # The map view with the whole variable's range (computed once on the device): steps need
        # no colour-bar range from the device, so the bytes copied to the host stay put.
        PYTHONPATH=/opt/x/usr/lib/python3/dist-packages LD_LIBRARY_PATH=$APP python3 "$ROOT/bench/app/run_app_bench.py" \
            "$WINDOW_BENCH_FILE" --strata "${WINDOW_STRATA:-/opt/app/bin/strata}" --strata-opts "--range global" --reps "${WINDOW_BENCH_GLOBAL_REPS:-1}" \
            --steps "${WINDOW_BENCH_STEPS:-60}" --series b2b --out "$OUT/window-bench-global.json" >"$OUT/window-bench-global.log" 2>&1
        echo "window bench (global range) rc=$?"; grep "^rep" "$OUT/window-bench-global.log"
        if [[ -z $only ]]; then
        # Time to first frame at a second launch: the settings folder (and the GL driver's shader
        # cache under it) kept from the first.
        PYTHONPATH=/opt/x/usr/lib/python3/dist-packages LD_LIBRARY_PATH=$APP python3 "$ROOT/bench/app/run_app_bench.py" \
            "$WINDOW_BENCH_FILE" --strata "${WINDOW_STRATA:-/opt/app/bin/strata}" --reps 4 --series "" --keep-home \
            --out "$OUT/window-bench-relaunch.json" >"$OUT/window-bench-relaunch.log" 2>&1
        echo "window bench (relaunch) rc=$?"; grep "^rep" "$OUT/window-bench-relaunch.log"
        # Switching a reduction: the time chip between Reduce (mean) and Slice, 20 times.
        PYTHONPATH=/opt/x/usr/lib/python3/dist-packages LD_LIBRARY_PATH=$APP python3 "$ROOT/bench/app/run_app_bench.py" \
            "$WINDOW_BENCH_FILE" --strata "${WINDOW_STRATA:-/opt/app/bin/strata}" --reps 1 --steps 20 --series reduce \
            --out "$OUT/window-bench-reduce.json" >"$OUT/window-bench-reduce.log" 2>&1
        echo "window bench (reduce) rc=$?"; grep "^rep" "$OUT/window-bench-reduce.log"
        # The same view on the GPU path and the CPU path, compared cell by cell on screen.
        PYTHONPATH=/opt/x/usr/lib/python3/dist-packages LD_LIBRARY_PATH=$APP python3 "$ROOT/bench/app/compare_paths.py" \
            "$WINDOW_BENCH_FILE" --strata "${WINDOW_STRATA:-/opt/app/bin/strata}" --size 2500x1300 --cells 1440x721 --out "$OUT/compare" >"$OUT/compare-paths.log" 2>&1
        echo "compare paths rc=$?"; grep -E "\"(differing|differing_on_cell_edges|worst_channel_difference|same|pixels)\"|strata-path" "$OUT/compare-paths.log"
        fi
    fi
    if [[ -n ${WINDOW_BENCH_FILE:-} && -n ${WINDOW_BENCH_HOVMOLLER:-} ]]; then # time × lon, the arrow stepping lat
        PYTHONPATH=/opt/x/usr/lib/python3/dist-packages LD_LIBRARY_PATH=$APP python3 "$ROOT/bench/app/run_app_bench.py" \
            "$WINDOW_BENCH_FILE" --strata "${WINDOW_STRATA:-/opt/app/bin/strata}" --strata-opts "--x lon --y time" \
            --reps "${WINDOW_BENCH_REPS:-3}" --steps "${WINDOW_BENCH_STEPS:-60}" --series b2b,hz --hz 60 \
            --out "$OUT/window-bench-hovmoller.json" >"$OUT/window-bench-hovmoller.log" 2>&1
        echo "window bench (Hovmöller) rc=$?"; grep "^rep" "$OUT/window-bench-hovmoller.log"
    fi
    # HEALPix maps (issue 37): host threads and the device, zoom 8, 10 and 13.
    if [[ ${WINDOW_HEALPIX:-0} == 1 && -x /opt/app/bin/bench_healpix ]]; then
        LD_LIBRARY_PATH=$APP /opt/app/bin/bench_healpix ${WINDOW_HEALPIX_LEVELS:-8 10 13} >"$OUT/healpix-bench.log" 2>&1
        echo "healpix bench rc=$?"; cat "$OUT/healpix-bench.log"
    fi
    # Movies (issue 36): strata --export-movie on the file above, frames from the device, timed
    # by bench/app/run_movie_bench.sh without its peer (no ffmpeg there).
    if [[ ${WINDOW_MOVIE:-0} == 1 && -n ${WINDOW_BENCH_FILE:-} ]]; then
        NO_PEER=1 PY=python3 STRATA=/opt/app/bin/strata FILE=$WINDOW_BENCH_FILE RES=$OUT/movie REPS=${WINDOW_MOVIE_REPS:-3} \
            LD_LIBRARY_PATH=$APP bash "$ROOT/bench/app/run_movie_bench.sh" >"$OUT/movie-bench.log" 2>&1
        echo "movie bench rc=$?"; tail -8 "$OUT/movie-bench.log"
        rm -f "$OUT"/movie/*.mp4 "$OUT"/movie/*.gif
    fi
    kill $xvfb 2>/dev/null
    packOut
}

PARTS=$ROOT/gpu-parts

# The X stack and the app, each cut into parts that travel one per transfer beside the
# working tree (64 MiB in all): the X stack in 2, the app in as many as keep each under 40 MB.
splitParts() {
    rm -rf "$PARTS" && mkdir -p "$PARTS"
    for pair in "x:$XDIR/x.tar.xz" "a:$DIR/app.tar.xz"; do
        local tag=${pair%%:*} file=${pair#*:} size n i piece
        size=$(stat -c %s "$file")
        n=$(((size + 40000000 - 1) / 40000000))
        ((n < 2)) && n=2
        piece=$(((size + n - 1) / n))
        for ((i = 1; i <= n; i++)); do
            mkdir -p "$PARTS/$tag$i"
            tail -c +$(((i - 1) * piece + 1)) "$file" | head -c "$piece" >"$PARTS/$tag$i/part"
            echo "$n" >"$PARTS/$tag$i/of"
        done
    done
    ls -l "$PARTS"/*/part
}

gatherPart() {
    local p=${1:?gather needs a part: x1, x2, a1, a2, ...}
    mkdir -p /opt/parts && cp "$PARTS/$p/part" "/opt/parts/$p" || return 1
    local tag=${p:0:1} n i
    n=$(cat "$PARTS/$p/of")
    for ((i = 1; i <= n; i++)); do
        [[ -f /opt/parts/$tag$i ]] || { echo "kept $p; $tag$i still to come"; return 0; }
    done
    local dest=/opt/app
    [[ $tag == x ]] && dest=/opt/x
    rm -rf "$dest" && mkdir -p "$dest" &&
        for ((i = 1; i <= n; i++)); do cat "/opt/parts/$tag$i"; done | tar -xJf - -C "$dest" &&
        rm -f /opt/parts/"$tag"* && echo "unpacked into $dest"
}

case $cmd in
pack-x) packX ;;
pack-app) packApp ;;
unpack-x) unpackX ;;
unpack-app) unpackApp ;;
split) splitParts ;;
gather) gatherPart "${2:-}" ;;
run) run ;;
*) echo "usage: $0 pack-x|pack-app|unpack-x|unpack-app|split|gather PART|run" >&2; exit 2 ;;
esac
