#!/usr/bin/env bash
# The device commands behind h200-apply-q-complex.md (Q2's application in complex double on
# FP64 tensor cores, kernels/cuda/sb2st/apply_q_mma.cuh's held tile); one H200, each call
# <= 10 min. Steps, run in order:
#   build              configure build-dev (Release, sm_90; a fresh one with
#                      MGBLAS_INSTANCES=ci) and build the tester and the GPU tests of Q2 and
#                      of the solvers that apply it (1-D and 2-D)
#   gtest BINARY FILTER
#                      a kernel test with a filter (device_steps.sh)
#   ctest REGEX        ctest -R REGEX in build-dev (device_steps.sh)
#   sanitize TOOL FILTER
#                      compute-sanitizer --tool TOOL on test_cuda_band_to_tridiag's FILTER
#                      (device_steps.sh)
#   applyq SIZES TYPE SHAPES
#                      mgblas-tester band2tri --apply-q, band 32, the kernels SHAPES (values of
#                      MGBLAS_SB2ST_APPLY_Q, "default": unset) and cuBLAS's gemm of the same
#                      n in the same run, 2 timed calls after 1 warm-up; $OUT/apply-q.csv
#   heevd SIZES        mgblas-tester heevd (device_steps.sh; TYPE, STAGES, VECTORS, REPEAT)
#   svd SIZES [OPTS]   mgblas-tester svd (device_steps.sh; TYPE, VECTORS, REPEAT, NOREF)
# e.g. bash bench/results/h200-apply-q-complex.sh build gtest test_cuda_band_to_tridiag '*ApplyQ*' \
#        applyq 8192,16384 z default,32x4x2
source "$(dirname "$0")/device_steps.sh"
while [ $# -gt 0 ]; do
  case $1 in
    build)
      shift; [ -f "$B/CMakeCache.txt" ] || hc+=(-DMGBLAS_INSTANCES=ci)
      device_build mgblas-tester test_cuda_band_to_tridiag test_cuda_band_to_bidiag test_heevd_gpu \
                   test_gesvd_gpu test_heevd_2d_gpu test_gesvd_2d_gpu ;;
    gtest)
      device_gtest "$2" "$3"; shift 3 ;;
    ctest)
      device_ctest "$2"; shift 2 ;;
    sanitize)
      device_sanitize "$2" test_cuda_band_to_tridiag "$3"; shift 3 ;;
    applyq)
      timeout "${TO:-300}" "$T" band2tri --apply-q -n "$2" -b 32 --type "$3" --apply-q-shapes "$4" \
        --lapack-max-n 0 --niter 2 --warmup 1 --csv "$OUT/apply-q.csv" | grep -v "^# \(command\|time\)"
      shift 4 ;;
    heevd)
      device_heevd "$2"; shift 2 ;;
    svd)
      sizes=$2 extra=$(extra_of "${@:3}"); shift 2; [ -n "$extra" ] && shift
      device_svd "$sizes" "$extra" ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
