# Sourced by the window benchmarks (run_app_bench.sh, run_startup_bench.sh,
# run_overlay_bench.sh): a private X server on a display number it picks itself.
#   private_xvfb WxHxD    starts Xvfb with one screen of that size; sets XVFB_DISPLAY (the
#                         number, without the colon) and XVFB_PID (for the caller's trap)
private_xvfb() {
    local fd
    exec {fd}< <(Xvfb -displayfd 1 -screen 0 "$1" -nolisten tcp 2>/dev/null)
    XVFB_PID=$!
    read -r -t 30 XVFB_DISPLAY <&"$fd"
}
