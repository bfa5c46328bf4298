#!/usr/bin/env bash
# The device commands behind h200-hemm-tsgemm.md (stage one's products below the diagonal
# through the tall-and-skinny engine in float and complex float: the code of branch
# attempt/hemm-tsgemm, which reads MGBLAS_SY2SB_HEMM_TSGEMM; main ignores it); one H200,
# each call <= 10 min. Steps, run in order:
#   build              configure build-dev (Release, sm_90; a fresh one with
#                      MGBLAS_INSTANCES=ci) and build the tester and the two-stage GPU tests
#   ctest REGEX        ctest -R REGEX in build-dev (device_steps.sh)
#   hetrd SIZES TYPE ENGINES
#                      mgblas-tester hetrd --eig, two stages (band 32), profiled phases on
#                      '#' lines, one timed call after 1 warm-up, once per value of
#                      MGBLAS_SY2SB_HEMM_TSGEMM in ENGINES (e.g. 1,0); against cuSOLVER's
#                      ?sytrd / ?hetrd and Xsyevd on the first value only (NOREF=1: never);
#                      $OUT/hetrd.csv
# e.g. bash bench/results/h200-hemm-tsgemm.sh build hetrd 16384,32768 s 1,0
source "$(dirname "$0")/device_steps.sh"
while [ $# -gt 0 ]; do
  case $1 in
    build)
      shift; [ -f "$B/CMakeCache.txt" ] || hc+=(-DMGBLAS_INSTANCES=ci)
      device_build mgblas-tester test_hetrd_2stage_gpu test_heevd_gpu ;;
    ctest)
      device_ctest "$2"; shift 2 ;;
    hetrd)
      sizes=$2 type=$3 engines=$4; shift 4; ref=$(ref_flag)
      for e in ${engines//,/ }; do
        echo "# MGBLAS_SY2SB_HEMM_TSGEMM=$e"
        MGBLAS_SY2SB_HEMM_TSGEMM=$e timeout "${TO:-400}" "$T" hetrd -n "$sizes" --type "$type" --nb 256 \
          --band 32 --eig --no-one-stage --profile --niter 1 --warmup 1 --no-check "$ref" \
          --csv "$OUT/hetrd-$type-$e.csv" | grep -v "^# \(command\|time\|binding\|NCCL\)"
        ref=--no-ref
      done ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
