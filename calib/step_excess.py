#!/usr/bin/env python3
"""calib/step_excess.py -- where a CUDA `validate` run's step over-prediction
comes from, offline, from the files a GPU lease wrote (docs/validation.md,
"Stop 38: a sample's fixed cost").

  python3 calib/step_excess.py VALIDATE.json[.gz] [VALIDATE2.json[.gz]]
          [--calibrate CALIBRATE_RAW.json[.gz]] [--layers N]

(--layers: the model's layers, 16 for ref-1b, the default; validate's files
do not carry it).

For each validate file: the steps' |error| median / p90 / max as recorded,
then as they read with each operator's calibrated time per call less F / n,
where a calibrate sample of n back-to-back calls and one synchronisation took
n h + F (calib.h rl_calib_fixed_cost):

  sync  F from the run's own synchronised operator times (validate's operator
        timers time one call between two synchronisations: h + F), n as
        calibrate.c time_bench picked it when the file was recorded (0.2 ms
        over the one-call time, 1..32), the file's median F where n = 1;
        nothing fitted;
  F=    one F for every operator: the median of the sync estimates, of this
        file and (with two files) of the other one (fitted on one lease,
        checked on the other);
  (two files) a constant per call fitted on one file's steps, checked on
        the other: a fit for comparison, not a cause;
  + attention  the sync rule, and the prefill attention of prompts calibrate
        did not measure before stop 38 (64, 256, 1024) at its synchronised
        time less the file's median F.

With --calibrate (a raw file of calibrate --backend cuda, .json beside the
profile, ref-1b's grid): the steps with every GEMM operator at its
benchmark's fastest sample instead of its median (how much calibration
noise carries; meaningful for the validate file of the same calibration),
and per benchmark its fixed_s and, where recorded, whether its calls are
bound by their issue on the host (issue_s >= 0.9 x the per-call time).
A raw file with fixed_s (calibrate of stop 38 or later, which takes F out
itself, as calib/gpu_check.sh's runs) turns the F / n rows off: its
profile's per-call time is h already, and they would take F out twice; the
steps are shown as recorded, with F per operator read as synchronised less
calibrated.  Python 3 standard library only.
"""
import gzip
import json
import math
import statistics
import sys

LAYER_OPS_CALLS = {"embedding": 1, "final_norm": 1, "lm_head": 1}  # else one a layer
QUEUED_RUN_S, QUEUED_CALLS = 2e-4, 32  # calibrate.c


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def quantile(v, p):  # nearest rank, as rl_calib_quantile
    v = sorted(v)
    return v[max(0, math.ceil(p * len(v)) - 1)]


def summary(errs):
    e = [abs(x) for x in errs]
    return "%.1f / %.1f / %.1f%%" % (100 * statistics.median(e), 100 * quantile(e, 0.9), 100 * max(e))


def steps(d, layers):
    """(row, [(op, calls, predicted per call, synchronised per RUN)], extra)."""
    out = []
    for x in d["rows"]:
        key = (x["phase"], x["tokens"], x["context"])
        ops, pred = [], 0.0
        for o in d["op_residuals"]:
            if (o["phase"], o["tokens"], o["context"]) != key:
                continue
            runs = LAYER_OPS_CALLS.get(o["op"], layers)
            per_run = 2 if o["op"] == "rope" else 1  # rope: q then k in one timed RUN
            ops.append((o["op"], runs, per_run, o["predicted_s"] / (runs * per_run), o["measured_s"] / runs))
            pred += o["predicted_s"]
        out.append((x, ops, x["predicted_s"] - pred))  # extra: the sampling costs
    return out


def calls_of(one):
    """The calls a recorded sample ran (calibrate.c before stop 38: 1..32;
    it now runs at least 2, and F is taken out of every sample)."""
    return max(1, min(QUEUED_CALLS, math.floor(QUEUED_RUN_S / one)))


