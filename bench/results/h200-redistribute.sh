#!/usr/bin/env bash
# The device commands behind h200-redistribute.md (issue 36, item 1; each call <= 10 min):
#   build, ctest TAG REGEX   as h200-edges.sh's steps of those names (build-dev, logs to $OUT)
#   bench NP GRID SIZES TYPES [EXTRA]
#                            mpirun -np NP mgblas-tester redistribute on a GRID process grid
#                            (PxQ), mb = 64, rows to $OUT/redistribute.csv
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
here=$(dirname "$0"); B=$PWD/build-dev
while [ $# -gt 0 ]; do
  case $1 in
    build) bash "$here/h200-edges.sh" build || exit 1; shift ;;
    ctest) bash "$here/h200-edges.sh" ctest "$2" "$3"; shift 3 ;;
    bench)
      np=$2 grid=$3 sizes=$4 types=$5 extra=$6; shift 6
      # shellcheck disable=SC2086 # extra holds several options
      timeout 400 mpirun --oversubscribe --bind-to none -np "$np" "$B/testers/mgblas-tester" \
        redistribute -n "$sizes" --type "$types" --grid "$grid" --mb 64 --nb 256 --niter 3 \
        --warmup 1 $extra --csv "$OUT/redistribute.csv" | grep -v "^# \(command\|time\)" ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
