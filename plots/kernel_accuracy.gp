# Predicted vs measured kernel latency of the configurations held back from
# a kernel-table fit (roofline validate --tables).
# Variables: datafile, outfile, plottitle.
# datafile: columns class (engines.h rl_kclass: 0 gemm, 1 prefill attention,
# 2 decode attention, 3 MoE, 4 prefill MLA, 5 decode MLA), dtype variant,
# measured_s, predicted_s.
set title plottitle noenhanced
set xlabel 'measured latency (s)'
set ylabel 'predicted latency (s)'
set logscale xy
set format x '%.0e'
set format y '%.0e'
set grid xtics ytics lc rgb '#e4e4e4'
set key top left box opaque
# Only a class with positive points is drawn (and keyed): tester50 F15
# listed 'MoE experts' with no MoE data, and a folder of MLA tables alone
# drew no point at all, so gnuplot refused the log axes ("logscaled axis
# must have positive range", fixRC #9).  MoE points are red triangles, told
# apart from the blue GEMM dots at this size; MLA's are squares.
array n[6]
do for [c=0:5] { stats datafile using (($1 == c && $3 > 0 && $4 > 0) ? 1 : 0) nooutput; n[c+1] = STATS_sum }
array name[6] = ['GEMM', 'prefill attention', 'decode attention', 'MoE experts', 'prefill MLA', 'decode MLA']
array look[6] = ["pt 7 ps 0.3 lc rgb '#4c72b0'", "pt 7 ps 0.3 lc rgb '#dd8452'", \
                 "pt 7 ps 0.3 lc rgb '#55a868'", "pt 9 ps 0.5 lc rgb '#c44e52'", \
                 "pt 5 ps 0.6 lc rgb '#8172b2'", "pt 5 ps 0.6 lc rgb '#937860'"]
series = ''
do for [c=0:5] {
    if (n[c+1] > 0) {
        series = series . sprintf("datafile using (($1 == %d && $3 > 0 && $4 > 0) ? $3 : 1/0):4 with points %s title '%s', ", c, look[c+1], name[c+1])
    }
}
eval('plot ' . series . "x with lines lw 1 lc rgb '#333333' title 'predicted = measured', 1.15 * x with lines dt 2 lc rgb '#999999' title '±15%', x / 1.15 with lines dt 2 lc rgb '#999999' notitle")
