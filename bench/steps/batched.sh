# SPDX-License-Identifier: BSD-3-Clause
# batched GEMM: its GPU tests, mgblas-tune batched, mgblas-tester batched with that table
# Sourced by bench/device.sh (was bench/batched_device.sh); about 3 minutes on an H200:
#   1. the GPU tests (test_cuda_batched_engine; test_batched_host as well),
#   2. the autotuner (mgblas-tune batched): a measured table for this GPU in the shared
#      schema of kernels/cuda/tuning/tuning_table.hpp (<out>/sm_XX.json, every candidate
#      in <out>/tune_candidates.csv),
#   3. mgblas-tester batched against cuBLAS with that table: strided and pointer arrays at
#      m = 2..64 and the small-k shapes, batch 100000 (and 10000), variable sizes
#      (uniform and Gaussian, maxima 32 and 128), s, d, c, z;
# then a CSV and a markdown table per tester run (with the command line),
# <out>/batched_results.md with everything, and a short table of the issue's targets
# printed last. Every part has a timeout and the step carries on after a failure.
#
#   env BATCHED_MODE=quick   a smaller sweep (tests filtered, s and d only)
# To adopt the measured table: copy <out>/sm_90.json to kernels/cuda/batched/tables/
# (it is built into the library and installed), or point MGBLAS_TUNING_TABLE at it.
mode=${BATCHED_MODE:-full}
need test_cuda_batched_engine test_batched_host mgblas-tune mgblas-tester || exit 1
status=()
step() {  # step <name> <timeout-seconds> <command...>: log to <out>/<name>.log
  local name=$1 limit=$2
  shift 2
  stamp "$name: $*"
  echo "\$ $*" >"$out/$name.log"
  timeout --kill-after=10 "$limit" "$@" >>"$out/$name.log" 2>&1
  local rc=$?
  [ $rc -eq 124 ] && echo "(timed out after ${limit}s)" >>"$out/$name.log"
  status+=("$name exit $rc")
  stamp "$name: exit $rc"
  return 0
}

test_bin=$build/tests/kernels/test_cuda_batched_engine
host_bin=$build/tests/kernels/test_batched_host
tune_bin=$tune
tester_bin=$tester
for b in "$test_bin" "$host_bin" "$tune_bin" "$tester_bin"; do
  [ -x "$b" ] || echo "missing $b"
done
cp "$out_root/gpu.txt" "$out/gpu.txt"
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d '.')
arch=sm_${cc:-90}
types=s,d,c,z
[ "$mode" = quick ] && types=s,d

# 1. tests ---------------------------------------------------------------------------------
filter='*'
[ "$mode" = quick ] && filter='*/d.*:*Dispatch*'
step test_batched_host 60 "$host_bin" --gtest_brief=1
step test_cuda_batched_engine 420 "$test_bin" --gtest_brief=1 "--gtest_filter=$filter"
grep -E "^\[  (PASSED|FAILED)|^\[  FAILED|tests ran" "$out/test_cuda_batched_engine.log" | head -40

# 2. the tuner ---------------------------------------------------------------------------
unset MGBLAS_TUNING_TABLE MGBLAS_BATCHED_TABLE
step tune 240 "$tune_bin" batched --type "$types" --sizes 1:64 --ops NN --iface strided,variable \
  --niter 5 --warmup 1 --time-budget 150 --out "$out/$arch.json" --csv "$out/tune_candidates.csv"
grep -E "^# (summary|wrote|time budget)" "$out/tune.log"

# 3. the tester, with the measured table ----------------------------------------------------
if [ -s "$out/$arch.json" ]; then export MGBLAS_TUNING_TABLE=$out/$arch.json; fi
tester() {  # tester <name> <args...>
  local name=$1
  shift
  step "$name" 300 "$tester_bin" batched "$@" --csv "$out/$name.csv" --md "$out/$name.md"
}
sizes=2,3,4,5,6,8,12,16,24,32,48,64
tester fixed --iface strided,array --type "$types" -n $sizes --smallk --batch 100000
tester fixed_10k --iface strided --type "$types" -n 2,4,8,16,32,64 --batch 10000
tester variable --iface variable --type "$types" --vmax 32,128 --dist uniform,gaussian \
  --vbatch 10000 --loop-max 20000
tester fixed_beta0 --iface strided --type "$types" -n 2,4,8,16 --batch 100000 --scalars beta0

