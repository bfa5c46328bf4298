#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The one driver for the GPU machine: named steps, run in the order given, each with its
# log and results under OUT_DIR/<step>/, a failing step not stopping the next; a short
# table of the steps (exit status, seconds) is printed last. bench/README.md lists them.
#
#   bench/device.sh STEP...        e.g. bench/device.sh build gpu-tests level2
#   bench/device.sh --list         the steps and what they do
#
#   env BUILD=dir     the build directory (default build-device; kept between calls)
#   env SRC=dir       the source tree the build step builds (default: this checkout)
#   env OUT_DIR=dir   where the steps write (default build-device-out, emptied first
#                     unless KEEP=1); with OUT set (the device machine's result folder),
#                     OUT_DIR is packed into $OUT/results.tgz after every step, and the
#                     short table is copied to $OUT/summary.txt
#   env TARGETS="a b" what the build step builds (default: all)
# Each step's own settings (env) are listed in its file, bench/steps/<step>.sh. A step
# that needs binaries builds the missing ones in BUILD (configuring it if needed).
# Multicast (NVLS) stays off: NCCL_NVLS_ENABLE=0 here and in every mpirun (-x).
set -uo pipefail
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PATH=$PATH:/usr/local/cuda/bin
root=$(cd "$(dirname "$0")/.." && pwd)
steps_dir=$root/bench/steps

if [ $# -eq 0 ] || [ "$1" = --list ] || [ "$1" = -h ] || [ "$1" = --help ]; then
  sed -n '3,19p' "$0"
  echo "steps:"
  for f in "$steps_dir"/*.sh; do
    printf "  %-14s %s\n" "$(basename "$f" .sh)" "$(sed -n '2s/^# //p' "$f")"
  done
  [ $# -eq 0 ] && exit 2 || exit 0
fi
for s in "$@"; do
  [ -f "$steps_dir/$s.sh" ] || { echo "device.sh: no step '$s' (bench/device.sh --list)"; exit 2; }
done

build=${BUILD:-$root/build-device}
src=${SRC:-$root}
out_root=${OUT_DIR:-$root/build-device-out}
[ -n "${KEEP:-}" ] || rm -rf "$out_root"  # a machine may keep ignored folders: no stale CSVs
mkdir -p "$out_root"
out_root=$(cd "$out_root" && pwd)
mkdir -p "$build"
build=$(cd "$build" && pwd)

# ---- what the steps share -------------------------------------------------------------
stamp() { echo "[$(date +%T)] $*"; }
# The build of ab_build.sh; a lone build gets every core.
JOBS=${JOBS:-$(nproc)}
# shellcheck source=bench/ab_build.sh
source "$root/bench/ab_build.sh"
# need TARGET...: build these targets in $build (configure it first if it is not).
need() {
  if [ -f "$build/build.ninja" ]; then
    cmake --build "$build" -j "$jobs" --target "$@" >>"$out_root/build-need.log" 2>&1
  else
    build "$src" "$build" "$out_root/build-need.log" "$@"
  fi || { stamp "build of $* failed (tail of $out_root/build-need.log):"
          grep -B2 -A12 " error" "$out_root/build-need.log" | head -40; return 1; }
}
# tester BUILD_DIR: the path of mgblas-tester in a build; `tester_cmd BUILD_DIR ROUTINE`
# prints the command of a routine, also for a build of a tree from before mgblas-tester
# (its tests/testers/tester_ROUTINE), which the ab steps compare against.
tester_cmd() {
  if [ -x "$1/testers/mgblas-tester" ]; then echo "$1/testers/mgblas-tester $2"
  else echo "$1/tests/testers/tester_$2"; fi
}
tester=$build/testers/mgblas-tester
tune=$build/testers/mgblas-tune
gpu_count() { nvidia-smi -L 2>/dev/null | grep -c '^GPU'; }
mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none -x NCCL_NVLS_ENABLE)
pack() {
  if [ -n "${OUT:-}" ] && [ "$OUT" != "$out_root" ]; then tar czf "$OUT/results.tgz" -C "$out_root" .; fi
}
export -f stamp

nvidia-smi --query-gpu=index,name,memory.total,clocks.max.sm,clocks.max.mem,driver_version \
  --format=csv 2>&1 | tee "$out_root/gpu.txt"
nvidia-smi topo -m >"$out_root/topo.txt" 2>&1 || true

# ---- the steps --------------------------------------------------------------------------
table=()
for s in "$@"; do
  out=$out_root/$s
  mkdir -p "$out"
  stamp "step $s"
  t0=$SECONDS
  # A step runs in a subshell: its variables and `exit` stay its own.
  ( source "$steps_dir/$s.sh" ) 2>&1 | tee "$out_root/$s.log"
  rc=${PIPESTATUS[0]}
  table+=("$(printf "%-14s %5s %7s  %s" "$s" "$rc" "$((SECONDS - t0))" "$out_root/$s.log")")
  pack
done

echo
printf "%-14s %5s %7s  %s\n" step exit seconds log | tee "$out_root/summary.txt"
printf "%s\n" "${table[@]}" | tee -a "$out_root/summary.txt"
pack
if [ -n "${OUT:-}" ] && [ "$OUT" != "$out_root" ]; then cp "$out_root/summary.txt" "$OUT/"; fi
