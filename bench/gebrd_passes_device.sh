#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One call on the GPU machine for the bidiagonal reduction's one-pass row step: build the
# GPU tests and tester_gebrd, run the tests, then tester_gebrd with the two GEMVs on every
# column (--pass two, against cuSOLVER) and with GebrdOptions' default (--pass auto: the
# fused row step while the trailing matrix is large) on the same matrices in the same
# call; logs and CSVs under $OUT, a short table last.
#
#   bench/gebrd_passes_device.sh [tests|bench|all]   (default all)
#   env CTEST_REGEX  which GPU tests (default: gebrd_gpu|labrd)
#   env SIZES        square sizes, d (default: 4096,8192,16384)
#   env EXTRA        more tester_gebrd arguments for both runs (e.g. "--type d,z")
#   env BUILD        build directory (default build-device, kept between calls)
set -uo pipefail
export NCCL_NVLS_ENABLE=0
mode=${1:-all}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/build-passes-out}
build=${BUILD:-$root/build-device}
mkdir -p "$out"
stamp() { echo "[$(date +%T)] $*"; }

nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv,noheader
host_cxx=()
[ -x /opt/gcc/bin/g++ ] && host_cxx=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
stamp "configure + build ($(nproc) cores)"
targets=(tester_gebrd test_gebrd_gpu)
grep -q test_labrd_fused_host "$root/tests/kernels/CMakeLists.txt" && targets+=(test_labrd_fused_host)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  "${host_cxx[@]}" >"$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" >"$out/build.log" 2>&1 ||
  { grep -B2 -A12 "error" "$out/build.log" | head -80; exit 1; }
stamp "built ${targets[*]}"

if [ "$mode" != bench ]; then
  (cd "$build" && ctest -R "${CTEST_REGEX:-gebrd_gpu|labrd}" --output-on-failure --timeout 600 \
    >"$out/ctest.log" 2>&1)
  grep -E "tests passed|Test +#|Failed|\*\*\*" "$out/ctest.log" | tail -20
  stamp "tests done"
fi
if [ "$mode" != tests ]; then
  bin=$build/tests/testers/tester_gebrd
  mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none -x NCCL_NVLS_ENABLE -np 1)
  # shellcheck disable=SC2086
  for pass in two auto; do
    flag=(--pass auto --no-ref)
    [ $pass = two ] && flag=(--pass two)
    "${mpi[@]}" "$bin" -n "${SIZES:-4096,8192,16384}" --type d --niter 1 --warmup 1 --profile \
      --check-max-n 4096 ${EXTRA:-} "${flag[@]}" --csv "$out/gebrd-$pass.csv" </dev/null \
      >"$out/gebrd-$pass.log" 2>&1
    stamp "$pass pass(es) done"
  done
  echo "## two passes (GEMVs), with cuSOLVER"; grep -v "^\[" "$out/gebrd-two.log" | tail -n +4
  echo "## default (fused row step on large trailing matrices)"
  grep -v "^\[" "$out/gebrd-auto.log" | tail -n +6
fi
