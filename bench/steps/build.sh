# SPDX-License-Identifier: BSD-3-Clause
# configure and build SRC in BUILD (TARGETS, default all), every core (ab_build.sh)
# Sourced by bench/device.sh (root, src, build, out, stamp, build, need, tester, mpi).
stamp "configure + build $src in $build ($jobs jobs): ${TARGETS:-all}"
# shellcheck disable=SC2086 # TARGETS is a list
build "$src" "$build" "$out/build.log" ${TARGETS:-all} ||
  { stamp "build failed"; grep -m20 -B2 -A12 " error\|FAILED" "$out/build.log" | head -60; exit 1; }
stamp "built"
