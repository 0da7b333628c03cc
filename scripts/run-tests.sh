#!/usr/bin/env bash
# Runs every test of a build directory, on a private virtual X display when there is none
# (Xvfb picks a free display number itself: no race with other X servers on the machine).
set -euo pipefail
build=${1:-build}
shift || true # what follows goes to ctest (a label: -L app)
if [ -z "${DISPLAY:-}" ] && command -v Xvfb >/dev/null 2>&1; then
  exec 3< <(Xvfb -displayfd 1 -screen 0 1920x1080x24 -nolisten tcp 2>/dev/null)
  xvfb_pid=$!
  read -r -t 30 number <&3 || { echo "run-tests: Xvfb did not start" >&2; exit 1; }
  export DISPLAY=":$number"
  trap 'kill $xvfb_pid 2>/dev/null || true' EXIT
fi
ctest --test-dir "$build" --output-on-failure -j2 "$@"
