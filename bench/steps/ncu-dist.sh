# SPDX-License-Identifier: BSD-3-Clause
# ncu kernel times of the distributed SYMV/GEMV N shares on one GPU (NCU_N, NCU_P)
# Sourced by bench/device.sh (was bench/ncu_dist_kernels.sh).
# Kernel-only times of the distributed SYMV and GEMV N products, one GPU: P "devices"
# that are all GPU 0 (MGBLAS_DEVICES=0,0,...) so that each device's share of a
# block-cyclic matrix runs as its own kernel, timed alone by Nsight Compute (which
# serializes launches), next to the single-GPU engine on the whole matrix (which
# mgblas-tester dist times first). The host reducer: NCCL kernels cannot run serialized.
#
#   NCU_N=32768 NCU_P="2 4" bench/device.sh ncu-dist   (env CHUNKS=1,4: pipelined too)
# Prints, per kernel, grid and stream (one stream per "device"; the single-GPU reference
# runs on device 0's), the mean duration and the bandwidth over the bytes of
# the stored entries it reads (the share: n^2/2/P elements for SYMV, n^2/P for GEMV).
need mgblas-tester || exit 1
n=${NCU_N:-32768}
plist=${NCU_P:-2 4}
for P in $plist; do
  devs=$(printf '0%.0s,' $(seq 1 "$P"))
  devs=${devs%,}
  echo "== n = $n, P = $P (MGBLAS_DEVICES=$devs)"
  MGBLAS_DEVICES=$devs timeout 240 ncu --clock-control none --metrics gpu__time_duration.sum \
    -k regex:"symv_kernel|gemv_n_kernel" --csv --page raw --log-file "$out/ncu_P$P.csv" \
    "$tester" dist --type d --op symv,gemv --trans N --uplo L -n "$n" \
    --nb 256 --reducer host --chunks "${CHUNKS:-1}" --vectors device --niter 2 --warmup 1 \
    >"$out/tester_P$P.log" 2>&1
  echo "exit $?"
  python3 - "$out/ncu_P$P.csv" "$n" "$P" <<'EOF'
import csv, sys, collections
path, n, P = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lines = [l for l in open(path) if l.startswith('"')]
rows = list(csv.DictReader(lines))
acc = collections.defaultdict(list)
for r in rows:
    name = r.get("Kernel Name", "")
    try:  # ncu writes numbers with thousands separators
        t = float(r["gpu__time_duration.sum"].replace(",", ""))
    except (KeyError, ValueError):
        continue
    short = "symv" if "symv_kernel" in name else "gemv_n"
    acc[(short, r.get("Grid Size", "?"), r.get("Stream", "?"),
         r.get("launch__waves_per_multiprocessor", "?"))].append(t)
for (k, grid, stream, waves), ts in sorted(acc.items()):
    mean = sum(ts) / len(ts)   # ns
    whole = n * n * 8 / (2 if k == "symv" else 1)
    # Which launch is which: the engine's, on the whole matrix, has the most blocks.
    print(f"{k:7} grid {grid:>14} stream {stream:>3} waves {waves:>6}  launches {len(ts):3}  "
          f"mean {mean/1e3:9.1f} us  "
          f"GB/s if whole {whole/mean:7.0f}  if share {whole/P/mean:7.0f}")
EOF
done
