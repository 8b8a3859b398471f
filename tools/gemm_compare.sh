#!/bin/sh
# tools/gemm_compare.sh — compare two GEMM kernel tables in the layout of
# ../shared/data/silicon/<gpu>/<engine>/gemm_perf.csv[.gz] row by row on
# (gemm_dtype, m, n, k): a table measured here (bin/gemm-sweep, calib/gpu_check.sh)
# against a shipped one (NVIDIA AIConfigurator's, Apache-2.0).
#
#   tools/gemm_compare.sh OURS.csv[.gz] THEIRS.csv[.gz]
#
# Repeated rows of one shape are reduced to their median first.  Prints per
# dtype and per band of m the shapes matched, the median of ours / theirs and
# the median and 90th percentile of |ln(ours / theirs)| (as a percentage,
# exp(x) - 1), plus the repeat spread of OURS (max/min - 1 over a shape's rows,
# median over shapes), which bounds how far apart two passes of one host are.
set -eu
[ $# -eq 2 ] || { echo "usage: tools/gemm_compare.sh OURS.csv[.gz] THEIRS.csv[.gz]" >&2; exit 2; }
cat_any() { case $1 in *.gz) gzip -dc "$1" ;; *) cat "$1" ;; esac; }
rows() { cat_any "$1" | awk -F, -v tag="$2" '!/^#/ && $1 == "gemm" { print tag, $3, $4, $5, $6, $7 }'; }
for f in "$1" "$2"; do
    [ -r "$f" ] || { echo "tools/gemm_compare.sh: $f: cannot read" >&2; exit 2; }
    [ -n "$(rows "$f" X | head -1)" ] || {
        echo "tools/gemm_compare.sh: $f: no gemm rows (want a gemm_perf.csv[.gz]: op_name,kernel_source,gemm_dtype,m,n,k,latency)" >&2; exit 2; }
done
{ rows "$1" A; rows "$2" B; } | awk '
function median(arr, n,   i, j, t) {
    for (i = 2; i <= n; i++) { t = arr[i]; for (j = i - 1; j >= 1 && arr[j] > t; j--) arr[j + 1] = arr[j]; arr[j + 1] = t }
    return n % 2 ? arr[(n + 1) / 2] : (arr[n / 2] + arr[n / 2 + 1]) / 2
}
function pct(arr, n, q,   i, j, t) {
    for (i = 2; i <= n; i++) { t = arr[i]; for (j = i - 1; j >= 1 && arr[j] > t; j--) arr[j + 1] = arr[j]; arr[j + 1] = t }
    i = int(q * (n - 1) + 1.5); return arr[i > n ? n : i]
}
{ key = $2 " " $3 " " $4 " " $5; n = ++cnt[$1, key]; val[$1, key, n] = $6; if ($1 == "A") keys[key] = 1 }
END {
    for (key in keys) {
        if (!cnt["B", key]) continue
        na = cnt["A", key]; nb = cnt["B", key]
        delete a; for (i = 1; i <= na; i++) a[i] = val["A", key, i]
        lo = a[1]; hi = a[1]; for (i = 1; i <= na; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
        ma = median(a, na)
        delete b; for (i = 1; i <= nb; i++) b[i] = val["B", key, i]
        mb = median(b, nb)
        split(key, f, " "); m = f[2] + 0
        band = m <= 16 ? "m<=16" : m <= 256 ? "m<=256" : m <= 2048 ? "m<=2048" : "m>2048"
        for (g = 1; g <= 2; g++) {
            grp = f[1] " " (g == 1 ? "all" : band)
            k = ++ng[grp]; r = ma / mb; ratio[grp, k] = r; l = log(r); absl[grp, k] = l < 0 ? -l : l
            spread[grp, k] = hi / lo - 1
        }
    }
    printf "%-9s %-8s %6s %12s %14s %11s %14s\n", "dtype", "m", "shapes", "median_ratio", "median_|err|%", "p90_|err|%", "repeat_spread%"
    for (grp in ng) {
        nn = ng[grp]
        delete r1; delete r2; delete r3
        for (i = 1; i <= nn; i++) { r1[i] = ratio[grp, i]; r2[i] = absl[grp, i]; r3[i] = spread[grp, i] }
        split(grp, gg, " ")
        printf "%-9s %-8s %6d %12.3f %14.1f %11.1f %14.1f\n", gg[1], gg[2], nn, median(r1, nn), 100 * (exp(median(r2, nn)) - 1), 100 * (exp(pct(r2, nn, 0.9)) - 1), 100 * median(r3, nn)
    }
}' | { IFS= read -r head; echo "$head"; sort -k1,1 -k2,2; }
