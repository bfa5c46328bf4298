#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# The cost model of bench/results/scaling-model.md: fits the per-call overhead of the
# distributed GEMV/SYMV/HEMV (alpha-beta of the all-reduce, per GPU count) to the 1-, 2-
# and 4-GPU measurements, checks the reductions' model against their 2-GPU runs, and
# projects both to 8 GPUs (NVLink) and 16 to 512 GPUs (InfiniBand-class links).
#   python3 bench/scaling_model.py bench/results    (prints the tables, writes scaling-model.png)
#   python3 bench/scaling_model.py bench/results ALLREDUCE_CSV
# ALLREDUCE_CSV: tester_allreduce's rows (bench/scaling_device.sh step nccl writes them to
# OUT_DIR/allreduce.csv), default RESULTS/h200x4-allreduce.csv where it exists; with it the
# model section also fits the per-column all-reduce's alpha-beta per GPU count and
# placement and plots it beside the CSV (<csv>.png). Without it, nothing else changes.
import csv, math, os, sys

res = sys.argv[1] if len(sys.argv) > 1 else "bench/results"
allreduce_csv = sys.argv[2] if len(sys.argv) > 2 else os.path.join(res, "h200x4-allreduce.csv")
if len(sys.argv) > 2 and not os.path.exists(allreduce_csv):
    sys.exit(f"scaling_model.py: no such all-reduce CSV: {allreduce_csv}")
rows = [r for r in csv.DictReader(open(os.path.join(res, "h200x4-mgpu.csv")))
        if r["status"] == "ok" and r["vectors"] == "device" and r["offset"] == "0"]

# ---- 1. distributed GEMV/SYMV: t_P = t_1 / P + alpha_P + bytes / beta_P --------------
# bytes = the reduced vector (n elements); t_1 = the same process's one-GPU time. The
# best reducer/chunking per case is what a user runs, so the model is fitted to it.
best = {}
for r in rows:
    key = (r["placement"], r["type"], r["op"], r["variant"], int(r["n"]))
    if key not in best or float(r["time_ms"]) < float(best[key]["time_ms"]):
        best[key] = r
elem = {"d": 8, "z": 16}
fits = {}
for P in (2, 4):
    pts = []
    for (pl, t, op, var, n), r in best.items():
        if int(r["gpus"]) != P:
            continue
        t1, tp = float(r["ref_1gpu_ms"]) * 1e-3, float(r["time_ms"]) * 1e-3
        pts.append((n * elem[t], tp - t1 / P))
    # least squares for overhead = alpha + bytes / beta
    k = len(pts)
    sx = sum(x for x, _ in pts); sy = sum(y for _, y in pts)
    sxx = sum(x * x for x, _ in pts); sxy = sum(x * y for x, y in pts)
    slope = (k * sxy - sx * sy) / (k * sxx - sx * sx)
    alpha = (sy - slope * sx) / k
    fits[P] = (max(alpha, 0.0), 1 / slope if slope > 0 else float("inf"))

def dist_time(t1, n, e, P):
    a, b = fits[P]
    return t1 / P + a + n * e / b

errs = []
for (pl, t, op, var, n), r in best.items():
    P = int(r["gpus"])
    t1 = float(r["ref_1gpu_ms"]) * 1e-3
    pred = dist_time(t1, n, elem[t], P)
    errs.append((abs(pred / (float(r["time_ms"]) * 1e-3) - 1), pl, t, op, var, n))
big = [e for e in errs if e[5] >= 32768]
print("## distributed GEMV/SYMV/HEMV: overhead fit (best reducer per case)")
for P, (a, b) in sorted(fits.items()):
    print(f"P = {P}: alpha = {a * 1e6:.1f} us, beta = {b / 1e9:.0f} GB/s")