def sync_fixed(ops):
    """F per operator from its synchronised time s = h + F and calibrated
    p = h + F / n; None where n = 1 (p = s: F not separable)."""
    fs = {}
    for op, runs, per_run, p, s in ops:
        one = s if per_run == 1 else s - p  # rope: one call of the two and the sync pair
        n = calls_of(one)
        fs[op] = (max(0.0, (one - p) * n / (n - 1)) if n > 1 else None, n)
    return fs


def median_fixed(st):
    return statistics.median(f for _, ops, _ in st for f, _ in sync_fixed(ops).values() if f is not None)


def predict(x, ops, extra, fixed, fmed, attn=False):
    """fixed: None (as recorded), a number (one F), or 'sync' (each
    operator's own; fmed, the file's median, where n = 1).  attn: a prefill
    whose prompt was not on calibrate's grid before stop 38 (32, 128, 512,
    2048) takes its attention as the synchronised time less fmed (what a
    measured node would give, to the uncertainty of F)."""
    t = extra
    per_op = sync_fixed(ops)
    for op, runs, per_run, p, s in ops:
        if attn and op == "attention" and x["phase"] == "prefill" and x["tokens"] not in (32, 128, 512, 2048):
            h = s - fmed
        elif fixed is None:
            h = p
        else:
            if fixed == "sync":
                f, n = per_op[op]
                f = fmed if f is None else f
            else:
                f, n = fixed, calls_of(p + fixed)
            h = max(p - f / n, 0.05 * p)
        t += runs * per_run * h
    return t / x["measured_s"] - 1


GEMM_NK = {"q_proj": (2048, 2048), "k_proj": (512, 2048), "v_proj": (512, 2048), "o_proj": (2048, 2048),
           "mlp_gate": (5632, 2048), "mlp_up": (5632, 2048), "mlp_down": (2048, 5632),
           "lm_head": (32000, 2048)}  # ref-1b's (N, K)


def gemm_fastest(x, ops, extra, raw):
    """Each GEMM operator at its benchmark's fastest sample over its median
    (raw rows of ref-1b's grid, the grid M at or below the step's)."""
    rows = {(r["M"], r["N"], r["K"]): r for r in raw["rows"] if r["bench"] in ("gemm", "gemv")}
    t = x["predicted_s"]
    for op, runs, per_run, p, s in ops:
        if op not in GEMM_NK:
            continue
        m = 1 if op == "lm_head" and x["phase"] == "prefill" else x["tokens"]
        ms = [k[0] for k in rows if k[0] <= m and k[1:] == GEMM_NK[op]]
        if not ms:
            return None  # not ref-1b's grid
        r = rows[(max(ms),) + GEMM_NK[op]]
        t -= runs * per_run * p * (1 - r["min_s"] / r["median_s"])
    return t / x["measured_s"] - 1