# 4. report ---------------------------------------------------------------------------------
{
  echo "# Batched GEMM engine on $(head -2 "$out/gpu.txt" | tail -1 | cut -d, -f2 | sed 's/^ //')"
  echo
  echo "Command: \`BATCHED_MODE=$mode bench/device.sh batched\` ($(date -u '+%F %H:%M UTC'))"
  echo
  echo "Steps: ${status[*]}"
  echo
  echo "## Tests"
  echo '```'
  grep -E "^\[  (PASSED|FAILED)|^\[  FAILED|tests ran|Failure" "$out/test_cuda_batched_engine.log" | head -40
  echo '```'
  echo "## Tuner"
  echo '```'
  grep -E "^# " "$out/tune.log"
  echo '```'
  for f in fixed fixed_10k variable fixed_beta0; do
    [ -f "$out/$f.md" ] && { echo "## tester: $f"; echo; cat "$out/$f.md"; echo; }
  done
} >"$out/batched_results.md"

python3 - "$out" <<'EOF' | tee "$out/summary.txt"
# The issue's targets from the tester CSVs (a short table, printed last).
import csv, os, sys
out = sys.argv[1]
def rows(name):
    p = os.path.join(out, name + ".csv")
    return list(csv.DictReader(open(p))) if os.path.exists(p) else []
def f(x):
    try: return float(x)
    except ValueError: return 0.0
fixed = rows("fixed")
print("%-44s %-10s %s" % ("target (batch 100000 unless said)", "result", "detail"))
def report(name, cases, ok, detail):
    if not cases:
        print("%-44s %-10s %s" % (name, "no data", "")); return
    good = sum(1 for c in cases if ok(c))
    print("%-44s %-10s %s" % (name, "%d/%d" % (good, len(cases)), detail(cases)))
def mnk(c):
    s = c["shape"].split("x"); return [int(v) for v in s] if len(s) == 3 else [0, 0, 0]
small = [c for c in fixed if mnk(c)[0] == mnk(c)[1] == mnk(c)[2] and mnk(c)[0] <= 16]
report("m<=16 square: >= 60% of read bandwidth", small, lambda c: f(c["pct_read_bw"]) >= 60,
       lambda cs: "min %.0f%% median %.0f%%" % (min(f(c["pct_read_bw"]) for c in cs),
                                             sorted(f(c["pct_read_bw"]) for c in cs)[len(cs)//2]))
le8 = [c for c in small if mnk(c)[0] <= 8]
report("m<=8: >= 5x cuBLAS", le8, lambda c: f(c["speedup"]) >= 5,
       lambda cs: "min %.1fx" % min(f(c["speedup"]) for c in cs))
m16 = [c for c in small if mnk(c)[0] == 16]
report("m=16: >= 1.5x cuBLAS", m16, lambda c: f(c["speedup"]) >= 1.5,
       lambda cs: "min %.2fx" % min(f(c["speedup"]) for c in cs))
big = [c for c in fixed if mnk(c)[0] in (32, 64) and mnk(c)[0] == mnk(c)[2]]
report("m=32, 64: >= 1.0x cuBLAS", big, lambda c: f(c["speedup"]) >= 0.995,
       lambda cs: "min %.2fx" % min(f(c["speedup"]) for c in cs))
sk = [c for c in fixed if mnk(c)[0] == mnk(c)[1] and mnk(c)[0] != mnk(c)[2]]
report("small-k shapes: faster than cuBLAS", sk, lambda c: f(c["speedup"]) >= 1.0,
       lambda cs: "min %.2fx" % min(f(c["speedup"]) for c in cs))
var = rows("variable")
report("variable: >= 3x the stream loop", var, lambda c: f(c["loop_speedup"]) >= 3,
       lambda cs: "min %.1fx" % min(f(c["loop_speedup"]) for c in cs))
vg = [c for c in var if f(c["ref_ms"]) > 0]
report("variable: >= 1.5x cuBLAS grouped (s, d)", vg, lambda c: f(c["speedup"]) >= 1.5,
       lambda cs: "min %.2fx" % min(f(c["speedup"]) for c in cs))
allrows = fixed + rows("fixed_10k") + var + rows("fixed_beta0")
report("checks passed (all tester rows)", allrows, lambda c: c["status"] == "ok", lambda cs: "")
tune = os.path.join(out, "tune.log")
if os.path.exists(tune):
    for line in open(tune):
        if line.startswith("# summary"):
            print(line.strip()[2:])
EOF
stamp "done: ${status[*]}"
