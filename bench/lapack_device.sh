#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One call on the GPU machine for the reductions (dist/lapack): build mgblas, run the GPU
# tests, then the benchmarks against cuSOLVER; logs under $OUT, a short table last.
#
#   bench/lapack_device.sh [tests|bench|all]   (default all)
#   env SRC=dir    build this source tree (e.g. a clean export of HEAD carried along)
#   env CTEST_ARGS extra ctest selection (default: -L gpu)
#   env BENCHES    which reductions to benchmark, of "hetrd gebrd" (default: both); each
#                  runs bench/<name>_device.sh with its CASES (env HETRD_CASES, GEBRD_CASES)
set -uo pipefail
export NCCL_NVLS_ENABLE=0
mode=${1:-all}
root=$(cd "$(dirname "$0")/.." && pwd)
src=${SRC:-$root}
out=${OUT:-$root/build-lapack-out}
mkdir -p "$out"
build=$root/build-device
stamp() { echo "[$(date +%T)] $*"; }

nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv,noheader
host_cxx=()
[ -x /opt/gcc/bin/g++ ] && host_cxx=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
stamp "configure + build ($(nproc) cores)"
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  "${host_cxx[@]}" >"$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" >"$out/build.log" 2>&1 || { grep -B2 -A12 "error" "$out/build.log" | head -80; exit 1; }
stamp "built"

if [ "$mode" != bench ]; then
  (cd "$build" && ctest ${CTEST_ARGS:--L gpu} --output-on-failure --timeout 600 >"$out/ctest.log" 2>&1)
  grep -E "tests passed|Test +#|Failed|\*\*\*" "$out/ctest.log" | tail -40
  stamp "tests done"
fi
if [ "$mode" != tests ]; then
  for b in ${BENCHES:-hetrd gebrd}; do
    [ -x "$build/tests/testers/tester_$b" ] || continue
    cases_var=${b^^}_CASES
    CASES=${!cases_var:-one} BIN=$build/tests/testers/tester_$b bash "$root/bench/${b}_device.sh" 2>&1 |
      tee "$out/bench-$b.log" | grep -v "^\[" | tail -40
    stamp "bench $b done"
  done
fi
