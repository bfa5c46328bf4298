# SPDX-License-Identifier: BSD-3-Clause
# before/after on one GPU: RUNS (tester lines) on the BEFORE tree's build, then on this one
# Sourced by bench/device.sh (was bench/ab_one_gpu_device.sh). Builds the tree before the
# change (BEFORE=dir, e.g. `git archive REV | tar -x -C dir`; its testers only) in
# build-before and this tree (SRC) in build-after at the same time, half the cores each
# (ab_build.sh), runs this tree's GPU tests (CTEST_ARGS, none when unset), then each line of
# RUNS on the before build and right after it on this one. A line is a routine and its
# options, e.g. "hetrd -n 4096 --type d --niter 3" (a leading "tester_" is dropped): a tree
# from before mgblas-tester runs its tests/testers/tester_<routine>. Every reduction tester
# times cuSOLVER on the same matrix in the same process, so each run carries its own
# reference. Logs and CSVs under OUT_DIR/ab/; the testers' rows last, before then after.
#
#   env BEFORE=dir RUNS="line\nline" [TARGETS=...] [BEFORE_TARGETS=...] [CTEST_ARGS=...]
before_src=${BEFORE:?set BEFORE to the source tree before the change}
jobs=$(($(nproc) / 2))
stamp "build before and after ($jobs jobs each)"
# The before tree's tester targets: mgblas-tester, or the old per-routine binaries.
if [ -f "$before_src/testers/mgblas_tester.cpp" ]; then before_targets=mgblas-tester
else before_targets="tester_hetrd tester_gebrd"; fi
# shellcheck disable=SC2086 # lists
build "$before_src" "$root/build-before" "$out/build-before.log" ${BEFORE_TARGETS:-$before_targets} &
# shellcheck disable=SC2086
build "$src" "$root/build-after" "$out/build-after.log" ${TARGETS:-all} ||
  { grep -B2 -A12 error "$out/build-after.log" | head -60; exit 1; }
wait $! || { grep -B2 -A12 error "$out/build-before.log" | head -60; exit 1; }
stamp "built"
if [ -n "${CTEST_ARGS:-}" ]; then
  # shellcheck disable=SC2086
  (cd "$root/build-after" && timeout 900 ctest $CTEST_ARGS --output-on-failure --timeout 600 \
    >"$out/ctest.log" 2>&1)
  grep -E "tests passed|Failed|\*\*\*|Test +#" "$out/ctest.log" | tail -30
  stamp "tests done"
fi
while IFS= read -r line; do
  [ -n "$line" ] || continue
  line=${line#tester_}
  routine=${line%% *} args=${line#"$routine"}
  for side in before after; do
    echo "## $side: $line" >>"$out/$side.log"
    # shellcheck disable=SC2046,SC2086 # the command and its options split on spaces
    timeout 600 "${mpi[@]}" -np 1 $(tester_cmd "$root/build-$side" "$routine") $args \
      --csv "$out/$side.csv" </dev/null >>"$out/$side.log" 2>&1
  done
done <<<"${RUNS:-}"
stamp "runs done"
for side in before after; do
  [ -s "$out/$side.log" ] && { echo "## $side"; grep -E '^ +[sdcz] |^## ' "$out/$side.log"; }
done
exit 0
