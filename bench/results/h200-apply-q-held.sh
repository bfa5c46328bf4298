#!/usr/bin/env bash
# The device commands behind h200-apply-q-held.md (the Q2 application on FP64 tensor cores
# with the C tile held in registers, kernels/cuda/sb2st/apply_q_mma.cuh); one H200, each
# call <= 10 min. Steps, run in order:
#   build            configure build-dev (Release, sm_90; a fresh one with MGBLAS_INSTANCES=ci)
#                    and build the tester and the GPU tests of the chase's back-transformation
#   test FILTER      test_cuda_band_to_tridiag --gtest_filter=FILTER, log to $OUT/test.log
#   ctest REGEX      ctest -R REGEX in build-dev (device_steps.sh)
#   sanitize TOOL FILTER
#                    compute-sanitizer --tool TOOL on test_cuda_band_to_tridiag's FILTER
#   applyq SIZES     mgblas-tester band2tri --apply-q, band 32, double, both tensor-core kernels
#                    (MGBLAS_SB2ST_APPLY_Q unset: the held tile; mma-ring) and cuBLAS's DGEMM
#                    of the same n in the same run, 2 timed calls after 1 warm-up;
#                    $OUT/apply-q.csv
#   profile N        Nsight Compute (clocks untouched) on the first launch of the held
#                    kernel in one Q2 C at n = m = N: speed of light, occupancy, warp stalls,
#                    pipes, memory; $OUT/profile-N.txt
#   heevd SIZES      mgblas-tester heevd, all vectors (or $VECTORS), two stages (or $STAGES),
#                    against Xsyevd; $OUT/heevd-${VECTORS:-all}.csv
#   svd SIZES        mgblas-tester svd, two stages, all vectors (or $VECTORS), against
#                    Xgesvdp; $OUT/svd-${VECTORS:-all}.csv
# e.g. bash bench/results/h200-apply-q-held.sh build test '*ApplyQ*' applyq 8192,16384
source "$(dirname "$0")/device_steps.sh"
F=$B/tests/kernels/test_cuda_band_to_tridiag
while [ $# -gt 0 ]; do
  case $1 in
    build)
      shift; [ -f "$B/CMakeCache.txt" ] || hc+=(-DMGBLAS_INSTANCES=ci)
      device_build mgblas-tester test_cuda_band_to_tridiag test_cuda_band_to_bidiag test_heevd_gpu \
                   test_gesvd_gpu ;;
    test)
      t0=$SECONDS; timeout "${TO:-300}" "$F" --gtest_filter="$2" > "$OUT/test.log" 2>&1
      echo "test $2 rc $? in $((SECONDS - t0)) s"; shift 2
      grep -E "^\[  (FAILED|PASSED) |tests ran" "$OUT/test.log" | tail -20
      grep -m8 -A8 "Failure" "$OUT/test.log" | head -60 ;;
    ctest)
      device_ctest "$2"; shift 2 ;;
    sanitize)
      tool=$2 f=$3; shift 3
      timeout "${TO:-300}" compute-sanitizer --tool "$tool" --error-exitcode 1 "$F" --gtest_filter="$f" \
        > "$OUT/sanitize-$tool.log" 2>&1
      echo "sanitize $tool rc $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$OUT/sanitize-$tool.log" | tail -5 ;;
    applyq)
      sizes=$2; shift 2
      timeout 300 "$T" band2tri --apply-q -n "$sizes" -b 32 --type d --apply-q-shapes default,mma-ring \
        --lapack-max-n 0 --niter 2 --warmup 1 --csv "$OUT/apply-q.csv" | grep -v "^# \(command\|time\)" ;;
    profile)
      n=$2; shift 2
      timeout 300 ncu --clock-control none --section SpeedOfLight --section Occupancy \
        --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
        --section LaunchStats -k regex:apply_blocks_held -c 1 "$T" band2tri --apply-q -n "$n" -b 32 \
        --type d --lapack-max-n 0 --niter 1 --warmup 0 > "$OUT/profile-$n.txt" 2>&1
      echo "profile rc $?"; grep -E "^ +[A-Z].* [0-9.,]+$|Stall|stall" "$OUT/profile-$n.txt" | grep -v "^ *-" | head -90 ;;
    heevd)
      sizes=$2; shift 2
      timeout 400 "$T" heevd -n "$sizes" --type d --nb 256 --vectors "${VECTORS:-all}" --stages "${STAGES:-two}" \
        --repeat "${REPEAT:-1}" --warmup 1 --csv "$OUT/heevd-${VECTORS:-all}.csv" | grep -v "^# \(command\|time\)" ;;
    svd)
      sizes=$2; shift 2
      timeout 400 "$T" svd -n "$sizes" --type d --nb 256 --stages two --vectors "${VECTORS:-all}" \
        --gesvd-max-n 0 --repeat "${REPEAT:-1}" --warmup 1 --csv "$OUT/svd-${VECTORS:-all}.csv" |
        grep -v "^# \(command\|time\)" ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
