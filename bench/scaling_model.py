#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# The cost model of bench/results/scaling-model.md, from measured inputs: the library's
# all-reduce (alpha-beta per GPU count and placement, mgblas-tester allreduce), one-GPU times
# and the one-GPU profile's split of the reductions. It fits the distributed
# GEMV/SYMV/HEMV's one free number per GPU count (e_P, the shares' loss), checks both
# against the 2- and 4-GPU runs, and projects them to 8 GPUs (NVLink) and 16 to 512 GPUs
# (InfiniBand-class links); the two-stage reduction's serial chain and divided products
# from its one-GPU profile and one 2-GPU run (section 5), projected to 64 GPUs.
#   python3 bench/scaling_model.py bench/results    (prints the tables; writes
#       scaling-model.png, h200x4-reductions.png and <all-reduce CSV>.png)
#   python3 bench/scaling_model.py bench/results ALLREDUCE_CSV
# ALLREDUCE_CSV: mgblas-tester allreduce's rows (bench/device.sh scaling, part nccl, writes them to
# OUT_DIR/allreduce.csv), default RESULTS/h200x4-allreduce.csv; required.
# The figures are drawn by bench/plots.py's functions (without matplotlib: the tables only).
import csv, math, os, sys

from plots import placement_name

res = sys.argv[1] if len(sys.argv) > 1 else "bench/results"
allreduce_csv = sys.argv[2] if len(sys.argv) > 2 else os.path.join(res, "h200x4-allreduce.csv")
if not os.path.exists(allreduce_csv):  # every model below charges its collectives from it
    sys.exit(f"scaling_model.py: no all-reduce CSV {allreduce_csv} (bench/device.sh scaling "
             "BUILD OUT nccl writes one)")
rows = [r for r in csv.DictReader(open(os.path.join(res, "h200x4-mgpu.csv")))
        if r["status"] == "ok" and r["vectors"] == "device" and r["offset"] == "0"]

# ---- 0. the per-column all-reduce, measured (mgblas-tester allreduce; its table prints last) ---
# t = alpha + bytes / beta per (GPUs, placement, transport, type), fitted to the median
# time of one synchronised call and to the time per call of calls queued back to back (as
# a reduction's column loop issues them), least squares on the relative residuals
# (weights 1 / t^2, the tester's own fit), so that 8 B and 256 MiB weigh alike. The model
# uses the synchronised fit. 'one column' is the fit at hetrd's mean payload at n =
# 32768, (n / 2) x 8 bytes, beside the per-column cost c_P of the projection (section 3).
# On one GPU the library skips the collective: alpha is the call's overhead, no beta.
def fit_alpha_beta(pts):
    """(bytes, us) points -> (alpha us, beta GB/s, max |fit / t - 1|), None below 2 points."""
    pts = [(x, t) for x, t in pts if t > 0 and math.isfinite(t)]
    w = [1 / (t * t) for _, t in pts]
    sw = sum(w); sx = sum(wi * x for wi, (x, _) in zip(w, pts))
    sy = sum(wi * t for wi, (_, t) in zip(w, pts))
    sxx = sum(wi * x * x for wi, (x, _) in zip(w, pts))
    sxy = sum(wi * x * t for wi, (x, t) in zip(w, pts))
    det = sw * sxx - sx * sx
    if len(pts) < 2 or det <= 0:
        return None
    slope = (sw * sxy - sx * sy) / det  # us per byte
    alpha = (sy - slope * sx) / sw
    dev = max(abs((alpha + slope * x) / t - 1) for x, t in pts)
    return alpha, (1e-3 / slope if slope > 0 else math.inf), dev

ar_fits = {}  # (gpus, placement, transport, type) -> (points, fit of time, fit of queued)
groups = {}
for r in csv.DictReader(open(allreduce_csv)):
    if r["status"] != "ok":
        continue
    ranks, gpus = int(r["ranks"]), int(r["gpus"])
    groups.setdefault((gpus, placement_name(ranks, gpus), r["transport"], r["type"]), []).append(
        (int(r["bytes"]), float(r["time_us"]), float(r["queued_us"])))
for key, pts in sorted(groups.items()):
    ar_fits[key] = (sorted(pts), fit_alpha_beta([(b, t) for b, t, _ in pts]),
                    fit_alpha_beta([(b, q) for b, _, q in pts]))

