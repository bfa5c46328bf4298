#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One call on a GPU machine for everything: build mgblas (all instances), run every GPU
# test (ctest -L gpu, MPI ones included), then the benchmarks of each engine, and pack
# the logs, CSVs and tables into $OUT/results.tgz. Prints a short table per part last.
#
#   bench/device_all.sh [parts...]     parts: tests tsgemm batched dist (default: all),
#                                      symv (the SYMV engine test alone)
#   env TARGETS="a b"   build only these targets (default: everything)
#   env TSGEMM_MODE     full (default), quick or scaling (bench/tsgemm_device.sh)
#
# The level-2 benchmark has its own script (bench/run_device.sh).
#
# Each part's script takes <build dir> <output dir> and prints its own short table.
set -uo pipefail
export NCCL_NVLS_ENABLE=0
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-device
out=$root/build-device-out
mkdir -p "$out"
parts=${*:-tests tsgemm batched dist}
stamp() { echo "[$(date +%T)] $*"; }

nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
nvidia-smi topo -m >"$out/topo.txt" 2>&1 || true

stamp "configure + build"
host_cxx=()
if [ -x /opt/gcc/bin/g++ ]; then host_cxx=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++); fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  "${host_cxx[@]}" >"$out/cmake.log" 2>&1 || { stamp "cmake failed"; tail -30 "$out/cmake.log"; }
# shellcheck disable=SC2086 # TARGETS is a list
timeout 480 ninja -C "$build" -j "$(nproc)" -k 0 ${TARGETS:-} >"$out/build.log" 2>&1 ||
  { stamp "build incomplete"; grep -m20 -E "error|FAILED" "$out/build.log"; }
stamp "build done"

pack() { if [ -n "${OUT:-}" ]; then tar czf "$OUT/results.tgz" -C "$out" .; fi; }
pack
for part in $parts; do
  case $part in
    tests)
      stamp "ctest -L gpu"
      timeout 400 ctest --test-dir "$build" -L gpu --output-on-failure --timeout 300 \
        >"$out/ctest_gpu.log" 2>&1
      grep -E "Test +#|tests passed|tests failed" "$out/ctest_gpu.log" | tail -30 ;;
    symv)
      stamp "test_cuda_gemv_engine (SYMV)"
      timeout 300 "$build/tests/kernels/test_cuda_gemv_engine" --gtest_filter='SymvEngine*' \
        --gtest_brief=1 >"$out/symv_test.log" 2>&1
      echo "test_cuda_gemv_engine SYMV: exit $?" | tee -a "$out/symv_test.log"
      grep -E "PASSED|FAILED|Failure" "$out/symv_test.log" | head -20 ;;
    tsgemm|batched|dist)
      if [ -f "$root/bench/${part}_device.sh" ]; then
        stamp "$part"
        mkdir -p "$out/$part"
        mode=()
        [ "$part" = tsgemm ] && mode=("${TSGEMM_MODE:-full}")
        bash "$root/bench/${part}_device.sh" "$build" "$out/$part" "${mode[@]}" >"$out/$part.log" 2>&1
        echo "exit $?" >>"$out/$part.log"
        tail -30 "$out/$part.log"
      fi ;;
  esac
  pack   # after every part, so a call cut short still brings back what ran
done
stamp "done"
