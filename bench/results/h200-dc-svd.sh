#!/usr/bin/env bash
# The device commands behind h200-dc-svd.md (the divide and conquer's secular equations,
# kernels/detail/rank_one_merge.hpp; the Golub-Kahan vectors' partial
# re-orthogonalization, kernels/detail/bdsvd_tgk.hpp); one H200, each call <= 10 min.
# Steps, run in order:
#   build            configure build-dev (Release, sm_90; a fresh one with MGBLAS_INSTANCES=ci)
#                    and build the tester and the GPU tests of the eigen-solver and the SVD
#   ctest REGEX      ctest -R REGEX in build-dev (device_steps.sh)
#   heevd SIZES      mgblas-tester heevd, two stages, all vectors (or $VECTORS), against
#                    Xsyevd (--no-ref when NOREF=1); $OUT/heevd-${VECTORS:-all}.csv
#   svd SIZES        mgblas-tester svd, two stages, all vectors (or $VECTORS), against
#                    Xgesvdp (--no-ref when NOREF=1); $OUT/svd-${VECTORS:-all}.csv
# e.g. bash bench/results/h200-dc-svd.sh build ctest 'bidiag_svd|gesvd_gpu' svd 8192,16384
source "$(dirname "$0")/device_steps.sh"
while [ $# -gt 0 ]; do
  case $1 in
    build)
      shift; [ -f "$B/CMakeCache.txt" ] || hc+=(-DMGBLAS_INSTANCES=ci)
      device_build mgblas-tester test_cuda_bidiag_svd test_gesvd_gpu test_cuda_band_to_bidiag \
                   test_cuda_stedc test_cuda_stebz test_heevd_gpu ;;
    ctest)
      device_ctest "$2"; shift 2 ;;
    heevd)
      device_heevd "$2"; shift 2 ;;
    svd)
      device_svd "$2"; shift 2 ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
