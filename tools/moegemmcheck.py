#!/usr/bin/env python3
"""MoE experts timed from the dense GEMM table against the measured MoE tables.

src/ops.c times the routed experts of a MoE shape that no MoE table holds
from the engine's dense GEMM table (rl_ops_moe_gemm_shapes; tester43 F10),
times the engine's measured bias correction (engines.h rl_moe_gemm_fix,
fitted by `calibrate --tables`, stop 34) when its profile carries one.  This
check times, for model shapes the shipped profiles *do* measure, the experts
both ways: the shipped profile (MoE table) and, GEMM-timed,
  uncorrected  a copy of it without its `moe` tables and its `moe_from_gemm`
               correction (what src/ops.c MOE_FROM_GEMM_BAND was measured on);
  held out     (--holdout) a profile calibrated from the engine's gemm and
               moe tables less every row of the checked model's shape
               (hidden, inter, topk, experts), so its correction was fitted
               on the other shapes only (leave one shape out);
over plans and steps, and prints the quantiles of ln(measured / GEMM-timed)
(p5, p10, p90, p95 at rank p (n + 1), as the tables' residuals), the median
and p90 |ln| and the centre ratio exp(median), decode and prefill apart.

--borrow checks the correction a profile without its own borrows from the
others (calibrate --tables, silicon.c borrow_moe_gemm, stop 39): for each
engine x GEMM variant fitted on its own MoE rows (12: BORROW_PAIRS), it
calibrates the engine's gemm and moe tables dumping each MoE row's rows per
expert and ln(measured / GEMM-timed) (RL_MOE_GEMM_ROWS), borrows the
correction from the other 11 fits by the same rule (the median, at each
node 4^i, of the same engine's other GPUs' corrections, else of every other
profile's, of that variant), and prints per fit and pooled by variant the
quantiles of ln(measured / borrowed-corrected) of its rows and the median /
p90 |ln| uncorrected, borrowed and own-corrected.  The pooled quantiles are
the borrowed correction's band (silicon.c MOE_GEMM_BORROWED).  ~6 minutes.

Usage (from the repository root, after `make`):
    python3 tools/moegemmcheck.py [--holdout | --borrow] [--tables DIR] [bin/roofline]
Takes ~3 minutes (about 4,000 `roofline ops` runs); --holdout ~10 minutes
more (15 calibrations of two tables, DIR ../shared/data/silicon).
"""
import gzip
import json
import math
import os
import subprocess
import sys
import tempfile

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
HOLDOUT = "--holdout" in sys.argv[1:]
BORROW = "--borrow" in sys.argv[1:]
TABLES = "../shared/data/silicon"
if "--tables" in sys.argv[1:]:
    TABLES = sys.argv[sys.argv.index("--tables") + 1]
    ARGS.remove(TABLES)
BIN = ARGS[0] if ARGS else "bin/roofline"
os.environ.setdefault("ROOFLINE_DATA", os.getcwd())  # presets of this tree, wherever BIN is
PAIRS = [("a100-sxm-80g", "trtllm"), ("a100-sxm-80g", "vllm"), ("h100-sxm", "vllm"),
         ("h200", "vllm"), ("b200", "vllm")]
GPU_DIR = {"a100-sxm-80g": "a100_sxm", "h100-sxm": "h100_sxm", "h200": "h200_sxm",
           "b200": "b200_sxm", "gb200": "gb200"}
# (hidden, inter, topk, experts) of each checked model (model/*.lua: d_model,
# d_ff or d_ff_expert, top_k, experts)
SHAPE = {"mixtral-8x7b": ("4096", "14336", "2", "8"), "mixtral-8x22b": ("6144", "16384", "2", "8"),
         "deepseek-v3": ("7168", "2048", "8", "256")}
CASES = [("mixtral-8x7b", ["--weights", "bf16"]),
         ("mixtral-8x7b", ["--weights", "fp8", "--compute", "fp8"]),
         ("mixtral-8x22b", ["--weights", "bf16"]),
         ("mixtral-8x22b", ["--weights", "fp8", "--compute", "fp8"]),
         ("deepseek-v3", ["--weights", "fp8", "--compute", "fp8"])]
PLANS = [["--chips", "1"], ["--chips", "2", "--tp", "2"], ["--chips", "4", "--tp", "4"],
         ["--chips", "8", "--tp", "8"], ["--chips", "8", "--ep", "8"],
         ["--chips", "8", "--tp", "2", "--ep", "4"]]
STEPS = [["--phase", "decode", "--context", "2048", "--batch", b] for b in ["1", "4", "16", "64", "256"]] + \
        [["--phase", "prefill", "--tokens", t] for t in ["512", "2048", "8192"]]


def without_moe(src, dst):
    """Copy profile src to dst without its `moe = {...}` tables block (the
    first; the second `moe = {` line is its residuals, kept) and without its
    `moe_from_gemm = {...}` correction: GEMM-timed, uncorrected."""
    out, skip, done = [], False, False
    for line in open(src):
        if (line.startswith("        moe = {") and not done) or \
                line.startswith("        moe_from_gemm = {"):
            skip, done = True, done or line.startswith("        moe = {")
            continue
        if skip:
            if line.rstrip() in ("        },", "        }"):
                skip = False
            continue
        out.append(line)
    open(dst, "w").write("".join(out))