def main(argv):
    files, raw, layers = [], None, 16
    while argv:
        a = argv.pop(0)
        if a == "--calibrate":
            raw = argv.pop(0)
        elif a == "--layers":
            layers = int(argv.pop(0))
        else:
            files.append(a)
    if not files:
        sys.exit(__doc__)
    runs = []
    for f in files:
        runs.append((f, steps(load(f), layers)))
    d = load(raw) if raw else None
    taken_out = bool(d) and any("fixed_s" in r for r in d["rows"])
    if taken_out:
        # a calibration of stop 38 or later took F out already: its p is h,
        # so p less F / n again would take F out twice (review48)
        print("%s holds fixed_s: calibrate took each sample's fixed cost out already; the steps "
              "are shown as recorded, F per operator as synchronised less calibrated (s - p)" % raw)
        fixed = [r["fixed_s"] for r in d["rows"] if r.get("fixed_s", 0) > 0]
        for f, st in runs:
            print("%s: %d steps" % (f, len(st)))
            for phase in ("all", "decode", "prefill"):
                e = [x["error"] for x, _, _ in st if phase in ("all", x["phase"])]
                print("  %-30s %-8s |error| median / p90 / max %s" % ("as recorded", phase, summary(e)))
            f_ops = [s_ - p for _, ops, _ in st for _, _, per, p, s_ in ops if per == 1]
            print("  F = s - p over the operators: median %.2f us; calibrate's fixed_s: median %s" % (
                1e6 * statistics.median(f_ops), "%.2f us" % (1e6 * statistics.median(fixed)) if fixed else "0"))
            for x, _, _ in sorted(st, key=lambda s_: -abs(s_[0]["error"]))[:6]:
                print("  %-7s tokens %5d context %5d  %+6.1f%%" % (x["phase"], x["tokens"], x["context"],
                                                                  100 * x["error"]))
    kept = [] if taken_out else runs  # the F / n rows assume a calibration that kept F
    fs = [median_fixed(st) for _, st in kept]
    for i, (f, st) in enumerate(kept):
        print("%s: %d steps" % (f, len(st)))
        for label, fixed in [("as recorded", None), ("sync (own ops)", "sync"),
                             ("F = %.1f us (this file)" % (1e6 * fs[i]), fs[i])] + \
                            ([("F = %.1f us (the other file)" % (1e6 * fs[1 - i]), fs[1 - i])] if len(runs) == 2 else []):
            for attn in (False, True) if fixed == "sync" else (False,):
                for phase in ("all", "decode", "prefill"):
                    e = [predict(x, ops, extra, fixed, fs[i], attn) for x, ops, extra in st
                         if phase in ("all", x["phase"])]
                    print("  %-30s %-8s |error| median / p90 / max %s" % (
                        label + (", + attention" if attn else ""), phase, summary(e)))
        worst = sorted(st, key=lambda s: -abs(s[0]["error"]))[:6]
        for x, ops, extra in worst:
            print("  %-7s tokens %5d context %5d  %+6.1f%% -> sync %+6.1f%%, F %+6.1f%%, sync + attention %+6.1f%%" % (
                x["phase"], x["tokens"], x["context"], 100 * x["error"], 100 * predict(x, ops, extra, "sync", fs[i]),
                100 * predict(x, ops, extra, fs[i], fs[i]), 100 * predict(x, ops, extra, "sync", fs[i], True)))
    if len(kept) == 2:  # for comparison only: a per-call constant fitted on one file's steps
        def const(st, c):
            return [(extra + sum(runs_ * per * max(p - c, 0.05 * p) for _, runs_, per, p, _ in ops)) /
                    x["measured_s"] - 1 for x, ops, extra in st]
        for i in (0, 1):
            c = min((k * 1e-7 for k in range(400)), key=lambda c: sum(math.log1p(e) ** 2 for e in const(runs[i][1], c)))
            print("a constant %.1f us a call less, least squares in log on %s's steps: %s there, %s on %s" % (
                1e6 * c, runs[i][0], summary(const(runs[i][1], c)), summary(const(runs[1 - i][1], c)), runs[1 - i][0]))
    if raw:
        for f, st in runs:
            e = [gemm_fastest(x, ops, extra, d) for x, ops, extra in st]
            if None in e:
                print("%s: no GEMM rows of ref-1b's shapes" % raw)
                break
            print("%s with every GEMM at its fastest sample of %s (as recorded otherwise): |error| median / p90 / "
                  "max %s; prefill T <= 128: %s" % (f, raw, summary(e), ", ".join(
                      "%+.1f%%" % (100 * v) for (x, _, _), v in zip(st, e) if x["phase"] == "prefill" and x["tokens"] <= 128)))
        print("%s:" % raw)
        for r in d["rows"]:
            line = "  %-18s M %6d N %6d K %5d S %5d median %9.2f us" % (
                r["bench"], r["M"], r["N"], r["K"], r["S"], 1e6 * r["median_s"])
            if "fixed_s" in r:
                line += "  fixed %6.2f us" % (1e6 * r["fixed_s"])
            if r.get("issue_s"):
                iss = statistics.median(r["issue_s"])
                line += "  issue %7.2f us %s" % (1e6 * iss, "host-bound" if d.get("backend") != "cpu" and iss >= 0.9 * r["median_s"] else "")
            print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
