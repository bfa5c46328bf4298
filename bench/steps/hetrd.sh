# SPDX-License-Identifier: BSD-3-Clause
# tridiagonal reduction: mgblas-tester hetrd against cuSOLVER (HETRD_CASES)
# Sourced by bench/device.sh (was bench/hetrd_device.sh).
# The tridiagonal-reduction benchmark on the GPUs of one machine (after a build):
# mgblas-tester hetrd against cuSOLVER on the same matrices; rows go to OUT_DIR/hetrd/hetrd.csv.
# Which cases: env HETRD_CASES (default "one"):
#   one    1 GPU: d and s at n = 4096, 8192, 16384, 32768; c, z at 16384; upper d at 8192
#   quick  1 GPU: d at 4096, 8192, 16384 (and the profile)
#   two    d at 16384, 32768: one of the GPUs (with cuSOLVER), then both as 1 rank x 2
#          and as 2 ranks x 1, all in the same call
#   eig    1 GPU: eigenvalues only (hetrd + tridiag_eigenvalues_mgpu) against
#          cusolverDnXsyevd, d at 4096, 8192, 16384
need mgblas-tester || exit 1
csv=$out/hetrd.csv
run() { echo "## $*"; "$@" --csv "$csv"; }
case ${HETRD_CASES:-one} in
  quick)
    run "${mpi[@]}" -np 1 "$tester" hetrd -n 4096,8192,16384 --type d --niter 3 --profile ;;
  one)
    run "${mpi[@]}" -np 1 "$tester" hetrd -n 4096,8192,16384 --type d,s --niter 3 --profile
    run "${mpi[@]}" -np 1 "$tester" hetrd -n 32768 --type d,s --niter 1 --warmup 1 --no-check --profile
    run "${mpi[@]}" -np 1 "$tester" hetrd -n 16384 --type c,z --niter 1 --warmup 1 --profile
    run "${mpi[@]}" -np 1 "$tester" hetrd -n 8192 --type d --uplo U --niter 3 ;;
  eig)
    run "${mpi[@]}" -np 1 "$tester" hetrd -n 4096,8192,16384 --type d --niter 1 --warmup 1 --no-check --eig ;;
  two)
    MGBLAS_DEVICES=0 run "${mpi[@]}" -np 1 "$tester" hetrd -n 16384,32768 --type d --niter 1 --warmup 1 --no-check
    run "${mpi[@]}" -np 1 "$tester" hetrd -n 16384,32768 --type d --niter 1 --warmup 1 --no-check --no-ref --profile
    run "${mpi[@]}" -np 2 "$tester" hetrd -n 16384,32768 --type d --niter 1 --warmup 1 --no-check --no-ref --profile ;;
esac