# ---- 1. distributed GEMV/SYMV: t_P = (1 + e_P) t_1 / P + alpha + bytes / beta ---------
# t_1: the same process's one-GPU time; alpha, beta: the all-reduce's measured fit for the
# placement (section 0, one synchronised call; 2 ranks x 2 GPUs was not measured: the
# mean of the two 4-GPU placements); bytes: the reduced vector (n elements). e_P, one
# number per GPU count fitted by least squares, is what the shares lose against the whole
# matrix on one GPU: smaller products run further from the bandwidth floor, and the
# block-cyclic shares of a triangle differ by up to a block column. The best
# reducer/chunking per case is what a user runs, so the model is fitted to it.
best = {}
for r in rows:
    key = (r["placement"], r["type"], r["op"], r["variant"], int(r["n"]))
    if key not in best or float(r["time_ms"]) < float(best[key]["time_ms"]):
        best[key] = r
elem = {"d": 8, "z": 16}

def placement_of(pl):
    """mgblas-tester dist's placement name -> (GPUs, section 0's placement name)."""
    ranks, per = pl.split("rank_")
    ranks, per = int(ranks), int(per[:-3])
    return ranks * per, placement_name(ranks, ranks * per)

def collective(pl, nbytes):
    gpus, name = placement_of(pl)
    fs = [ar_fits[k][1] for k in ((gpus, name, "nccl", "d"),) if k in ar_fits and ar_fits[k][1]]
    if not fs:  # 2 ranks x 2: the mean of the measured placements of as many GPUs
        fs = [v[1] for k, v in ar_fits.items() if k[0] == gpus and k[2:] == ("nccl", "d") and v[1]]
    if not fs:
        return None
    a = sum(f[0] for f in fs) / len(fs)
    b = sum(f[1] for f in fs) / len(fs)
    return (a + nbytes / (b * 1e3)) * 1e-6

ineff = {}  # P -> e_P
for P in (2, 4):
    pts = []
    for (pl, t, op, var, n), r in best.items():
        c = collective(pl, n * elem[t])
        if int(r["gpus"]) != P or c is None:
            continue
        t1, tp = float(r["ref_1gpu_ms"]) * 1e-3, float(r["time_ms"]) * 1e-3
        pts.append((t1 / P, tp - t1 / P - c))
    if pts:
        ineff[P] = sum(x * y for x, y in pts) / sum(x * x for x, _ in pts)

def dist_time(t1, n, e, P, pl):
    return (1 + ineff[P]) * t1 / P + collective(pl, n * e)

errs = []
for (pl, t, op, var, n), r in best.items():
    P = int(r["gpus"])
    if P not in ineff or collective(pl, n * elem[t]) is None:
        continue
    pred = dist_time(float(r["ref_1gpu_ms"]) * 1e-3, n, elem[t], P, pl)
    errs.append((abs(pred / (float(r["time_ms"]) * 1e-3) - 1), pl, t, op, var, n))
print("## distributed GEMV/SYMV/HEMV: the shares' loss e_P (best reducer per case)")
for P, e in sorted(ineff.items()):
    sel = [x for x in errs if placement_of(x[1])[0] == P]
    worst = max(sel)
    print(f"P = {P}: e_P = {100 * e:.1f} %; model error over {len(sel)} cases: mean "
          f"{100 * sum(x[0] for x in sel) / len(sel):.1f} %, max {100 * worst[0]:.1f} % "
          f"({worst[1]} {worst[2]} {worst[3]} {worst[4]} {worst[5]})")

