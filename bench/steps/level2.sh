# SPDX-License-Identifier: BSD-3-Clause
# level-2 benchmark: GEMV/SYMV/HEMV against cuBLAS (mgblas-tester blas), the gemv engine test
# Sourced by bench/device.sh (was bench/run_device.sh; its ctest and demo parts are the
# steps gpu-tests and demo, its sanitizer part the step sanitize). CSVs and logs under
# OUT_DIR/level2/, level2.png and summary.txt beside them (copied to $OUT).
#
#   env LEVEL2_MODE=full|final|sweep|splits|quick|focus   (default full)
#     full   the dispatcher's choices: n = 8192..32768, small sizes, offsets
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
mode=${LEVEL2_MODE:-full}
need test_cuda_gemv_engine mgblas-tester || exit 1
bin_test=$build/tests/kernels/test_cuda_gemv_engine
bin_tester=("$tester" blas)

unit_test() {
  stamp "test_cuda_gemv_engine"
  timeout "${1:-300}" "$bin_test" --gtest_brief=1 >"$out/test_gemv_engine.log" 2>&1
  echo "test_cuda_gemv_engine exit $?" | tee -a "$out/test_gemv_engine.log"
  grep -E "^\[  (PASSED|FAILED)|FAILED|tests ran" "$out/test_gemv_engine.log" | head -30
  pack
}
# focus mode measures first and tests last (see there).
[ "$mode" = focus ] || unit_test

tester() {  # tester <csv-name> <args...>
  local name=$1; shift
  stamp "mgblas-tester blas $*"
  timeout 240 "${bin_tester[@]}" "$@" --csv "$out/$name.csv" >"$out/$name.log" 2>&1
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
          "${bin_tester[@]}" "${@:2}" --type d -n 16384 --niter 1 --warmup 0 --no-check \
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

python3 "$root/bench/plots.py" level2 "$out" "$out/level2.png" >"$out/plot.log" 2>&1 ||
  tail -3 "$out/plot.log"
stamp "summary"
python3 "$root/bench/plots.py" level2-summary "$out"/*.csv | tee "$out/summary.txt"
if [ -n "${OUT:-}" ]; then
  cp "$out/summary.txt" "$OUT/"
  [ -f "$out/level2.png" ] && cp "$out/level2.png" "$OUT/"
fi
