#!/bin/sh
# e2e_gap.sh — how far SplitwiseSim's end-to-end medians lie above the
# kernel tables' prediction of the same configurations: the figures of
# src/result.c E2E_GAP (e2e_gap_note; docs/model.md, "The end-to-end gap").
#
# For llama2-70b fp16 on a100-sxm-80g and h100-sxm under the trtllm and vllm
# kernel tables: calib/splitwise_csv.sh's rows (the median of each
# configuration's repeats), predicted by `roofline validate --against` (the
# tables' step and prefill, rows beyond max_context left out), and per
# phase and TP the median, p10 and p90 of measured / predicted at rank
# p (n + 1) (fit.h rl_fit_bound), clamped to the extremes.
#
# Needs jq.
#
# usage: calib/e2e_gap.sh SPLITWISE.csv [ROOFLINE]
set -eu
in=${1:?usage: e2e_gap.sh SPLITWISE.csv [ROOFLINE]}
bin=${2:-bin/roofline}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sh "$(dirname "$0")/splitwise_csv.sh" "$in" llama2-70b > "$tmp/all.csv"
for hw in a100-sxm-80g h100-sxm; do
    awk -F, -v hw=$hw 'NR == 1 || $3 == hw' "$tmp/all.csv" > "$tmp/$hw.csv"
    for e in trtllm vllm; do
        "$bin" validate --against "$tmp/$hw.csv" --model llama2-70b --hw $hw --engine $e \
            --format json 2>/dev/null |
            jq -r '.rows[] | "\(.phase) \(.tp) \(.measured_s / .predicted_s)"' > "$tmp/v.txt"
        awk -v hw=$hw -v e=$e '
        { k = $1 " tp" $2; n[k]++; v[k, n[k]] = $3 }
        function q(k, p,   m, h, i, j, t) {
            m = n[k]
            for (i = 1; i <= m; i++) s[i] = v[k, i]
            for (i = 2; i <= m; i++) { t = s[i]; for (j = i - 1; j >= 1 && s[j] > t; j--) s[j + 1] = s[j]; s[j + 1] = t }
            h = p * (m + 1)
            if (h <= 1) return s[1]
            if (h >= m) return s[m]
            i = int(h)
            return s[i] + (h - i) * (s[i + 1] - s[i])
        }
        END {
            for (k in n)
                printf "%s %s %s n %d median x%.2f p10 x%.2f p90 x%.2f\n", hw, e, k, n[k],
                       q(k, 0.5), q(k, 0.1), q(k, 0.9)
        }' "$tmp/v.txt" | sort
    done
done
