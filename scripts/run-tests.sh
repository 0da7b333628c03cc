#!/usr/bin/env bash
# Runs every test of a build directory, under a virtual X display when there is none.
set -euo pipefail
build=${1:-build}
if [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null 2>&1; then
  exec xvfb-run -a -s "-screen 0 1920x1080x24" ctest --test-dir "$build" --output-on-failure -j2
fi
exec ctest --test-dir "$build" --output-on-failure -j2
