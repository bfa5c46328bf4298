# SPDX-License-Identifier: BSD-3-Clause
# distributed GEMV/SYMV/HEMV: test_dist_nccl, then mgblas-tester dist over the placements
# Sourced by bench/device.sh (was bench/dist_device.sh), on a machine of 2, 4 or 8 GPUs:
# the GPU+MPI tests, then the benchmark (mgblas-tester dist) in one rank driving k GPUs and
# in k ranks of one GPU each (k = 2, 4 and 8 as far as the GPUs go; 2 ranks x P/2 GPUs
# too on 4 or more), NCCL reducer (whole and pipelined in 4 chunks; the host reducer on 2
# GPUs). Every tester run also times mgblas on one GPU in its own process: the speedups
# are over that. About 3-5 minutes. OUT_DIR/dist/ gets tests.log, bench.log (every
# command and its output), dist_bench.csv (all rows, with the placement), dist_bench.md
# (tables and commands), summary.txt (the short table printed last).
#
#   env GPUS=n              GPUs to use (default: all visible, at most 8)
#   env SIZES=8192,32768    sizes of the first pass (every placement)
#   env BIG=65536           size of the second pass (the placements of the most GPUs),
#                           run while the elapsed time is below BIG_BEFORE_S (default
#                           300) seconds; BIG= skips it
#   env MID=32768           size of the SYMV path comparisons (engine, columns)
#   env SKIP_TESTS=1        benchmark only; SKIP_BENCH=1: tests only
#   env NITER=10 WARMUP=3   timed and untimed calls per case
#   env EXTRA="..."         more mgblas-tester dist options for every run (EXTRA="--backend
#                           host" with small SIZES tries the step on a machine without a GPU)
sizes=${SIZES:-8192,32768}
big=${BIG-65536}
mid=${MID:-32768}
big_before=${BIG_BEFORE_S:-300}
visible=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
gpus=${GPUS:-$((visible > 8 ? 8 : visible))}
[ "$gpus" -ge 1 ] || gpus=1
# GPU counts of the multi-GPU placements
counts=2
[ "$gpus" -ge 4 ] && counts="2 4"
[ "$gpus" -ge 8 ] && counts="2 4 8"
half=$((gpus / 2))  # GPUs per rank of the 2-rank placement
niter=${NITER:-10}
warmup=${WARMUP:-3}
start=$(date +%s)
elapsed() { echo $(($(date +%s) - start)); }
stamp() { echo "[$(date +%T) +$(elapsed)s] $*"; }

tests_log=$out/tests.log
bench_log=$out/bench.log
csv=$out/dist_bench.csv
md=$out/dist_bench.md
summary=$out/summary.txt
: >"$tests_log"
: >"$bench_log"
rm -f "$csv"
export MGBLAS_NCCL_TIMEOUT=${MGBLAS_NCCL_TIMEOUT:-120}
# As the CTest harness does: no cross-memory-attach in Open MPI's shared-memory path (VMs
# and containers often forbid it).
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
# Each rank picks its own GPU (node-local rank, hwloc locality): no device list here.
unset MGBLAS_DEVICES

# mpi_cmd NP: sets MPI to the mpirun line for NP ranks, forwarding the variables that are
# set now (so call it right before use).
mpi_cmd() {
  MPI=(mpirun --allow-run-as-root --oversubscribe --bind-to none -np "$1")
  local v
  for v in NCCL_NVLS_ENABLE MGBLAS_REDUCER MGBLAS_DIST_SYMV MGBLAS_NCCL_TIMEOUT \
           MGBLAS_PIPELINE_CHUNKS NCCL_DEBUG CUDA_VISIBLE_DEVICES; do
    [ -n "${!v+x}" ] && MPI+=(-x "$v")
  done
}
# first_gpus K: "0,1,...,K-1"
first_gpus() { seq -s, 0 $(($1 - 1)); }

test_bin=$build/tests/dist/test_dist_nccl
need test_dist_nccl mgblas-tester

{
  echo "# $(date -Is) $(hostname)"
  nvidia-smi -L 2>&1
  nvidia-smi topo -m 2>&1
  git -C "$root" log --oneline -1 2>/dev/null
} >>"$bench_log"

# run LOG TIMEOUT CMD...: runs one command, its line and output into LOG, keeps going.
run() {
  local log=$1 limit=$2
  shift 2
  {
    echo
    echo "\$ $*"
  } >>"$log"
  timeout --kill-after=20 "$limit" "$@" >>"$log" 2>&1
  local rc=$?
  echo "[exit $rc]" >>"$log"
  return $rc
}

verdict() {
  case $1 in
    0) echo passed ;;
    77) echo "skipped (no GPU)" ;;
    124 | 137) echo "TIMED OUT" ;;
    *) echo "FAILED (exit $1)" ;;
  esac
}

