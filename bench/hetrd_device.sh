#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The tridiagonal-reduction benchmark on the GPUs of one machine (after a build):
# tester_hetrd against cuSOLVER on the same matrices; rows go to $OUT/hetrd.csv when OUT
# is set. Which cases: env CASES (default "one"):
#   one    1 GPU: d and s at n = 4096, 8192, 16384, 32768; c, z at 16384; upper d at 8192
#   quick  1 GPU: d at 4096, 8192, 16384 (and the profile)
#   two    d at 16384, 32768: one of the GPUs (with cuSOLVER), then both as 1 rank x 2
#          and as 2 ranks x 1, all in the same call
#   eig    1 GPU: eigenvalues only (hetrd + tridiag_eigenvalues_mgpu) against
#          cusolverDnXsyevd, d at 4096, 8192, 16384
#   env BIN=path/to/tester_hetrd
set -uo pipefail
export NCCL_NVLS_ENABLE=0
bin=${BIN:-build/tests/testers/tester_hetrd}
csv=${OUT:-.}/hetrd.csv
mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none -x NCCL_NVLS_ENABLE)
run() { echo "## $*"; "$@" --csv "$csv"; }
case ${CASES:-one} in
  quick)
    run "${mpi[@]}" -np 1 "$bin" -n 4096,8192,16384 --type d --niter 3 --profile ;;
  one)
    run "${mpi[@]}" -np 1 "$bin" -n 4096,8192,16384 --type d,s --niter 3 --profile
    run "${mpi[@]}" -np 1 "$bin" -n 32768 --type d,s --niter 1 --warmup 1 --no-check --profile
    run "${mpi[@]}" -np 1 "$bin" -n 16384 --type c,z --niter 1 --warmup 1 --profile
    run "${mpi[@]}" -np 1 "$bin" -n 8192 --type d --uplo U --niter 3 ;;
  eig)
    run "${mpi[@]}" -np 1 "$bin" -n 4096,8192,16384 --type d --niter 1 --warmup 1 --no-check --eig ;;
  two)
    MGBLAS_DEVICES=0 run "${mpi[@]}" -np 1 "$bin" -n 16384,32768 --type d --niter 1 --warmup 1 --no-check
    run "${mpi[@]}" -np 1 "$bin" -n 16384,32768 --type d --niter 1 --warmup 1 --no-check --no-ref --profile
    run "${mpi[@]}" -np 2 "$bin" -n 16384,32768 --type d --niter 1 --warmup 1 --no-check --no-ref --profile ;;
esac
