#!/usr/bin/env bash
# The device commands behind h200-chase-latency.md (the bulge chases' per-task latency; one
# H200, each call <= 10 min). Steps, run in order:
#   build            configure build-dev (Release, sm_90; a fresh one with MGBLAS_INSTANCES=ci:
#                    the two-stage paths use none of the tuned level-2 instances) and build
#                    the tester and the chases' GPU tests, all cores; logs to $OUT
#   ctest REGEX      ctest -R REGEX in build-dev (device_steps.sh)
#   chase SIZES B TYPES [EXTRA]
#                    mgblas-tester band2tri: the tridiagonal chase alone, median of 3 after 1
#                    warm-up; rows appended to $OUT/band2tri.csv
#   hetrd SIZES      mgblas-tester hetrd --eig, two stages (band 32) and cusolverDnDsytrd /
#                    Xsyevd on the same matrix, median of REPEAT (3) after 1 warm-up, profiled
#                    phases on '#' lines; $OUT/hetrd.csv
#   svd SIZES [EXTRA]
#                    mgblas-tester svd, two stages, no vectors unless EXTRA says, against
#                    Xgesvdp; $OUT/svd.csv
# e.g. bash bench/results/h200-chase-latency.sh build ctest '^test_cuda_band_to' chase 8192,32768 32 d
source "$(dirname "$0")/device_steps.sh"
while [ $# -gt 0 ]; do
  case $1 in
    build)
      shift; [ -f "$B/CMakeCache.txt" ] || hc+=(-DMGBLAS_INSTANCES=ci)
      device_build mgblas-tester test_cuda_band_to_tridiag test_cuda_band_to_bidiag \
                   test_hetrd_2stage_gpu test_gesvd_gpu ;;
    ctest)
      device_ctest "$2"; shift 2 ;;
    chase)
      sizes=$2 bw=$3 types=$4; shift 4; extra=$(extra_of "$@"); [ -n "$extra" ] && shift
      # shellcheck disable=SC2086 # extra holds options
      timeout 300 "$T" band2tri -n "$sizes" -b "$bw" --type "$types" --niter 3 --warmup 1 \
        --lapack-max-n 0 $extra --csv "$OUT/band2tri.csv" | grep -v "^# \(command\|time\)" ;;
    hetrd)
      sizes=$2; shift 2
      timeout 400 "$T" hetrd -n "$sizes" --type d --nb 256 --band 32 --eig --no-one-stage \
        --profile --niter "${REPEAT:-3}" --warmup 1 --no-check --csv "$OUT/hetrd.csv" |
        grep -v "^# \(command\|time\)" ;;
    svd)
      sizes=$2; shift 2; extra=$(extra_of "$@"); [ -n "$extra" ] && shift
      # shellcheck disable=SC2086
      timeout 400 "$T" svd -n "$sizes" --type d --nb 256 --stages two --vectors none --gesvd-max-n 0 \
        --repeat "${REPEAT:-3}" --warmup 1 $extra --csv "$OUT/svd.csv" | grep -v "^# \(command\|time\)" ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