# ---- tests --------------------------------------------------------------------------
# One rank driving every GPU, every GPU its own rank, and (4 GPUs) 2 ranks x 2 GPUs.
test_results=()
if [ -z "${SKIP_TESTS:-}" ] && [ -x "$test_bin" ]; then
  stamp "test_dist_nccl, 1 rank x $gpus GPUs"
  MGBLAS_DEVICES=$(first_gpus "$gpus") run "$tests_log" 300 "$test_bin"
  test_results+=("1 rank x $gpus GPUs: $(verdict $?)")
  stamp "  ${test_results[-1]}"
  export CUDA_VISIBLE_DEVICES=$(first_gpus "$gpus")
  stamp "test_dist_nccl, $gpus ranks x 1 GPU"
  mpi_cmd "$gpus"
  run "$tests_log" 300 "${MPI[@]}" "$test_bin"
  test_results+=("$gpus ranks x 1 GPU: $(verdict $?)")
  stamp "  ${test_results[-1]}"
  if [ "$gpus" -ge 4 ]; then
    stamp "test_dist_nccl, 2 ranks x $half GPUs"
    mpi_cmd 2
    run "$tests_log" 300 "${MPI[@]}" "$test_bin"
    test_results+=("2 ranks x $half GPUs: $(verdict $?)")
    stamp "  ${test_results[-1]}"
  fi
  unset CUDA_VISIBLE_DEVICES
else
  test_results+=("skipped")
fi
tests_line=$(IFS=';'; echo "${test_results[*]}")

# ---- benchmark -----------------------------------------------------------------------
# bench PLACEMENT SIZES TYPE OPS [extra tester options]: one tester run, rows appended to
# the CSV with the placement in front. Placements: 1gpu, 1rank_<k>gpu (one process, GPUs
# 0..k-1), <k>rank_1gpu (mpirun, GPUs 0..k-1 visible, one per rank), 2rank_<P/2>gpu.
bench() {
  local placement=$1 n=$2 type=$3 ops=$4
  shift 4
  local part=$out/.part.csv
  rm -f "$part"
  local args=(--type "$type" --op "$ops" --trans N,T --uplo L -n "$n" --nb 256
              --reducer "${REDUCERS:-nccl}" --chunks "${CHUNKS:-1,4}" --niter "${NI:-$niter}" --warmup "${WU:-$warmup}"
              --csv "$part" "$@"
              ${EXTRA:-})
  local rc k
  case $placement in
    1gpu) MGBLAS_DEVICES=0 run "$bench_log" 240 "$tester" dist "${args[@]}"; rc=$? ;;
    1rank_*gpu)
      k=${placement#1rank_}; k=${k%gpu}
      MGBLAS_DEVICES=$(first_gpus "$k") run "$bench_log" 240 "$tester" dist "${args[@]}"; rc=$? ;;
    *rank_1gpu)
      k=${placement%rank_1gpu}
      export CUDA_VISIBLE_DEVICES=$(first_gpus "$k")
      mpi_cmd "$k"; run "$bench_log" 240 "${MPI[@]}" "$tester" dist "${args[@]}"; rc=$?
      unset CUDA_VISIBLE_DEVICES ;;
    2rank_*gpu)  # (after *rank_1gpu: 2rank_1gpu is one GPU per rank)
      export CUDA_VISIBLE_DEVICES=$(first_gpus "$gpus")
      mpi_cmd 2; run "$bench_log" 240 "${MPI[@]}" "$tester" dist "${args[@]}"; rc=$?
      unset CUDA_VISIBLE_DEVICES ;;
  esac
  stamp "  $placement $type $ops n=$n: exit $rc"
  if [ -s "$part" ]; then
    [ -s "$csv" ] || echo "placement,symv_path,$(head -1 "$part")" >"$csv"
    local path=${MGBLAS_DIST_SYMV:-kernel}
    tail -n +2 "$part" | sed "s/^/$placement,$path,/" >>"$csv"
  fi
  rm -f "$part"
}

