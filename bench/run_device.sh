#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One call on the GPU machine: build mgblas, run the GPU tests and the level-2 benchmark
# (GEMV / SYMV / HEMV against cuBLAS), write logs and CSVs under $OUT, print a short
# table last.
#
#   bench/run_device.sh [full|final|sweep|splits|quick|focus]
#     full   the dispatcher's choices: n = 8192..32768, small sizes, offsets (default)
#     sweep  every compiled tuning set, for filling the tuning tables
#     splits the grid-split policy against forced splits (s, d)
#     quick  a few sizes only
#     final  full, plus every tuning set of d/z SYMV and GEMV T at n <= 6144 and d GEMV T
#            with forced row splits 1, 2, 4
#     focus  d SYMV L/U, z HEMV L/U, d GEMV T at n = 8192..32768, every tuning set
#            (--sweep); s/c SYMV and s/c/z GEMV T at 16384, 32768 for comparison;
#            d/z SYMV at n = 8192 with forced tiles per block; ncu on d SYMV L and
#            d GEMV T at n = 16384 (sections SpeedOfLight, MemoryWorkloadAnalysis,
#            WarpStateStats, Occupancy)
#   env PREBUILT=dir  take test_cuda_gemv_engine and tester_blas from dir (built on a
#                     machine with the same nvcc); if they do not start there, build
#                     them after all
#   env SRC=dir       build from this source tree instead of the checkout (e.g. a clean
#                     export of HEAD plus the level-2 files, when other work in progress
#                     in the checkout does not build)
#   env SKIP_CTEST=1  skip the full build and `ctest -L gpu`
#   env SKIP_DEMO=1   skip the distributed demo
#   env SANITIZE=1    also run a few test cases under compute-sanitizer memcheck
set -uo pipefail
export NCCL_NVLS_ENABLE=0
mode=${1:-full}
root=$(cd "$(dirname "$0")/.." && pwd)
src=${SRC:-$root}
# Logs and CSVs go to a work folder; at the end they are packed into $OUT (which
# brings back at most 8 files): results.tgz, summary.txt, level2.png.
out=$root/build-bench-out
rm -rf "$out"  # a machine may keep ignored folders between calls: no stale CSVs
mkdir -p "$out"
build=$root/build-device
stamp() { echo "[$(date +%T)] $*"; }

nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version \
  --format=csv 2>&1 | tee "$out/gpu.txt"

configure() {
  local host_cxx=()
  [ -x /opt/gcc/bin/g++ ] && host_cxx=(-DCMAKE_CUDA_HOST_COMPILER=/opt/gcc/bin/g++)
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES=90 "${host_cxx[@]}" \
    >"$out/cmake.log" 2>&1 || { stamp "cmake failed"; tail -20 "$out/cmake.log"; }
}

prebuilt_ok() {
  [ -x "$PREBUILT/test_cuda_gemv_engine" ] && [ -x "$PREBUILT/tester_blas" ] &&
    ! ldd "$PREBUILT/test_cuda_gemv_engine" "$PREBUILT/tester_blas" | grep -q "not found" &&
    "$PREBUILT/tester_blas" --help >/dev/null 2>&1
}
if [ -n "${PREBUILT:-}" ] && prebuilt_ok; then
  stamp "prebuilt binaries from $PREBUILT"
  bin_test=$PREBUILT/test_cuda_gemv_engine
  bin_tester=$PREBUILT/tester_blas
else
  [ -n "${PREBUILT:-}" ] && { stamp "prebuilt binaries do not start here:"; ldd "$PREBUILT/tester_blas" 2>&1 | grep "not found"; }
  stamp "build"
  configure
  ninja -C "$build" -j16 test_cuda_gemv_engine tester_blas >"$out/build.log" 2>&1 ||
    { stamp "build failed"; grep -m20 -E "error|FAILED" "$out/build.log"; }
  bin_test=$build/tests/kernels/test_cuda_gemv_engine
  bin_tester=$build/tests/testers/tester_blas
fi

# What is under $out so far, packed into $OUT (so a run stopped at its time limit still
# brings back what it measured).
pack() {
  if [ -n "${OUT:-}" ] && [ "$OUT" != "$out" ]; then tar czf "$OUT/results.tgz" -C "$out" .; fi
}
unit_test() {
  stamp "test_cuda_gemv_engine"
  timeout "${1:-300}" "$bin_test" --gtest_brief=1 >"$out/test_gemv_engine.log" 2>&1
  echo "test_cuda_gemv_engine exit $?" | tee -a "$out/test_gemv_engine.log"
  grep -E "^\[  (PASSED|FAILED)|FAILED|tests ran" "$out/test_gemv_engine.log" | head -30
  pack
}
# focus mode measures first and tests last (see there).
[ "$mode" = focus ] || unit_test

if [ -n "${SANITIZE:-}" ]; then
  stamp "compute-sanitizer"
  timeout 150 compute-sanitizer --tool memcheck --print-limit 5 "$bin_test" --gtest_brief=1 \
    --gtest_filter='GemvEngine_Cuda/d.offsets_and_strides:SymvEngine_Cuda/c.offsets_and_strides:GemvEngine_Cuda/s.rectangular' \
    >"$out/sanitizer.log" 2>&1
  echo "sanitizer exit $?" | tee -a "$out/sanitizer.log"
  grep -m8 -E "ERROR SUMMARY|Invalid|PASSED|FAILED" "$out/sanitizer.log"
fi

