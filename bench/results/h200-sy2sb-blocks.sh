#!/usr/bin/env bash
# The device commands behind h200-sy2sb-blocks.md (issue 33 item 4: stage one's product
# A22 V over several devices, a device's blocks together; kinds nvidia-h200 and -x2):
#   build          h200-sy2sb-update.sh's build, plus test_cuda_sy2sb_blocks
#   shapes         python3 h200-sy2sb-blocks-shapes.py: the cuBLAS shapes, one GPU
#   anything else  h200-sy2sb-update.sh's steps (ctest REGEX, ranks NP SIZES, hetrd SIZES, ...)
# e.g. bash bench/results/h200-sy2sb-blocks.sh build ctest sy2sb_blocks ranks 2 16384,32768
# shellcheck source=bench/results/device_steps.sh
source "$(dirname "$0")/device_steps.sh"
D=$(dirname "$0")
while [ $# -gt 0 ]; do
  case $1 in
    build)
      shift
      device_build mgblas-tester test_hetrd_2stage_gpu test_heevd_gpu test_reductions_2d_gpu \
                   test_cuda_band_to_tridiag test_cuda_sy2sb_blocks ;;
    shapes)
      shift; PYTHONUNBUFFERED=1 python3 "$D/h200-sy2sb-blocks-shapes.py" ;;
    ctest)
      device_ctest "$2"; shift 2 ;;
    ranks|sweep|hetrd|heevd)
      # one step of the update script: its arguments run up to the next step name
      step=("$1"); shift
      while [ $# -gt 0 ] && ! [[ $1 =~ ^(build|shapes|ctest|ranks|sweep|hetrd|heevd)$ ]]; do step+=("$1"); shift; done
      bash "$D/h200-sy2sb-update.sh" "${step[@]}" ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
