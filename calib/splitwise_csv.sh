#!/bin/sh
# splitwise_csv.sh — SplitwiseSim's measured perf model as a roofline
# measurement CSV (src/measure.h), one row per configuration, the median of
# its repeats.
#
# Source: SplitwiseSim (Patel et al., "Splitwise: Efficient Generative LLM
# Inference Using Phase Splitting", ISCA 2024), repository
# Mutinifni/splitwise-sim, data/perf_model.csv, MIT license; described in
# ../shared/data/README.md.  Columns used: model, hardware, prompt_size,
# batch_size, token_size, prompt_time (ms, prefill of the batch), token_time
# (ms, mean decode step over token_size generated tokens), tensor_parallel.
#
# Choices (each stated in docs/validation.md, Engine costs):
#  - prefill rows: tokens = prompt_size, measured_s = prompt_time / 1000; the
#    prefill does not depend on token_size, so repeats of every token_size
#    pool into one configuration;
#  - decode rows: the mean step over token_size steps is the step at the
#    mean context, context = prompt_size + token_size / 2 (the attended
#    tokens grow by one a step and a step's time is linear in them);
#  - hardware: a100-80gb -> a100-sxm-80g, h100-80gb -> h100-sxm (DGX
#    systems: SXM parts); h100-80gb-pcap (power-capped) is hardware of its
#    own without a profile here, and is left out;
#  - tensor_parallel 2 with batch 64 is left out (docs/validation.md: anomalous, the
#    prefill of 64 prompts measures less than that of 32);
#  - MODEL (argument 2, default llama2-70b; `all` for every model) picks the
#    rows; the model column names roofline's preset (llama2-70b, bloom-176b).
#
# usage: calib/splitwise_csv.sh SPLITWISE.csv [MODEL|all] > out.csv
set -eu
in=${1:?usage: splitwise_csv.sh SPLITWISE.csv [MODEL]}
model=${2:-llama2-70b}
echo "phase,model,hw,tp,batch,context,tokens,measured_s"
awk -F, -v model="$model" '
NR == 1 { next }
model != "all" && $1 != model { next }
$2 == "a100-80gb" { hw = "a100-sxm-80g" }
$2 == "h100-80gb" { hw = "h100-sxm" }
$2 != "a100-80gb" && $2 != "h100-80gb" { next }
$11 == 2 && $4 == 64 { next }
{
    printf "prefill,%s,%s,%d,%d,,%d|%.9g\n", $1, hw, $11, $4, $3, $8 / 1000
    printf "decode,%s,%s,%d,%d,%d,|%.9g\n", $1, hw, $11, $4, $3 + $5 / 2, $9 / 1000
}' "$in" | sort -t'|' -k1,1 -k2,2g | awk -F'|' '
function flush() {
    if (n == 0) return
    m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    printf "%s,%.6g\n", key, m
}
$1 != key { flush(); key = $1; n = 0 }
{ v[++n] = $2 }
END { flush() }'