tester() {  # tester <csv-name> <args...>
  local name=$1; shift
  stamp "tester_blas $*"
  timeout 240 "$bin_tester" "$@" --csv "$out/$name.csv" >"$out/$name.log" 2>&1
  echo "exit $?" >>"$out/$name.log"
  pack
}
big=8192:32768:8192
small=512,1024,2048,4096
case $mode in
  sweep)
    tester sweep_gemv --op gemv --trans N,T --type s,d,c,z --range $big --sweep
    tester sweep_symv --op symv --uplo L,U --type s,d,c,z --range $big --sweep
    tester sweep_small --op gemv,symv --trans N,T --uplo L,U --type s,d,c,z -n $small --sweep
    tester sweep_offset --op gemv,symv --trans N,T --uplo L --type d,z --parent 16384 \
      --offset 0,1,17,33 --sweep
    ;;
  splits)
    for y in 1 8 32; do
      tester sweep_split_gemv_$y --op gemv --trans N,T --type s,d -n 4096,16384 --split $y --sweep
    done
    for k in 2 8 32; do
      tester sweep_split_symv_$k --op symv --uplo L --type s,d -n 4096,16384 --split $k --sweep
    done
    ;;
  quick)
    tester quick --op gemv,symv --trans N,T --uplo L --type s,d,c,z -n 4096,16384
    ;;
  focus)
    tester focus_symv --op symv --uplo L,U --type d,z --range $big --sweep
    tester focus_gemvT --op gemv --trans T --type d --range $big --sweep
    tester focus_ref --op gemv,symv --trans T --uplo L --type s,c,z -n 16384,32768 --sweep
    for k in 2 8 32; do
      tester focus_split_$k --op symv --uplo L --type d,z -n 8192 --split $k --sweep
    done
    unit_test 120
    if command -v ncu >/dev/null; then
      for what in "11symv_kernel --op symv --uplo L" "13gemv_t_kernel --op gemv --trans T"; do
        set -- $what
        stamp "ncu $1"
        timeout 90 ncu --clock-control none --section SpeedOfLight \
          --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
          --kernel-name-base mangled -k "regex:6mgblas.*$1" -c 1 \
          "$bin_tester" "${@:2}" --type d -n 16384 --niter 1 --warmup 0 --no-check \
          >"$out/ncu_$1.txt" 2>&1
        grep -E "DRAM Throughput|Memory Throughput|Duration|Achieved Occupancy|Registers Per|Stall|Warp Cycles Per Issued" \
          "$out/ncu_$1.txt" | head -14
        pack
      done
    fi
    ;;
  *)
    tester gemv --op gemv --trans N,T,C --type s,d,c,z --range $big
    tester symv --op symv --uplo L,U --type s,d,c,z --range $big
    tester small --op gemv,symv --trans N,T --uplo L,U --type s,d,c,z -n $small
    tester offset --op gemv,symv --trans N,T --uplo L --type s,d,c,z --parent 16384 \
      --offset 0,1,17,33
    tester sweep_symv --op symv --uplo L,U --type s,d,c,z --range $big --sweep
    if [ "$mode" = final ]; then
      # full + every tuning set of d/z SYMV/HEMV and d/z GEMV T at small and medium n,
      # and d GEMV T with forced row splits (1: beta fused, no atomics)
      tester sweep_small_dz --op gemv,symv --trans T --uplo L,U --type d,z \
        -n $small,6144 --sweep
      for y in 1 2 4; do
        tester sweep_split_gemvT_$y --op gemv --trans T --type d -n 8192,16384,32768 --split $y --sweep
      done
    fi
    ;;
esac

if [ -z "${SKIP_CTEST:-}" ]; then
  stamp "full build + ctest -L gpu"
  [ -f "$build/build.ninja" ] || configure
  timeout 300 ninja -C "$build" -j16 -k 0 >"$out/build_all.log" 2>&1 ||
    { stamp "full build incomplete"; grep -m10 -E "FAILED" "$out/build_all.log"; }
  timeout 240 ctest --test-dir "$build" -L gpu --output-on-failure -j1 --timeout 200 \
    >"$out/ctest_gpu.log" 2>&1
  tail -25 "$out/ctest_gpu.log"
fi

if [ -z "${SKIP_DEMO:-}" ] && [ -x "$build/examples/00_distributed_demo/mgblas_demo" ]; then
  # The main job on the GPU back-end: 1 rank, then 2 ranks (sharing the GPUs there are).
  for np in 1 2; do
    stamp "mgblas_demo on $np rank(s)"
    timeout 120 mpirun --allow-run-as-root --oversubscribe -np $np -x NCCL_NVLS_ENABLE \
      "$build/examples/00_distributed_demo/mgblas_demo" --n 16384 --type s,d,c,z --niter 5 \
      >"$out/demo_np$np.log" 2>&1
    echo "demo exit $?" >>"$out/demo_np$np.log"
    grep -vE "^#   rank" "$out/demo_np$np.log" | tail -16
  done
fi

python3 "$root/bench/plot_level2.py" "$out" >"$out/plot.log" 2>&1 || tail -3 "$out/plot.log"
stamp "summary"
python3 "$root/bench/summarize_level2.py" "$out"/*.csv | tee "$out/summary.txt"
if [ -n "${OUT:-}" ] && [ "$OUT" != "$out" ]; then
  tar czf "$OUT/results.tgz" -C "$out" .
  cp "$out/summary.txt" "$OUT/"
  [ -f "$out/level2.png" ] && cp "$out/level2.png" "$OUT/"
fi
