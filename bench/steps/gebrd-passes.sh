# SPDX-License-Identifier: BSD-3-Clause
# gebrd's one-pass row step: its GPU tests, then mgblas-tester gebrd --pass two against auto
# Sourced by bench/device.sh (was bench/gebrd_passes_device.sh): the GPU tests, then
# mgblas-tester gebrd with the two GEMVs on every column (--pass two, against cuSOLVER) and
# with GebrdOptions' default (--pass auto: the fused row step while the trailing matrix is
# large) on the same matrices in the same call; logs and CSVs under OUT_DIR/gebrd-passes/.
#
#   env PASSES_MODE=tests|bench|all   (default all)
#   env CTEST_REGEX  which GPU tests (default: gebrd_gpu|labrd)
#   env SIZES        square sizes, d (default: 4096,8192,16384)
#   env EXTRA        more mgblas-tester gebrd arguments for both runs (e.g. "--type d,z")
mode=${PASSES_MODE:-all}
targets=(mgblas-tester test_gebrd_gpu)
grep -q test_labrd_fused_host "$root/tests/kernels/CMakeLists.txt" && targets+=(test_labrd_fused_host)
need "${targets[@]}" || exit 1
if [ "$mode" != bench ]; then
  (cd "$build" && ctest -R "${CTEST_REGEX:-gebrd_gpu|labrd}" --output-on-failure --timeout 600 \
    >"$out/ctest.log" 2>&1)
  grep -E "tests passed|Test +#|Failed|\*\*\*" "$out/ctest.log" | tail -20
  stamp "tests done"
fi
if [ "$mode" != tests ]; then
    # shellcheck disable=SC2086
  for pass in two auto; do
    flag=(--pass auto --no-ref)
    [ $pass = two ] && flag=(--pass two)
    "${mpi[@]}" -np 1 "$tester" gebrd -n "${SIZES:-4096,8192,16384}" --type d --niter 1 --warmup 1 --profile \
      --check-max-n 4096 ${EXTRA:-} "${flag[@]}" --csv "$out/gebrd-$pass.csv" </dev/null \
      >"$out/gebrd-$pass.log" 2>&1
    stamp "$pass pass(es) done"
  done
  echo "## two passes (GEMVs), with cuSOLVER"; grep -v "^\[" "$out/gebrd-two.log" | tail -n +4
  echo "## default (fused row step on large trailing matrices)"
  grep -v "^\[" "$out/gebrd-auto.log" | tail -n +6
fi
