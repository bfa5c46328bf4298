# SPDX-License-Identifier: BSD-3-Clause
# the reductions' benchmarks: the steps hetrd and gebrd in turn (REDUCTIONS="hetrd gebrd")
# Sourced by bench/device.sh (was the bench part of bench/lapack_device.sh; its build and
# tests are the steps build and gpu-tests). Each takes its cases from HETRD_CASES and
# GEBRD_CASES (default one); rows into OUT_DIR/reductions/<name>/<name>.csv.
reductions_out=$out
for r in ${REDUCTIONS:-hetrd gebrd}; do
  stamp "reductions: $r"
  (out=$reductions_out/$r && mkdir -p "$out" && source "$steps_dir/$r.sh") 2>&1 |
    tee "$reductions_out/bench-$r.log" | grep -v "^\[" | tail -40
done
