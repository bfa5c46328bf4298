#!/usr/bin/env bash
# The device commands behind h200-unmtr.md (one H200; each call <= 10 min):
#   build, ctest TAG REGEX, digest   as h200-edges.sh's steps of those names (kept there:
#                                    build-dev, logs and CSVs to $OUT)
#   bench          mgblas-tester unmtr against cuSOLVER, both triangles, rows to $OUT/unmtr.csv
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
here=$(dirname "$0"); B=$PWD/build-dev
mpi=(mpirun --oversubscribe --bind-to none -np 1)
while [ $# -gt 0 ]; do
  case $1 in
    build|digest) bash "$here/h200-edges.sh" "$1" || exit 1; shift ;;
    ctest) bash "$here/h200-edges.sh" ctest "$2" "$3"; shift 3 ;;
    bench)
      shift; t=$B/testers/mgblas-tester; csv=$OUT/unmtr.csv
      "${mpi[@]}" "$t" unmtr -n 4096,8192,16384 --type d --uplo L,U --niter 3 --check-max-n 8192 --csv "$csv"
      "${mpi[@]}" "$t" unmtr -n 8192 --type s,z --uplo L,U --niter 3 --csv "$csv"
      "${mpi[@]}" "$t" unmtr -n 16384 -k 1638 --type d --uplo L,U --niter 3 --no-check --csv "$csv" ;;
    *) echo "unknown step $1"; exit 2 ;;
  esac
done