def held_out(tmp, hw, engine, model):
    """A profile of hw's engine calibrated from its gemm and moe tables less
    every row of model's MoE shape (leave one shape out), or exit."""
    d = os.path.join(tmp, "%s-%s-%s" % (hw, engine, model))
    os.makedirs(os.path.join(d, engine))
    src = os.path.join(TABLES, GPU_DIR[hw], engine)
    os.symlink(os.path.abspath(os.path.join(src, "gemm_perf.csv.gz")),
               os.path.join(d, engine, "gemm_perf.csv.gz"))
    cols = None
    with gzip.open(os.path.join(src, "moe_perf.csv.gz"), "rt") as f, \
            gzip.open(os.path.join(d, engine, "moe_perf.csv.gz"), "wt") as g:
        for line in f:
            if line.startswith("#"):
                g.write(line)
                continue
            v = line.rstrip("\n").split(",")
            if cols is None:
                cols = [v.index(c) for c in ("hidden_size", "inter_size", "topk", "num_experts")]
            elif tuple(v[c] for c in cols) == SHAPE[model]:
                continue
            g.write(line)
    out = os.path.join(tmp, "%s-%s-%s.lua" % (hw, engine, model))
    r = subprocess.run([BIN, "calibrate", "--tables", d, "--hw", hw, "--engine", engine,
                        "--save", out, "--format", "csv"], capture_output=True, text=True)
    if r.returncode:
        sys.exit("calibrate %s %s without %s: %s" % (hw, engine, model, r.stderr))
    return out


def experts(hw, engine, model, extra):
    """Summed routed-expert time of one step and the provenances, or None."""
    r = subprocess.run([BIN, "ops", "--model", model, "--hw", hw, "--engine", engine,
                        "--format", "json"] + extra, capture_output=True, text=True)
    if r.returncode:
        return None
    t, prov = 0.0, set()
    for op in json.loads(r.stdout)["rows"]:
        if op["op"].startswith("expert_"):
            t += op["total_s"]
            prov.add(op["provenance"])
    return t, prov


def quantile(v, p):
    k = p * (len(v) + 1)
    i = int(k)
    if i < 1:
        return v[0]
    if i >= len(v):
        return v[-1]
    return v[i - 1] + (k - i) * (v[i] - v[i - 1])


def report(name, errs):
    """errs: (ln ratio, phase) pairs."""
    v = sorted(e for e, _ in errs)
    a = sorted(abs(e) for e in v)
    print("%-12s n %d  ln(measured / GEMM-timed): p5 %.4f p10 %.4f p50 %.4f p90 %.4f p95 %.4f;"
          "  |ln| median %.3f p90 %.3f;  centre x%.2f" %
          (name, len(v), quantile(v, .05), quantile(v, .1), quantile(v, .5), quantile(v, .9),
           quantile(v, .95), quantile(a, .5), quantile(a, .9), math.exp(quantile(v, .5))), end="")
    for ph in ("decode", "prefill"):
        w = sorted(e for e, p in errs if p == ph)
        if w:
            print("  %s x%.2f" % (ph, math.exp(quantile(w, .5))), end="")
    print()


# the engine x GEMM variant pairs the shipped profiles fit on their own MoE rows
BORROW_PAIRS = [("a100-sxm-80g", "trtllm"), ("a100-sxm-80g", "vllm"), ("b200", "vllm"),
                ("gb200", "vllm"), ("h100-sxm", "trtllm"), ("h100-sxm", "vllm"),
                ("h200", "trtllm"), ("h200", "vllm")]


def fits_of(path):
    """{variant: (rows_per_expert, ln_ratio)} of a profile's own fits (not borrowed)."""
    out, var, me = {}, None, None
    for line in open(path):
        t = line.strip()
        if t.startswith("moe_from_gemm = {"):
            var = ""
        elif var is not None and "fitted_rows" in t:
            var = t.split()[0]
        elif var and t.startswith("rows_per_expert"):
            me = [float(x) for x in t.split("{")[1].split("}")[0].split(",")]
        elif var and t.startswith("ln_ratio"):
            out[var] = (me, [float(x) for x in t.split("{")[1].split("}")[0].split(",")])
            var = ""
        elif var is not None and t in ("},", "}"):
            break
    return out


def corr_ln(fit, me):
    """engines.c rl_moe_gemm_ln: linear in ln m_e between nodes, flat beyond."""
    x, y = fit
    if me <= x[0] or len(x) == 1:
        return y[0]
    for i in range(1, len(x)):
        if me < x[i]:
            u = math.log(me / x[i - 1]) / math.log(x[i] / x[i - 1])
            return y[i - 1] + u * (y[i] - y[i - 1])
    return y[-1]