print(f"model error, all {len(errs)} cases: mean {100 * sum(e[0] for e in errs) / len(errs):.1f} %, "
      f"max {100 * max(e[0] for e in errs):.1f} %; n >= 32768 ({len(big)} cases): mean "
      f"{100 * sum(e[0] for e in big) / len(big):.1f} %, max {100 * max(e[0] for e in big):.1f} %")

# ---- 2. the reductions: t_P = f_par t_1 / P + (1 - f_par) t_1 + ncols * c_P ---------
# f_par: the share of the one-GPU profile that divides over devices (SYMV / GEMVs and the
# trailing update); the panel steps are replicated on every device; c_P: one collective
# per column (measured on 2 GPUs from the 'comm' phase).
def red_model(t1, f_par, ncols, c, P):
    return f_par * t1 / P + (1 - f_par) * t1 + ncols * c

cases = {
    # name: (t1 unprofiled, profile phases on 1 GPU (par, serial), n, measured {placement: t}, comm per column on 2 GPUs)
    "hetrd d 16384": (2.058, (1.612 + 0.173, 0.579 + 0.033), 16384,
                      {"1 rank x 2": 1.530, "2 ranks x 1": 1.513}, 0.4719 / 16384),
    "gebrd d 16384": (7.019, (6.112 + 0.318, 1.531 + 0.032), 16384,
                      {"1 rank x 2": 4.445, "2 ranks x 1": 4.174}, 0.6873 / 16384),
    "gebrd d 8192": (1.231, (1.009 + 0.044, 0.600 + 0.014), 8192,
                     {"1 rank x 2": 1.167, "2 ranks x 1": 0.883}, 0.3121 / 8192),
}
print("\n## reductions on 2 GPUs: model against measurement")
print("| case | f_par | comm per column (us) | placement | measured (s) | model (s) | error |")
print("|---|---|---|---|---|---|---|")
red_err = []
for name, (t1, (par, ser), n, meas, c2) in cases.items():
    f = par / (par + ser)
    pred = red_model(t1, f, n, c2, 2)
    for pl, t in meas.items():
        red_err.append(abs(pred / t - 1))
        print(f"| {name} | {f:.2f} | {c2 * 1e6:.0f} | {pl} | {t:.3f} | {pred:.3f} | {100 * (pred / t - 1):+.0f} % |")

# ---- 2b. the same model on 4 GPUs (h200x4-hetrd.csv, h200x4-gebrd.csv: one call, 1 GPU
# with cuSOLVER, then 1 rank x 4 and 4 ranks x 1), c_4 = 2 c_2 as the projection assumes.
def four_gpu_cases():
    out = []
    for name, fname, first, c2_case in (("hetrd", "h200x4-hetrd.csv", "phase_symv_s", 0.4719 / 16384),
                                        ("gebrd", "h200x4-gebrd.csv", "phase_products_s", 0.6873 / 16384)):
        path = os.path.join(res, fname)
        if not os.path.exists(path):
            continue
        rs = list(csv.DictReader(open(path)))
        one = [r for r in rs if r["gpus"] == "1"][0]
        par = float(one[first]) + float(one["phase_update_s"])
        ser = float(one["phase_panel_s"]) + float(one["phase_comm_s"])
        f, t1, n = par / (par + ser), float(one["time_s"]), int(one["n"])
        pred = red_model(t1, f, n, 2 * c2_case, 4)
        for r in rs:
            if r["gpus"] != "4":
                continue
            pl = f"{r['ranks']} rank{'s' if r['ranks'] != '1' else ''} x {4 // int(r['ranks'])}"
            out.append((f"{name} d {n}", f, 2 * c2_case, float(r["phase_comm_s"]) / n, pl,
                        float(r["time_s"]), pred, float(one["cusolver_s"])))
    return out

