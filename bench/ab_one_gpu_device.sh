#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Before/after of a change on one GPU, in one call: builds the tree before the change
# (BEFORE=dir, e.g. `git archive REV | tar -x -C dir`; its testers only) and this tree at
# the same time, runs this tree's GPU tests (CTEST_ARGS), then each line of RUNS (tester
# command lines, e.g. "tester_hetrd -n 4096 --type d --niter 3") on the before build and
# right after it on this one. Every tester times cuSOLVER on the same matrix in the same
# process, so each run carries its own reference. Logs under OUT_DIR; the testers'
# summary lines last, before then after.
#
#   BEFORE=dir RUNS="..." bench/ab_one_gpu_device.sh OUT_DIR
set -uo pipefail
export NCCL_NVLS_ENABLE=0
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: BEFORE=dir RUNS=lines bench/ab_one_gpu_device.sh OUT_DIR}
before=${BEFORE:?set BEFORE to the source tree before the change}
mkdir -p "$out"
stamp() { echo "[$(date +%T)] $*"; }
# shellcheck source=bench/ab_build.sh
source "$root/bench/ab_build.sh"
stamp "build before and after ($(nproc) cores)"
build "$before" "$root/build-before" "$out/build-before.log" tester_hetrd tester_gebrd &
# shellcheck disable=SC2086
build "$root" "$root/build-after" "$out/build-after.log" ${TARGETS:-all} ||
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
mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none -x NCCL_NVLS_ENABLE)
while IFS= read -r line; do
  [ -n "$line" ] || continue
  for side in before after; do
    echo "## $side: $line" >>"$out/$side.log"
    # shellcheck disable=SC2086
    timeout 600 "${mpi[@]}" -np 1 "$root/build-$side/tests/testers/"$line \
      --csv "$out/$side.csv" </dev/null >>"$out/$side.log" 2>&1
  done
done <<<"${RUNS:-}"
stamp "runs done"
for side in before after; do
  [ -s "$out/$side.log" ] && { echo "## $side"; grep -E '^ +[sdcz] |^## ' "$out/$side.log"; }
done
exit 0