def borrowed(fits, hw, engine, var):
    """The rule of silicon.c borrow_moe_gemm: the donors are the other
    profiles' own fits of var on the same engine, else on every engine; at
    each node 4^i up to the donors' last one, the median of their values."""
    donors = [f for (h, e, v), f in fits.items() if v == var and h != hw and e == engine] or \
             [f for (h, e, v), f in fits.items() if v == var and (h, e) != (hw, engine)]
    top = max(max(f[0]) for f in donors)
    me = [4.0 ** i for i in range(8) if 4.0 ** i <= top]
    return me, [quantile_mid(sorted(corr_ln(f, m) for f in donors)) for m in me]


def quantile_mid(v):
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def borrow_check():
    fits, rows = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for hw, engine in BORROW_PAIRS:
            d = os.path.join(tmp, "%s-%s" % (hw, engine))
            os.makedirs(os.path.join(d, engine))
            for f in ("gemm_perf.csv.gz", "moe_perf.csv.gz"):
                os.symlink(os.path.abspath(os.path.join(TABLES, GPU_DIR[hw], engine, f)),
                           os.path.join(d, engine, f))
            dump, out = d + ".rows", d + ".lua"
            env = dict(os.environ, RL_MOE_GEMM_ROWS=dump)
            r = subprocess.run([BIN, "calibrate", "--tables", d, "--hw", hw, "--engine", engine,
                                "--save", out, "--format", "csv"], capture_output=True, text=True,
                               env=env)
            if r.returncode:
                sys.exit("calibrate %s %s: %s" % (hw, engine, r.stderr))
            for var, f in fits_of(out).items():
                fits[(hw, engine, var)] = f
            for line in open(dump):
                var, me, ln, _ = line.split(",")
                rows.setdefault((hw, engine, var), []).append((float(me), float(ln)))
            print("%s %s: fits %s" % (hw, engine, sorted(v for h, e, v in fits if (h, e) == (hw, engine))),
                  flush=True)
    pooled = {}
    for key in sorted(fits):
        hw, engine, var = key
        b = borrowed(fits, hw, engine, var)
        errs = [(ln - corr_ln(b, me), ln, ln - corr_ln(fits[key], me)) for me, ln in rows[key]]
        pooled.setdefault(var, []).extend(errs)
        line = "%s %s %s n %d borrowed ln %s" % (hw, engine, var, len(errs),
                                                 " ".join("%.3f" % x for x in b[1]))
        print(line)
        borrow_report("  ", errs)
    for var, errs in sorted(pooled.items()):
        borrow_report("pooled %s" % var, errs)


def borrow_report(name, errs):
    e = sorted(x for x, _, _ in errs)
    a = [sorted(abs(t[i]) for t in errs) for i in (1, 0, 2)]
    print("%s n %d ln(measured / borrowed-corrected) p5 %.3f p10 %.3f p50 %.3f p90 %.3f p95 %.3f;"
          " |ln| median / p90: uncorrected %.3f / %.3f, borrowed %.3f / %.3f, own %.3f / %.3f" %
          ((name, len(e)) + tuple(quantile(e, p) for p in (.05, .1, .5, .9, .95)) +
           tuple(quantile(x, p) for x in a for p in (.5, .9))))


def main():
    if BORROW:
        borrow_check()
        return
    arms = {"shipped": [], "uncorrected": [], "held out": []}
    with tempfile.TemporaryDirectory() as tmp:
        for hw, engine in PAIRS:
            shipped = "hw_profiles/engines/%s-%s.lua" % (hw, engine)
            copies = {"shipped": os.path.join(tmp, "%s-%s.lua" % (hw, engine)),
                      "uncorrected": os.path.join(tmp, "%s-%s-bare.lua" % (hw, engine))}
            without_moe(shipped, copies["uncorrected"])
            # the shipped profile without its moe tables, its correction kept
            lines = open(shipped).read().split("\n")
            start = lines.index(next(l for l in lines if l.startswith("        moe = {")))
            end = next(i for i in range(start, len(lines)) if lines[i] in ("        },", "        }"))
            open(copies["shipped"], "w").write("\n".join(lines[:start] + lines[end + 1:]))
            n0 = len(arms["uncorrected"])
            for model, prec in CASES:
                if HOLDOUT and (hw, engine, model) not in copies:
                    copies[(hw, engine, model)] = held_out(tmp, hw, engine, model)
                for plan in PLANS:
                    for step in STEPS:
                        extra = prec + plan + step
                        a = experts(shipped, engine, model, extra)
                        if not a or not (a[1] & {"measured", "interpolated"}):
                            continue
                        for arm in arms:
                            f = copies.get((hw, engine, model)) if arm == "held out" else copies[arm]
                            b = f and experts(f, engine, model, extra)
                            if not f:
                                continue
                            if not b or b[1] != {"derived"}:
                                sys.exit("%s %s %s: GEMM-timed experts read %s" %
                                         (f, model, extra, b and b[1]))
                            arms[arm].append((math.log(a[0] / b[0]), step[1]))
            print("%s %s: %d configurations" % (hw, engine, len(arms["uncorrected"]) - n0))
    for arm, errs in arms.items():
        if errs:
            report(arm, errs)


if __name__ == "__main__":
    main()
