#!/usr/bin/env bash
# The device commands behind h200-sy2sb-update.md (issue 33: stage one's deferred update,
# the pending columns before the trailing rank-2k update; one H200, each call <= 10 min):
#   build          configure build-dev (Release, sm_90), build mgblas-tester and the GPU tests
#                  of the two-stage paths (test_hetrd_2stage_gpu, test_heevd_gpu,
#                  test_reductions_2d_gpu, test_cuda_band_to_tridiag), all cores; logs to $OUT
#   ctest REGEX    ctest -R REGEX --output-on-failure in build-dev, log to $OUT/ctest-<REGEX>.log
#   sweep SIZES WIDTHS [EXTRA]
#                  per width W (MGBLAS_SY2SB_UPDATE=W; W = 32 = band is the panel-by-panel
#                  order): mgblas-tester hetrd --band 32 --no-one-stage --no-ref, d, nb 256,
#                  median of $REPEAT (default 3) after 1 warm-up (EXTRA: more options, one
#                  word), its two-stage line prefixed with W
#   ranks NP SIZES [EXTRA]
#                  mpirun -np NP mgblas-tester hetrd --band 32 --no-one-stage --no-ref: the
#                  two-stage path over NP ranks sharing the machine's GPUs (1 rank: all of them)
#   hetrd SIZES [EXTRA]
#                  mgblas-tester hetrd --band 32 --eig (one-stage, two-stage and cuSOLVER in
#                  the same process), rows to $OUT/hetrd.csv
#   heevd SIZES [EXTRA]
#                  mgblas-tester heevd --vectors all --stages one,two, rows to $OUT/heevd.csv
# e.g. bash bench/results/h200-sy2sb-update.sh build ctest 2stage_gpu sweep 8192,16384 32,256,512
# shellcheck source=bench/results/device_steps.sh
source "$(dirname "$0")/device_steps.sh"
while [ $# -gt 0 ]; do
  case $1 in
    build)
      shift
      device_build mgblas-tester test_hetrd_2stage_gpu test_heevd_gpu test_reductions_2d_gpu \
                   test_cuda_band_to_tridiag ;;
    ctest)
      device_ctest "$2"; shift 2 ;;
    sweep)
      sizes=$2 widths=$3; shift 3; extra=$(extra_of "$@"); [ -n "$extra" ] && shift
      for w in ${widths//,/ }; do
        # shellcheck disable=SC2086 # extra holds several options
        MGBLAS_SY2SB_UPDATE=$w timeout 300 "$T" hetrd -n "$sizes" --type d --nb 256 --band 32 \
          --no-one-stage --no-ref --niter "${REPEAT:-3}" --warmup 1 --no-check $extra | grep "two-stage (band" | sed "s/^/update $w /"
      done ;;
    ranks)
      np=$2 sizes=$3; shift 3; extra=$(extra_of "$@"); [ -n "$extra" ] && shift
      # shellcheck disable=SC2086
      timeout 300 mpirun --oversubscribe --bind-to none -np "$np" "$T" hetrd -n "$sizes" --type d \
        --nb 256 --band 32 --no-one-stage --no-ref --niter "${REPEAT:-3}" --warmup 1 --no-check $extra |
        grep "two-stage (band\|GPUs in all" | sed "s/^/np $np /" ;;
    hetrd)
      sizes=$2; shift 2; extra=$(extra_of "$@"); [ -n "$extra" ] && shift
      # shellcheck disable=SC2086
      timeout 400 "$T" hetrd -n "$sizes" --type d --nb 256 --band 32 --eig --niter "${REPEAT:-3}" --warmup 1 \
        --no-check $extra --csv "$OUT/hetrd.csv" | grep -v "^# \(command\|time\)" ;;
    heevd)
      sizes=$2; shift 2; extra=$(extra_of "$@"); [ -n "$extra" ] && shift
      # shellcheck disable=SC2086
      timeout 400 "$T" heevd -n "$sizes" --type d --nb 256 --vectors all --stages one,two \
        --repeat "${REPEAT:-3}" --warmup 1 $extra --csv "$OUT/heevd.csv" | grep -v "^# \(command\|time\)" ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
