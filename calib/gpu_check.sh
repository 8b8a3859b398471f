#!/bin/sh
# calib/gpu_check.sh — the GPU check, ready to run on a CUDA host (< 8 min):
# builds the CUDA backend (`make cuda`), times cuBLASLt GEMMs at the shapes
# of calib/gemm_shapes.txt into a kernel table (bin/gemm-sweep), runs the
# CUDA-vs-CPU kernel tests, calibrates the GPU through the engine's kernels,
# validates the engine's decode/prefill grid against the calibrated
# prediction, and writes every output under one folder:
#
#   calib/gpu_check.sh [OUT]     (default out/gpu-check-<host>-<UTC>)
#   MODEL=ref-1b                 model spec for calibration shapes and validation
#   PREBUILT=1                   skip the build: bin/roofline-cuda, bin/gemm-sweep
#                                and build-cuda/tests/test_cuda are already there
#   SWEEP_S=90                   time budget of the GEMM sweep (seconds)
#
# OUT holds nvidia-smi.txt (-q too), build.log, gemm_perf.csv (the sweep,
# compare with tools/gemm_compare.sh), test_cuda.log, calibrate.json,
# <host>.lua / <host>.json (the calibrated profile and raw samples),
# validate.json, validate.txt and the roofline plot; since stop 38 also
# second.lua / second.json (a second calibration in the same lease: how far
# two calibrations' medians differ, GEMMs at M <= 128 most) and
# step_excess.txt (calib/step_excess.py over validate.json and the raw
# samples: the steps' error with each sample's fixed cost taken out, each
# benchmark's fixed_s and whether its calls are host-bound; the test of
# docs/validation.md "Stop 38").  Exit status: 0 when every step ran, 1
# otherwise (later steps still run).
set -u
cd "$(dirname "$0")/.." || exit 1
HOST=$(hostname -s 2>/dev/null || hostname)
OUT=${1:-out/gpu-check-$HOST-$(date -u +%Y%m%dT%H%M%SZ)}
MODEL=${MODEL:-ref-1b}
mkdir -p "$OUT" || exit 1
status=0
step() { # NAME SECONDS CMD...: run with a time limit, log to OUT/NAME.log
    name=$1; limit=$2; shift 2
    echo "gpu_check: $name" >&2
    start=$(date +%s)
    timeout "$limit" "$@" > "$OUT/$name.log" 2>&1 || { echo "gpu_check: $name FAILED (see $OUT/$name.log)" >&2; status=1; }
    echo "gpu_check: $name took $(( $(date +%s) - start )) s" >&2
}
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1 || echo "gpu_check: nvidia-smi not found" >&2
nvidia-smi -q >> "$OUT/nvidia-smi.txt" 2>&1
[ "${PREBUILT:-0}" = 1 ] || step build 240 make -j"$(nproc)" cuda
step gemm_sweep $(( ${SWEEP_S:-90} + 30 )) sh -c "bin/gemm-sweep calib/gemm_shapes.txt --budget-s ${SWEEP_S:-90} > '$OUT/gemm_perf.csv'"
step test_cuda 60 build-cuda/tests/test_cuda
step calibrate 120 bin/roofline-cuda calibrate --backend cuda --model "$MODEL" --format json --output "$OUT/calibrate.json"
cp "hw_profiles/calibrated/$HOST.lua" "hw_profiles/calibrated/$HOST.json" "$OUT/" 2>/dev/null
step validate 180 bin/roofline-cuda validate --backend cuda --model "$MODEL" --format json --save "$OUT/validate.json" --plot "$OUT/validate-$HOST-cuda.png"
step calibrate2 120 bin/roofline-cuda calibrate --backend cuda --model "$MODEL" --save "$OUT/second.lua"
if command -v python3 > /dev/null && [ -f "$OUT/validate.json" ]; then
    step step_excess 60 sh -c "python3 calib/step_excess.py '$OUT/validate.json' --calibrate '$OUT/$HOST.json' > '$OUT/step_excess.txt'"
fi
if [ -f "$OUT/validate.json" ]; then
    grep -E '"(runs|median_abs_error|p90_abs_error|max_abs_error)"' "$OUT/validate.json" > "$OUT/validate.txt"
    cat "$OUT/validate.txt" >&2
fi
echo "gpu_check: results in $OUT (status $status)" >&2
exit $status
