# SPDX-License-Identifier: BSD-3-Clause
# hetrd's Q applied to C: mgblas-tester unmtr against cuSOLVER ormtr/unmtr (UNMTR_CASES)
# Sourced by bench/device.sh. Rows go to OUT_DIR/unmtr/unmtr.csv.
# Which cases: env UNMTR_CASES (default "one"):
#   one    1 GPU: d at n = K = 4096, 8192, 16384 and 16384 x 1638; s, z at 8192; both triangles
#   two    d at 16384: one of the GPUs (with cuSOLVER), then both as 1 rank x 2 and 2 ranks x 1
need mgblas-tester || exit 1
csv=$out/unmtr.csv
run() { echo "## $*"; "$@" --csv "$csv"; }
case ${UNMTR_CASES:-one} in
  one)
    run "${mpi[@]}" -np 1 "$tester" unmtr -n 4096,8192,16384 --type d --uplo L,U --niter 3 --check-max-n 8192
    run "${mpi[@]}" -np 1 "$tester" unmtr -n 8192 --type s,z --uplo L,U --niter 3
    run "${mpi[@]}" -np 1 "$tester" unmtr -n 16384 -k 1638 --type d --uplo L,U --niter 3 --no-check ;;
  two)
    MGBLAS_DEVICES=0 run "${mpi[@]}" -np 1 "$tester" unmtr -n 16384 --type d --niter 3 --no-check
    run "${mpi[@]}" -np 1 "$tester" unmtr -n 16384 --type d --niter 3 --no-check --no-ref
    run "${mpi[@]}" -np 2 "$tester" unmtr -n 16384 --type d --niter 3 --no-check --no-ref ;;
esac
