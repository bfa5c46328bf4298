#!/usr/bin/env bash
# The device commands behind h200-chase-attempts.md, runs 4-6 (the chases' hand-off polled
# relaxed; band 16 against 32; issue 33's and 34's unmeasured cases; runs 1-3 used
# h200-chase-groups.sh on the branch attempt/chase-groups); one H200, each call <= 10 min.
# Steps, in order:
#   build              configure build-dev (Release, sm_90; a fresh one with
#                      MGBLAS_INSTANCES=ci) and build the tester and the chases' GPU tests
#   gtest BINARY FILTER
#                      a kernel test with a filter (device_steps.sh)
#   ctest REGEX        ctest -R REGEX in build-dev (device_steps.sh)
#   chase SIZES B TYPES
#                      mgblas-tester band2tri, the tridiagonal chase alone, median of 3 after
#                      1 warm-up, checked against the host engine up to n = 3000;
#                      $OUT/band2tri.csv
#   hetrd SIZES        mgblas-tester hetrd --eig, two stages (band $BAND, 32) against
#                      cusolverDnDsytrd and Xsyevd (NOREF=1: none), median of $REPEAT (3)
#                      after 1 warm-up, profiled phases on '#' lines; $OUT/hetrd.csv
#   svd SIZES [OPTS]   mgblas-tester svd (device_steps.sh; VECTORS, REPEAT, NOREF)
#   heevd SIZES        mgblas-tester heevd (device_steps.sh; TYPE, STAGES, VECTORS, REPEAT)
# e.g. bash bench/results/h200-chase-attempts.sh build chase 4096,8192 32 d hetrd 8192
source "$(dirname "$0")/device_steps.sh"
while [ $# -gt 0 ]; do
  case $1 in
    build)
      shift; [ -f "$B/CMakeCache.txt" ] || hc+=(-DMGBLAS_INSTANCES=ci)
      device_build mgblas-tester test_cuda_band_to_tridiag test_cuda_band_to_bidiag \
                   test_hetrd_2stage_gpu test_heevd_gpu test_gesvd_gpu ;;
    gtest)
      device_gtest "$2" "$3"; shift 3 ;;
    ctest)
      device_ctest "$2"; shift 2 ;;
    chase)
      timeout "${TO:-300}" "$T" band2tri -n "$2" -b "$3" --type "$4" --niter 3 --warmup 1 \
        --lapack-max-n 0 --check-max-n 3000 --csv "$OUT/band2tri.csv" |
        grep -v "^# \(command\|time\|binding\)"
      shift 4 ;;
    hetrd)
      timeout "${TO:-400}" "$T" hetrd -n "$2" --type d --nb 256 --band "${BAND:-32}" --eig --no-one-stage \
        --profile --niter "${REPEAT:-3}" --warmup 1 --no-check "$(ref_flag)" --csv "$OUT/hetrd.csv" |
        grep -v "^# \(command\|time\|binding\|NCCL\)"
      shift 2 ;;
    svd)
      sizes=$2 extra=$(extra_of "${@:3}"); shift 2; [ -n "$extra" ] && shift
      device_svd "$sizes" "$extra" ;;
    heevd)
      device_heevd "$2"; shift 2 ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