four = four_gpu_cases()
if four:
    print("\n## reductions on 4 GPUs: model against measurement")
    print("| case | f_par | comm per column, model / measured (us) | placement | measured (s) | model (s) | error | cuSOLVER 1 GPU / measured |")
    print("|---|---|---|---|---|---|---|---|")
    for name, f, c4, cm, pl, t, pred, cus in four:
        red_err.append(abs(pred / t - 1))
        print(f"| {name} | {f:.2f} | {c4 * 1e6:.0f} / {cm * 1e6:.0f} | {pl} | {t:.3f} | {pred:.3f} | "
              f"{100 * (pred / t - 1):+.0f} % | {cus / t:.2f}x |")

# ---- 3. projections ------------------------------------------------------------------
# One collective per column: c_P = c_2 (1 + log2(P / 2)) on NVLink (c_2 = hetrd's measured
# 29 us per column on 2 GPUs; the log assumes NCCL's latency grows with the tree's depth);
# beyond 8 GPUs (one node), InfiniBand NDR-class links are assumed: 5 us per extra hop of a
# ring over the nodes and 50 GB/s per GPU for the payload. The panel steps are replicated:
# n x 45 us (hetrd's measured panel + comm per column on 1 GPU at n = 32768). One GPU:
# 2.058 s at 16384, 13.666 s at 32768 (h200-hetrd.md), x8 per doubling beyond.
c2 = 0.4719 / 16384
def per_column(P, B):
    if P == 1:
        return 0.0
    c = c2 * (1 + math.log2(min(P, 8) / 2))
    if P > 8:
        c += 2 * (P / 8 - 1) * 5e-6 + 2 * B / (P * 50e9) * (P / 8)
    return c

def hetrd_one(n):
    return {16384: 2.058, 32768: 13.666}.get(n, 13.666 * (n / 32768) ** 3)

def hetrd_proj(n, P):
    t1, serial = hetrd_one(n), n * 45e-6
    comm = sum(per_column(P, (n - j) * 8) for j in range(0, n, 256)) * 256
    return (t1 - serial) / P + serial + comm if P > 1 else t1

def symv_proj(P, t1=1.182e-3 * 3.33, n=65536):  # one GPU, d 65536 (h200x4-mgpu)
    if P <= 4:
        return dist_time(t1, n, 8, P) if P > 1 else t1
    return t1 / P + per_column(P, n * 8) + n * 8 / fits[4][1]

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

