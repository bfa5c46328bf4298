# SPDX-License-Identifier: BSD-3-Clause
# bidiagonal reduction: mgblas-tester gebrd against cuSOLVER (GEBRD_CASES)
# Sourced by bench/device.sh (was bench/gebrd_device.sh).
# The bidiagonal-reduction benchmark on the GPUs of one machine (after a build):
# mgblas-tester gebrd against cuSOLVER on the same matrices; rows go to OUT_DIR/gebrd/gebrd.csv.
# Which cases: env GEBRD_CASES (default "one"):
#   quick  1 GPU: d at 4096 and 8192 (and the profile)
#   one    1 GPU: d and s at n = 4096, 8192, 16384 and 32768 x 4096; c, z at 8192
#   two    d at 8192, 16384: one of the GPUs (with cuSOLVER), then both as 1 rank x 2
#          and as 2 ranks x 1, all in the same call
need mgblas-tester || exit 1
csv=$out/gebrd.csv
run() { echo "## $*"; "$@" --csv "$csv"; }
case ${GEBRD_CASES:-one} in
  quick)
    run "${mpi[@]}" -np 1 "$tester" gebrd -n 4096,8192 --type d --niter 2 --profile ;;
  one)
    run "${mpi[@]}" -np 1 "$tester" gebrd -n 4096,8192 --type d,s --niter 2 --profile
    run "${mpi[@]}" -np 1 "$tester" gebrd -n 16384 --type d,s --niter 1 --warmup 1 --profile
    run "${mpi[@]}" -np 1 "$tester" gebrd -m 32768 -n 4096 --type d,s --niter 1 --warmup 1 --profile
    run "${mpi[@]}" -np 1 "$tester" gebrd -n 8192 --type c,z --niter 1 --warmup 1 --profile ;;
  two)
    MGBLAS_DEVICES=0 run "${mpi[@]}" -np 1 "$tester" gebrd -n 8192,16384 --type d --niter 1 --warmup 1
    run "${mpi[@]}" -np 1 "$tester" gebrd -n 8192,16384 --type d --niter 1 --warmup 1 --no-ref --profile
    run "${mpi[@]}" -np 2 "$tester" gebrd -n 8192,16384 --type d --niter 1 --warmup 1 --no-ref --profile ;;
esac
