#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The bidiagonal-reduction benchmark on the GPUs of one machine (after a build):
# tester_gebrd against cuSOLVER on the same matrices; rows go to $OUT/gebrd.csv when OUT
# is set. Which cases: env CASES (default "one"):
#   quick  1 GPU: d at 4096 and 8192 (and the profile)
#   one    1 GPU: d and s at n = 4096, 8192, 16384 and 32768 x 4096; c, z at 8192
#   two    d at 8192, 16384: one of the GPUs (with cuSOLVER), then both as 1 rank x 2
#          and as 2 ranks x 1, all in the same call
#   env BIN=path/to/tester_gebrd
set -uo pipefail
export NCCL_NVLS_ENABLE=0
bin=${BIN:-build/tests/testers/tester_gebrd}
csv=${OUT:-.}/gebrd.csv
mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none -x NCCL_NVLS_ENABLE)
run() { echo "## $*"; "$@" --csv "$csv"; }
case ${CASES:-one} in
  quick)
    run "${mpi[@]}" -np 1 "$bin" -n 4096,8192 --type d --niter 2 --profile ;;
  one)
    run "${mpi[@]}" -np 1 "$bin" -n 4096,8192 --type d,s --niter 2 --profile
    run "${mpi[@]}" -np 1 "$bin" -n 16384 --type d,s --niter 1 --warmup 1 --profile
    run "${mpi[@]}" -np 1 "$bin" -m 32768 -n 4096 --type d,s --niter 1 --warmup 1 --profile
    run "${mpi[@]}" -np 1 "$bin" -n 8192 --type c,z --niter 1 --warmup 1 --profile ;;
  two)
    MGBLAS_DEVICES=0 run "${mpi[@]}" -np 1 "$bin" -n 8192,16384 --type d --niter 1 --warmup 1
    run "${mpi[@]}" -np 1 "$bin" -n 8192,16384 --type d --niter 1 --warmup 1 --no-ref --profile
    run "${mpi[@]}" -np 2 "$bin" -n 8192,16384 --type d --niter 1 --warmup 1 --no-ref --profile ;;
esac