# ---- 4. the per-column all-reduce, measured (tester_allreduce) -------------------------
# t = alpha + bytes / beta per (GPUs, placement, transport, type), fitted to the median
# time of one synchronised call and to the time per call of calls queued back to back (as
# a reduction's column loop issues them), least squares on the relative residuals
# (weights 1 / t^2, the tester's own fit), so that 8 B and 256 MiB weigh alike. 'one
# column' is the fit at hetrd's mean payload at n = 32768, (n / 2) x 8 bytes, beside the
# per-column cost c_P of the projection (section 3: the measured 'comm' phase, which
# also carries its launches and synchronisation, and its log growth). On one GPU the
# library skips the collective: alpha is the call's overhead, and there is no beta.
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
if os.path.exists(allreduce_csv):
    groups = {}
    for r in csv.DictReader(open(allreduce_csv)):
        if r["status"] != "ok":
            continue
        ranks, gpus = int(r["ranks"]), int(r["gpus"])
        pl = f"{ranks} rank{'s' if ranks > 1 else ''} x {gpus // ranks}"
        groups.setdefault((gpus, pl, r["transport"], r["type"]), []).append(
            (int(r["bytes"]), float(r["time_us"]), float(r["queued_us"])))
    for key, pts in sorted(groups.items()):
        ar_fits[key] = (sorted(pts), fit_alpha_beta([(b, t) for b, t, _ in pts]),
                        fit_alpha_beta([(b, q) for b, _, q in pts]))
    column_bytes = 32768 // 2 * 8
    num = lambda v, f: "-" if v is None or not math.isfinite(v) else format(v, f)
    print(f"\n## the per-column all-reduce, measured ({os.path.basename(allreduce_csv)}): "
          "t = alpha + bytes / beta")
    print("| GPUs | placement | transport | type | sizes | alpha (us) | beta (GB/s) | max dev | "
          "queued: alpha (us) | beta (GB/s) | one column, 128 KiB (us) | model c_P (us) |")
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
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    Ps = [p[0] for p in proj]
    ax[0].loglog(Ps, [symv1 / p[1] for p in proj], "o-", label="SYMV d 65536 (model)")
    ax[0].loglog(Ps, [hetrd_one(65536) / p[3] for p in proj], "s-", label="hetrd d 65536 (model)")
    ax[0].loglog(Ps, Ps, ":", color="gray", label="ideal")
    for (pl, t, op, var, n), r in best.items():
        if n == 65536 and op == "symv" and t == "d":
            ax[0].plot(int(r["gpus"]), float(r["speedup"]), "k*")
    ax[0].set_xlabel("GPUs"); ax[0].set_ylabel("speedup over 1 GPU"); ax[0].legend(fontsize=7)
    ax[0].set_title("projection (stars: measured SYMV)")
    names = list(cases)
    ax[1].bar(range(len(red_err)), [100 * e for e in red_err])
    ax[1].set_ylabel("|model / measured - 1| (%)"); ax[1].set_title("reductions on 2 and 4 GPUs: model error")
    fig.tight_layout()
    fig.savefig(os.path.join(res, "scaling-model.png"), dpi=110)
    # h200x4-reductions.png: time per phase, 1 GPU / 1 rank x 4 / 4 ranks x 1, cuSOLVER
    # on one GPU as a line.
    if four:
        fig, ax = plt.subplots(1, 2, figsize=(11, 4))
        for a, (fname, first, label) in zip(ax, (("h200x4-hetrd.csv", "phase_symv_s", "symv"),
                                                 ("h200x4-gebrd.csv", "phase_products_s", "products"))):
            rs = list(csv.DictReader(open(os.path.join(res, fname))))
            names = [f"{r['ranks']} rank x {int(r['gpus']) // int(r['ranks'])} GPU" for r in rs]
            bottom = [0.0] * len(rs)
            for col, lab in ((first, label), ("phase_panel_s", "panel"), ("phase_comm_s", "comm"),
                             ("phase_update_s", "update")):
                h = [float(r[col]) for r in rs]
                a.bar(names, h, bottom=bottom, label=lab)
                bottom = [b + x for b, x in zip(bottom, h)]
            a.plot(names, [float(r["time_s"]) for r in rs], "k*", label="time (unprofiled)")
            a.axhline(float(rs[0]["cusolver_s"]), color="red", ls="--", label="cuSOLVER, 1 GPU")
            a.set_ylabel("s"); a.set_title(f"{fname[7:12]} d n = {rs[0]['n']}, 4 x H200")
            a.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(res, "h200x4-reductions.png"), dpi=110)
    # <csv>.png: the all-reduce's synchronised time per message size and its fit, per
    # transport (one panel each), a line per GPU count and placement.
    if ar_fits:
        transports = sorted({k[2] for k in ar_fits})
        fig, ax = plt.subplots(1, len(transports), figsize=(5.5 * len(transports), 4), squeeze=False)
        for a, tr in zip(ax[0], transports):
            for (gpus, pl, t, ty), (pts, ft, _) in ar_fits.items():
                if t != tr:
                    continue
                xs = [p[0] for p in pts]
                line, = a.loglog(xs, [p[1] for p in pts], "o", ms=3, label=f"{ty} {pl}")
                if ft:
                    a.loglog(xs, [ft[0] + x / (ft[1] * 1e3) for x in xs], "-", lw=0.8,
                             color=line.get_color())
            a.set_xlabel("bytes per device"); a.set_ylabel("us per call")
            a.set_title(f"all-reduce ({tr}): measured, alpha + bytes / beta"); a.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.splitext(allreduce_csv)[0] + ".png", dpi=110)
except ImportError:
    pass
