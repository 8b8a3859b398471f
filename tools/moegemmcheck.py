#!/usr/bin/env python3
"""MoE experts timed from the dense GEMM table against the measured MoE tables.

src/ops.c times the routed experts of a MoE shape that no MoE table holds
from the engine's dense GEMM table (moe_gemm_shapes; tester43 F10).  This
check times, for model shapes the shipped profiles *do* measure, the
experts both ways: the shipped profile (MoE table) and a copy of it with its
`moe` tables removed (GEMM table), over plans and steps, and prints the
quantiles of ln(measured / GEMM-timed) that src/ops.c MOE_FROM_GEMM_BAND
carries (p5, p10, p90, p95 at rank p (n + 1), as the tables' residuals).

Usage (from the repository root, after `make`):
    python3 tools/moegemmcheck.py [bin/roofline]
Takes ~3 minutes (about 4,000 `roofline ops` runs).  Reads hw_profiles only.
"""
import json
import os
import subprocess
import sys
import tempfile

BIN = sys.argv[1] if len(sys.argv) > 1 else "bin/roofline"
os.environ.setdefault("ROOFLINE_DATA", os.getcwd())  # presets of this tree, wherever BIN is
PAIRS = [("a100-sxm-80g", "trtllm"), ("a100-sxm-80g", "vllm"), ("h100-sxm", "vllm"),
         ("h200", "vllm"), ("b200", "vllm")]
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
    first; the second `moe = {` line is its residuals, kept)."""
    out, skip, done = [], False, False
    for line in open(src):
        if line.startswith("        moe = {") and not done:
            skip = done = True
            continue
        if skip:
            if line.rstrip() in ("        },", "        }"):
                skip = False
            continue
        out.append(line)
    open(dst, "w").write("".join(out))


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


def main():
    errs = []
    with tempfile.TemporaryDirectory() as tmp:
        for hw, engine in PAIRS:
            copy = os.path.join(tmp, "%s-%s.lua" % (hw, engine))
            without_moe("hw_profiles/engines/%s-%s.lua" % (hw, engine), copy)
            n0 = len(errs)
            for model, prec in CASES:
                for plan in PLANS:
                    for step in STEPS:
                        extra = prec + plan + step
                        a = experts(hw, engine, model, extra)
                        b = experts(copy, engine, model, extra)
                        if not a or not b or not (a[1] & {"measured", "interpolated"}):
                            continue
                        if b[1] != {"derived"}:
                            sys.exit("%s %s %s: GEMM-timed experts read %s" % (hw, model, extra, b[1]))
                        errs.append(__import__("math").log(a[0] / b[0]))
            print("%s %s: %d configurations" % (hw, engine, len(errs) - n0))
    v = sorted(errs)
    print("n %d  ln(measured / GEMM-timed): p5 %.4f p10 %.4f p50 %.4f p90 %.4f p95 %.4f" %
          (len(v), quantile(v, .05), quantile(v, .1), quantile(v, .5), quantile(v, .9),
           quantile(v, .95)))


if __name__ == "__main__":
    main()
