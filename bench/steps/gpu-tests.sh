# SPDX-License-Identifier: BSD-3-Clause
# ctest -L gpu on BUILD (env CTEST_ARGS replaces the selection, e.g. "-R gebrd_gpu|labrd")
# Sourced by bench/device.sh. The tester checks (label tester) run mgblas-tester.
[ -f "$build/build.ninja" ] || need all || exit 1
stamp "ctest ${CTEST_ARGS:--L gpu}"
# OpenBLAS keeps to one thread per rank so that concurrent MPI tests do not oversubscribe.
# shellcheck disable=SC2086 # CTEST_ARGS is a list
(cd "$build" && OPENBLAS_NUM_THREADS=1 timeout "${CTEST_TIMEOUT:-1200}" ctest ${CTEST_ARGS:--L gpu} \
  --output-on-failure --timeout 600 >"$out/ctest.log" 2>&1)
rc=$?
grep -E "Test +#|tests passed|tests failed|\*\*\*Failed|Timeout|Not Run" "$out/ctest.log" | tail -40
grep -A30 "The following tests FAILED" "$out/ctest.log" | head -30
exit $rc