placements=()
for k in $counts; do placements+=("1rank_${k}gpu" "${k}rank_1gpu"); done
[ "$gpus" -ge 4 ] && placements+=("2rank_${half}gpu")
most=${counts##* }
if [ -n "${SKIP_BENCH:-}" ]; then
  stamp "SKIP_BENCH set: no benchmark"
elif [ -x "$tester" ]; then
  for placement in "${placements[@]}"; do
    stamp "benchmark $placement, n = $sizes"
    # The host reducer once, on 2 GPUs (it is the slow path; NCCL elsewhere).
    reducers=nccl
    [ "$placement" = 1rank_2gpu ] || [ "$placement" = 2rank_1gpu ] && reducers=host,nccl
    REDUCERS=$reducers bench "$placement" "$sizes" d gemv,symv --vectors device
    REDUCERS=$reducers bench "$placement" "$sizes" z gemv,hemv --vectors device
  done
  # What the one-launch kernels buy over the engine's per-block products, and the tile
  # kernel over the column kernel.
  for path in columns engine; do
    stamp "benchmark 1rank_${most}gpu, $path SYMV path"
    CHUNKS=1 MGBLAS_DIST_SYMV=$path bench "1rank_${most}gpu" "$mid" d symv
    CHUNKS=1 MGBLAS_DIST_SYMV=$path bench "1rank_${most}gpu" "$mid" z hemv
  done
  # Host and block-cyclic vectors at one size.
  stamp "benchmark ${most}rank_1gpu, host and block-cyclic vectors"
  CHUNKS=1 bench "${most}rank_1gpu" "$mid" d gemv,symv --vectors host,cyclic
  if [ -n "$big" ]; then
    big_places=("1rank_${most}gpu" "${most}rank_1gpu")
    [ "$most" = 2 ] || big_places+=(1rank_2gpu)
    for placement in "${big_places[@]}"; do
      if [ "$(elapsed)" -ge "$big_before" ]; then
        stamp "skipping n = $big on $placement: ${big_before}s budget spent"
        continue
      fi
      stamp "benchmark $placement, n = $big"
      NI=5 WU=2 bench "$placement" "$big" d gemv,symv --vectors device
      NI=5 WU=2 bench "$placement" "$big" z gemv,hemv --vectors device
    done
  fi
else
  stamp "no mgblas-tester in $build: no benchmark"
fi

# ---- tables --------------------------------------------------------------------------
python3 - "$csv" "$md" "$summary" "$tests_line" "$(elapsed)" "$gpus" <<'EOF'
import csv, os, sys
path, md, summary, tests, secs, gpus = sys.argv[1:7]
rows = list(csv.DictReader(open(path))) if os.path.exists(path) else []
order = ["1rank_2gpu", "2rank_1gpu", "1rank_4gpu", "4rank_1gpu", "2rank_2gpu", "1rank_8gpu",
         "8rank_1gpu", "2rank_4gpu"]
places = [p for p in order if any(r["placement"] == p for r in rows)]

def f(v, spec):
    try:
        x = float(v)
        return format(x, spec) if x == x else "-"
    except ValueError:
        return "-"

out = [f"# Distributed GEMV/SYMV/HEMV, {gpus} GPUs", "",
       f"Tests: test_dist_nccl {tests}. Run time {secs} s.", "",
       "Times per call with the reduction, matrix and vectors resident (vec = device) unless "
       "said; speedup over mgblas's single-GPU engine on the same matrix, timed in the same "
       "process (1gpu(ms)); eff = speedup / GPUs. GB/s: aggregate, minimum traffic.", ""]
hdr = ["placement", "path", "type", "op", "n", "reducer", "chunks", "vec", "time (ms)",
       "GB/s", "1gpu (ms)", "speedup", "eff", "error", "status"]
out.append("| " + " | ".join(hdr) + " |")
out.append("|" + "---|" * len(hdr))
for r in rows:
    out.append("| " + " | ".join([r["placement"], r["symv_path"], r["type"],
        r["op"] + " " + r["variant"], r["n"], r["reducer"], r["chunks"], r["vectors"],
        f(r["time_ms"], ".4f"), f(r["gbs"], ".0f"), f(r["ref_1gpu_ms"], ".4f"),
        f(r["speedup"], ".3f"), f(r["efficiency"], ".3f"), f(r["error"], ".1e"),
        r["status"]]) + " |")
out += ["", "Commands: see bench.log (each command line is logged before its output), e.g.",
        "", "```",
        "NCCL_NVLS_ENABLE=0 MGBLAS_DEVICES=0,1 mgblas-tester dist --type d --op gemv,symv --trans N,T "
        "--uplo L -n 8192,32768 --nb 256 --reducer host,nccl --chunks 1,4 --vectors device,cyclic",
        "mpirun --allow-run-as-root --oversubscribe --bind-to none -np 2 -x NCCL_NVLS_ENABLE "
        "mgblas-tester dist ... (same options)", "```", ""]
open(md, "w").write("\n".join(out))

# Short table: speedup (and ms) per placement, device vectors, best reducer setting.
best = {}
for r in rows:
    if r["vectors"] != "device" or r["symv_path"] != "kernel":
        continue
    key = (r["type"], r["op"] + " " + r["variant"], int(r["n"]))
    try:
        t = float(r["time_ms"])
    except ValueError:
        continue
    if t != t:
        continue
    cell = best.setdefault(key, {})
    cur = cell.get(r["placement"])
    label = r["reducer"] + (("/" + r["chunks"]) if r["chunks"] != "1" else "")
    if cur is None or t < cur[0]:
        cell[r["placement"]] = (t, r["speedup"], label)
lines = [f"tests: {tests}; {secs} s",
         "best time per placement (ms), speedup over mgblas on 1 GPU, reducer[/chunks]:",
         f"{'type':4} {'op':7} {'n':>6}  " + "  ".join(f"{p:>28}" for p in places)]
for key in sorted(best):
    cells = []
    for p in places:
        c = best[key].get(p)
        cells.append(f"{c[0]:9.3f} ms {f(c[1], '.2f'):>5}x {c[2]:>9}" if c else f"{'-':>28}")
    lines.append(f"{key[0]:4} {key[1]:7} {key[2]:>6}  " + "  ".join(cells))
fails = [r for r in rows if r["status"] != "ok"]
lines.append(f"{len(rows)} rows, {len(fails)} not ok")
open(summary, "w").write("\n".join(lines) + "\n")
EOF
stamp "done; $out: tests.log bench.log dist_bench.csv dist_bench.md summary.txt"
cat "$summary"
