#!/usr/bin/env bash
# The device commands behind h200-sy2sb-fused.md (issue 33: stage one's product A22 V on
# one GPU; kind nvidia-h200). The fused kernel (both products of a block off the diagonal
# from one read) is on branch attempt/hemm-fused, not on main: there the forms `fused*`
# run it; on main MGBLAS_SY2SB_NO_FUSED is not read and `gemms-B` is main's own path with
# diagonal squares of B.
#   build          configure build-dev (Release, sm_90); build mgblas-tester and the tests
#                  of the kernel and of the paths that use it
#   ctest REGEX    ctest -R REGEX --output-on-failure, log to $OUT/ctest-<REGEX>.log
#   compare SIZES  mgblas-tester hetrd --band 32 --no-one-stage --no-ref --profile, type
#                  $TYPE (default d), nb 256, median of $REPEAT (default 3) after 1 warm-up,
#                  per form of $FORMS (default "fused gemms"; gemms: MGBLAS_SY2SB_NO_FUSED, two cuBLAS gemms per
#                  block; -B after either: diagonal squares down to B columns,
#                  MGBLAS_SY2SB_HEMM_BLOCK): the two-stage line prefixed with the form
#   ncu REGEX N    Nsight Compute sections of one launch of the kernels matching REGEX
#                  (hemm_off_diagonal_kernel, chase_sweeps) in hetrd at n = N, to
#                  $OUT/ncu-REGEX-N.txt, the metric lines printed
#   hetrd SIZES    h200-sy2sb-update.sh's hetrd step (one-stage, two-stage and cuSOLVER in
#                  the same process), rows to $OUT/hetrd.csv
#   heevd SIZES    h200-sy2sb-update.sh's heevd step, rows to $OUT/heevd.csv
# e.g. bash bench/results/h200-sy2sb-fused.sh build ctest sy2sb_blocks compare 16384,32768
# shellcheck source=bench/results/device_steps.sh
source "$(dirname "$0")/device_steps.sh"
D=$(dirname "$0")
while [ $# -gt 0 ]; do
  case $1 in
    build)
      shift
      device_build mgblas-tester test_cuda_sy2sb_blocks test_hetrd_2stage_gpu test_heevd_gpu ;;
    ctest)
      device_ctest "$2"; shift 2 ;;
    compare)
      sizes=$2; shift 2
      for form in ${FORMS:-fused gemms}; do
        # fused[-BLOCK]: the kernel, diagonal squares down to BLOCK (MGBLAS_SY2SB_HEMM_BLOCK);
        # gemms: two cuBLAS gemms per block (MGBLAS_SY2SB_NO_FUSED)
        unset MGBLAS_SY2SB_NO_FUSED MGBLAS_SY2SB_HEMM_BLOCK
        [[ $form == gemms* ]] && export MGBLAS_SY2SB_NO_FUSED=1
        [[ $form == *-* ]] && export MGBLAS_SY2SB_HEMM_BLOCK=${form#*-}
        timeout 300 "$T" hetrd -n "$sizes" --type "${TYPE:-d}" --nb 256 --band 32 --no-one-stage \
          --no-ref --profile --niter "${REPEAT:-3}" --warmup 1 --no-check | grep "two-stage (band" | sed "s/^/$form /"
      done
      unset MGBLAS_SY2SB_NO_FUSED MGBLAS_SY2SB_HEMM_BLOCK ;;
    ncu)
      # Nsight Compute on one launch of kernel $2 (a regex; the 4th launch, or the 1st for a
      # kernel launched once per call: chase_sweeps) in hetrd at n = $3, clocks left alone
      skip=3; [[ $2 == chase* ]] && skip=0
      timeout 300 ncu --clock-control none -k "regex:$2" --launch-skip $skip --launch-count 1 \
        --section SpeedOfLight --section WarpStateStats --section Occupancy --section SchedulerStats \
        --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section LaunchStats \
        --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active" \
        "$T" hetrd -n "$3" --type d --nb 256 --band 32 --no-one-stage --no-ref --niter 1 \
        --warmup 0 --no-check > "$OUT/ncu-$2-$3.txt" 2>&1
      echo "ncu rc $?"; grep -E "^    [A-Za-z][A-Za-z_. /-]+  +[a-zA-Z%/]* +[0-9.,]+$" "$OUT/ncu-$2-$3.txt" | head -90
      shift 3 ;;
    hetrd|heevd)
      bash "$D/h200-sy2sb-update.sh" "$1" "$2"; shift 2 ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
