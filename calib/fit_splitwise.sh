#!/bin/sh
# fit_splitwise.sh — the shipped engine profiles fitted on SplitwiseSim's
# measured Llama-2-70B rows (calib/splitwise_csv.sh: medians of repeats):
# hw_profiles/a100-sxm-80g-splitwise.lua and hw_profiles/h100-sxm-splitwise.lua,
# each a copy of its base preset plus engines.splitwise.costs (what it was fitted on,
# 5-fold cross-validated error, band).  Rerun after a base preset changes.
# SplitwiseSim ran prompts of 8192 tokens, beyond Llama-2-70B's 4096-token
# max_context, hence the --set.
#
# usage: calib/fit_splitwise.sh [BIN] [SPLITWISE.csv]
set -eu
bin=${1:-bin/roofline}
src=${2:-../shared/data/e2e/splitwise_perf_model.csv}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$(dirname "$0")/splitwise_csv.sh" "$src" > "$tmp/splitwise_llama2-70b.csv"
for hw in a100-sxm-80g h100-sxm; do
    "$bin" fit "$tmp/splitwise_llama2-70b.csv" --model llama2-70b --hw "$hw" --engine splitwise \
        --set model.max_context=16384 --save "$tmp/$hw-splitwise.lua" > "$tmp/fit.txt"
    # fit refuses to overwrite a shipped preset: this script regenerates them on purpose
    mv "$tmp/$hw-splitwise.lua" "hw_profiles/$hw-splitwise.lua"
    awk -v hw="$hw" '$1 == "cv_median_abs_error" { m = $2 } $1 == "cv_p90_abs_error" { p = $2 }
        END { printf "hw_profiles/%s-splitwise.lua: 5-fold CV |error| median %.1f%%, p90 %.1f%%\n",
              hw, 100 * m, 100 * p }' "$tmp/fit.txt"
done