# ---- 2. the reductions: t_P = f t_1 / P + (1 - f) t_1 + n (alpha + bytes / beta) ------
# f: the part of the one-GPU profile that divides over devices (the SYMV or the two GEMVs,
# and the trailing update); 1 - f: the panel steps, which every device repeats; then one
# all-reduce per column at section 0's measured alpha-beta for the placement, with the
# column's mean payload (hetrd: n / 2 elements, gebrd: n, its two products). Nothing is
# fitted to the reductions' own multi-GPU times. Times are warm (a call after another in
# the same process: the first call of a process carries about 0.5-1 s of one-time setup)
# where measured. 2 GPUs: h200x2-reductions.csv (warm, one GPU in the same call); 4 GPUs:
# h200x4-hetrd.csv / h200x4-gebrd.csv. f comes from a profiled one-GPU call of the same
# code: the x4 CSVs' one-GPU rows, else F_EARLIER (the same day's one-GPU profiles,
# h200-reductions-speedups.md: hetrd 16384 symv 1.639 + update 0.131 of 2.215 s; gebrd
# 8192 products 0.690 + update 0.034 of 1.142 s); where no one-GPU profile exists (hetrd
# 65536) the serial part is the 4-rank run's panel phase, which every device repeats.
F_EARLIER = {("hetrd", 16384): (1.639 + 0.131) / 2.215, ("gebrd", 8192): (0.690 + 0.034) / 1.142}
RED = (("hetrd", "h200x4-hetrd.csv", "phase_symv_s", lambda n: n // 2 * 8),
       ("gebrd", "h200x4-gebrd.csv", "phase_products_s", lambda n: n * 8))

def nccl_cost(gpus, pl, nbytes):
    """Seconds of one synchronised all-reduce of nbytes (section 0's fit), None unmeasured."""
    fit = ar_fits.get((gpus, pl, "nccl", "d"))
    if not fit or not fit[1]:
        return None
    a, b, _ = fit[1]
    return (a + nbytes / (b * 1e3)) * 1e-6

def red_model(t1, f, n, c, P):
    return f * t1 / P + (1 - f) * t1 + n * c

def result_rows(fname):
    """The rows of RESULTS/fname, [] where there is no such file."""
    path = os.path.join(res, fname)
    return list(csv.DictReader(open(path))) if os.path.exists(path) else []

def profiled_f(name, n):
    """f of reduction `name` at n from a profiled one-GPU call (None where none)."""
    for nm, fname, first, _ in RED:
        if nm != name:
            continue
        rs = [r for r in result_rows(fname) if int(r["n"]) == n]
        for r in rs:
            if r["gpus"] == "1" and float(r["phase_panel_s"]) > 0:
                par = float(r[first]) + float(r["phase_update_s"])
                return par / (par + float(r["phase_panel_s"]) + float(r["phase_comm_s"]))
        four = [r for r in rs if r["gpus"] == "4" and r["ranks"] == "4" and float(r["phase_panel_s"]) > 0]
        ones = [r for r in rs if r["gpus"] == "1"]
        if four and ones:
            t1 = float(ones[-1]["time_s"])
            return 1 - float(four[0]["phase_panel_s"]) / t1
    return F_EARLIER.get((name, n))

def warm_last(rs):
    """The row to use: the last warm one (first_call 0), else the last."""
    warm = [r for r in rs if r.get("first_call", "0") == "0"]
    return (warm or rs)[-1]

red_cases = []  # (name, n, P, placement, f, t1, measured, model, cuSOLVER 1 GPU, c)
path2 = os.path.join(res, "h200x2-reductions.csv")
if os.path.exists(path2):
    x2 = list(csv.DictReader(open(path2)))
    for r in x2:
        name, n, P = r["reduction"], int(r["n"]), int(r["gpus"])
        f = profiled_f(name, n)
        pl = placement_name(int(r["ranks"]), P)
        c = nccl_cost(P, pl, dict((k, fn) for k, _, _, fn in RED)[name](n))
        if P != 2 or f is None or c is None:
            continue
        t1 = float(r["one_gpu_s"])
        red_cases.append((name, n, P, pl, f, t1, float(r["time_s"]), red_model(t1, f, n, c, P),
                          float(r["cusolver_1gpu_s"]), c))
for name, fname, first, payload in RED:
    rs = result_rows(fname)
    for n in sorted({int(r["n"]) for r in rs}):
        at = [r for r in rs if int(r["n"]) == n]
        ones = [r for r in at if r["gpus"] == "1"]
        f = profiled_f(name, n)
        if not ones or f is None:
            continue
        one = warm_last(ones)
        t1 = float(one["time_s"])
        for ranks in (1, 4):
            got = [r for r in at if r["gpus"] == "4" and int(r["ranks"]) == ranks]
            if not got:
                continue
            pl = placement_name(ranks, 4)
            c = nccl_cost(4, pl, payload(n))
            if c is None:
                continue
            red_cases.append((name, n, 4, pl, f, t1, float(warm_last(got)["time_s"]),
                              red_model(t1, f, n, c, 4), float(one["cusolver_s"]), c))

red_err = [abs(m / t - 1) for *_, t, m, _, _ in red_cases]
print("\n## reductions on 2 and 4 GPUs: model against measurement (d)")
print("| case | GPUs | placement | f | all-reduce per column (us) | 1 GPU (s) | measured (s) | "
      "model (s) | error | over 1 GPU | cuSOLVER 1 GPU / measured |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for name, n, P, pl, f, t1, t, m, cus, c in red_cases:
    print(f"| {name} {n} | {P} | {pl} | {f:.3f} | {c * 1e6:.1f} | {t1:.3f} | {t:.3f} | {m:.3f} | "
          f"{100 * (m / t - 1):+.1f} % | {t1 / t:.2f}x | {cus / t:.2f}x |")
if red_cases:
    def worst(sel):
        return max(sel, key=lambda x: abs(x[7] / x[6] - 1))
    for label, sel in (("ranks of one GPU", [x for x in red_cases if not x[3].startswith("1 rank")]),
                       ("one rank driving every GPU", [x for x in red_cases if x[3].startswith("1 rank")])):
        if sel:
            w = worst(sel)
            print(f"{label}: {len(sel)} cases, mean |error| "
                  f"{100 * sum(abs(x[7] / x[6] - 1) for x in sel) / len(sel):.1f} %, max "
                  f"{100 * (w[7] / w[6] - 1):+.1f} % ({w[0]} {w[1]}, {w[3]})")

# ---- 3. projections ------------------------------------------------------------------
# The per-column all-reduce on P GPUs, P ranks of one GPU each (the faster placement):
# section 0's fit up to 4 GPUs; 8 GPUs (one NVLink node) adds the 2 -> 4 growth of alpha
# once more; beyond 8, InfiniBand NDR-class links are assumed: 5 us per extra hop of a
# ring over the nodes (2 (P / 8 - 1) hops) and 50 GB/s per GPU for the payload. The panel
# steps are replicated: the one-GPU panel + comm phases (h200x4-hetrd.csv; at 65536 the
# 4-rank panel phase, as in section 2). One GPU: h200x4-hetrd.csv's times where measured,
# x8 per doubling beyond.
def alpha_beta(P):
    """(alpha s, beta B/s) of P ranks x 1 on NVLink, P <= 8 (extrapolated past 4)."""
    fit = lambda g: (ar_fits.get((g, placement_name(g, g), "nccl", "d")) or (None, None))[1]
    f2, f4 = fit(2), fit(4)
    if not f2 or not f4:
        return 25e-6, 180e9
    if P <= 2:
        return f2[0] * 1e-6, f2[1] * 1e9
    grow = max(f4[0] - f2[0], 0.0) * max(math.log2(min(P, 8) / 4), 0.0)
    return (f4[0] + grow) * 1e-6, f4[1] * 1e9

def per_column(P, B):
    if P == 1:
        return 0.0
    a, b = alpha_beta(P)
    c = a + B / b
    if P > 8:
        c += 2 * (P / 8 - 1) * 5e-6 + 2 * B / (8 * 50e9)
    return c

hetrd_rows = result_rows("h200x4-hetrd.csv")

def hetrd_one(n):
    ones = {int(r["n"]): float(warm_last([x for x in hetrd_rows if x["gpus"] == "1"
                                          and x["n"] == r["n"]])["time_s"])
            for r in hetrd_rows if r["gpus"] == "1"}
    if n in ones:
        return ones[n]
    base = max(ones) if ones else 32768
    return ones.get(base, 13.666) * (n / base) ** 3

def hetrd_proj(n, P):
    t1 = hetrd_one(n)
    f = profiled_f("hetrd", n) or 0.92
    comm = sum(per_column(P, (n - j) * 8) for j in range(0, n, 256)) * 256
    return f * t1 / P + (1 - f) * t1 + comm if P > 1 else t1

# One GPU, d SYMV at 65536: the one-GPU time measured beside the distributed runs.
symv_one = [float(r["ref_1gpu_ms"]) * 1e-3 for r in rows
            if r["type"] == "d" and r["op"] == "symv" and r["n"] == "65536"]
def symv_proj(P, t1=min(symv_one) if symv_one else 1.182e-3 * 3.33, n=65536):
    """P ranks x 1 up to 4 GPUs as section 1 models them; beyond, e_P grows by
    (e_4 - e_2) per doubling and the collective costs per_column's all-reduce."""
    if P == 1:
        return t1
    if P <= 4:
        return dist_time(t1, n, 8, P, f"{P}rank_1gpu")
    e = ineff[4] + (ineff[4] - ineff[2]) * math.log2(P / 4)
    return (1 + e) * t1 / P + per_column(P, n * 8)

print("\n## projections (d): seconds, speedup over 1 GPU")
print("| GPUs | SYMV n=65536 (ms) | hetrd n=32768 (s) | hetrd n=65536 (s) |")
print("|---|---|---|---|")
proj = []
for P in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512):
    ts, h32, h64 = symv_proj(P), hetrd_proj(32768, P), hetrd_proj(65536, P)
    proj.append((P, ts, h32, h64))
    print(f"| {P} | {ts * 1e3:.3f} ({symv_proj(1) / ts:.1f}x) | {h32:.2f} ({hetrd_one(32768) / h32:.1f}x) | "
          f"{h64:.1f} ({hetrd_one(65536) / h64:.1f}x) |")
symv1 = symv_proj(1)

# ---- 5. the two-stage reduction: t_P = S_P + W (1 + e) / P + chase ---------------------
# S: stage one's serial chain. Each panel's QR and catch-up run on its owner, then the
# panel's broadcast and the all-reduce of Y = A22 V, which every device waits for. One
# GPU: the profiled panel + comm phases. On P > 1 GPUs each of the n / b panels adds
# d0 + 2 c_P: the broadcast and the all-reduce of a mean (n / 2) x b block at section 3's
# per_column cost, and d0, the rest of a panel's hand-off (host agreement, waiting),
# fitted to one GPU against 2 ranks x 1 in one run (h200x2-sy2sb-blocks.csv, grouped
# products, n = 32768). W: the products A22 V and the update, which divide over the GPUs;
# e: their loss on 2 GPUs from the same pair of rows, kept for every P (optimistic). The
# chase runs on one GPU, the same on every rank. The profiled phases are scaled to the
# unprofiled stage-one time (the profiled call waits for the devices between phases).
# Checked on the other size of that run (16384); projected from today's one-GPU profile
# (h200-chase-latency.csv); 65536 extrapolated: per-panel time linear in n (16384 and
# 32768 rows), W as n^3, the chase as n.
TS_BAND = 32

def ts_parts(serial, par, chase, total):
    """(S, W, chase), the stage-one phases scaled to the unprofiled stage one."""
    scale = (total - chase) / (serial + par)
    return serial * scale, par * scale, chase

def ts_model(parts, n, P, d0, e):
    S, W, chase = parts
    if P == 1:
        return S + W + chase
    extra = (n / TS_BAND) * (d0 + 2 * per_column(P, n // 2 * TS_BAND * 8))
    return S + extra + W * (1 + e) / P + chase

x2b = [r for r in result_rows("h200x2-sy2sb-blocks.csv") if r["form"] in ("grouped", "one device")]
def x2b_parts(n, ranks, gpus):
    for r in x2b:
        if int(r["n"]) == n and int(r["ranks"]) == ranks and int(r["gpus"]) == gpus:
            return (ts_parts(float(r["qr_s"]) + float(r["comm_s"]),
                             float(r["hemm_s"]) + float(r["update_s"]), float(r["chase_s"]),
                             float(r["two_stage_s"])), float(r["two_stage_s"]))
    return None, None

one32, t_one32 = x2b_parts(32768, 1, 1)
two32, t_two32 = x2b_parts(32768, 2, 2)
now = [r for r in result_rows("h200-chase-latency.csv") if r["version"].startswith("one reduction")]
def now_value(what, n):
    got = [float(r["value"]) for r in now if r["what"] == what and int(r["n"]) == n]
    return got[-1] if got else None

if one32 and two32:
    # fit: W (1 + e) / 2 = W_2 and S + (n / b)(d0 + 2 c_2) = S_2, from the scaled phases
    e_ts = 2 * two32[1] / one32[1] - 1
    d0_ts = (two32[0] - one32[0]) / (32768 / TS_BAND) - 2 * per_column(2, 32768 // 2 * TS_BAND * 8)
    print("\n## the two-stage reduction on P GPUs: fit, check and projection (d, band 32)")
    print(f"fit (h200x2-sy2sb-blocks.csv, n = 32768, one GPU against 2 ranks x 1): e = "
          f"{100 * e_ts:.1f} %, d0 = {d0_ts * 1e6:.0f} us per panel (the two collectives: "
          f"{2 * per_column(2, 32768 // 2 * TS_BAND * 8) * 1e6:.0f} us)")
    one16, t_one16 = x2b_parts(16384, 1, 1)
    two16, t_two16 = x2b_parts(16384, 2, 2)
    if one16 and two16:
        m16 = ts_model(one16, 16384, 2, d0_ts, e_ts)
        print(f"check, n = 16384 on 2 ranks x 1: model {m16:.3f} s, measured {t_two16:.3f} s "
              f"({100 * (m16 / t_two16 - 1):+.1f} %)")
    cur = {}
    for n in (16384, 32768):
        ph = {k: now_value("hetrd_phase:" + k, n) for k in ("panels", "hemm", "comm", "update", "chase")}
        total = now_value("hetrd_two_stage", n)
        if None not in ph.values() and total:
            cur[n] = (ts_parts(ph["panels"] + ph["comm"], ph["hemm"] + ph["update"],
                               ph["chase"], total), total)
    if 16384 in cur and 32768 in cur:
        (S16, W16, c16), _ = cur[16384]
        (S32, W32, c32), t32 = cur[32768]
        per16, per32 = S16 / (16384 / TS_BAND), S32 / (32768 / TS_BAND)
        per64 = per32 + (per32 - per16) * (65536 - 32768) / (32768 - 16384)
        parts64 = (per64 * 65536 / TS_BAND, W32 * 8, c32 * 2)
        print(f"one GPU today (h200-chase-latency.csv): n = 32768 S = {S32:.3f} s, W = {W32:.3f} s, "
              f"chase {c32:.3f} s (total {t32:.3f} s); n = 65536 extrapolated: S = {parts64[0]:.2f} s, "
              f"W = {parts64[1]:.2f} s, chase {parts64[2]:.2f} s")
        print("| GPUs | n = 32768 (s) | its serial part (S + panels' hand-offs + chase) | "
              "n = 65536 (s) | its serial part |")
        print("|---|---|---|---|---|")
        for P in (1, 2, 4, 8, 16, 64):
            t1, t2 = ts_model(cur[32768][0], 32768, P, d0_ts, e_ts), ts_model(parts64, 65536, P, d0_ts, e_ts)
            s1 = t1 - (W32 * (1 + e_ts) / P if P > 1 else W32)
            s2 = t2 - (parts64[1] * (1 + e_ts) / P if P > 1 else parts64[1])
            print(f"| {P} | {t1:.2f} ({t32 / t1:.1f}x) | {s1:.2f} | {t2:.1f} | {s2:.2f} |")

if ar_fits:
    column_bytes = 32768 // 2 * 8
    num = lambda v, f: "-" if v is None or not math.isfinite(v) else format(v, f)
    print(f"\n## the per-column all-reduce, measured ({os.path.basename(allreduce_csv)}): "
          "t = alpha + bytes / beta")
    print("| GPUs | placement | transport | type | sizes | alpha (us) | beta (GB/s) | max dev | "
          "queued: alpha (us) | beta (GB/s) | one column, 128 KiB (us) | projection c_P, P ranks (us) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (gpus, pl, tr, ty), (pts, ft, fq) in ar_fits.items():
        a, b, dv = ft or (None, None, None)
        qa, qb, _ = fq or (None, None, None)
        if gpus == 1:  # the library skips the collective: overhead only, no bandwidth
            b = qb = math.inf
        col = a + column_bytes / (b * 1e3) if ft else None
        cp = per_column(gpus, column_bytes) * 1e6 if gpus > 1 else None
        print(f"| {gpus} | {pl} | {tr} | {ty} | {len(pts)} | {num(a, '.1f')} | {num(b, '.1f')} | "
              f"{num(dv and 100 * dv, '.0f')} % | {num(qa, '.1f')} | {num(qb, '.1f')} | "
              f"{num(col, '.1f')} | {num(cp, '.0f')} |")

try:
    import plots
    plots.scaling_model_figure(
        os.path.join(res, "scaling-model.png"),
        [(p[0], symv1 / p[1], hetrd_one(65536) / p[3]) for p in proj],
        [(int(r["gpus"]), float(r["speedup"])) for (pl, t, op, var, n), r in best.items()
         if n == 65536 and op == "symv" and t == "d"],
        [(x[0], x[1], x[3], e) for x, e in zip(red_cases, red_err)])
    # h200x4-reductions.png: time per phase, 1 GPU / 1 rank x 4 / 4 ranks x 1, first and
    # warm calls, cuSOLVER on one GPU as a line.
    if red_cases:
        plots.x4_reductions([os.path.join(res, f) for f in ("h200x4-hetrd.csv", "h200x4-gebrd.csv")],
                            os.path.join(res, "h200x4-reductions.png"))
    # <csv>.png: the all-reduce's time per message size and its fit, per transport.
    if ar_fits:
        plots.allreduce_figure(os.path.splitext(allreduce_csv)[0] + ".png", ar_fits)
except ImportError:
    pass
