# Predicted vs measured kernel latency of the configurations held back from
# a kernel-table fit (roofline validate --tables).
# Variables: datafile, outfile, plottitle.
# datafile: columns class (0 gemm, 1 prefill attention, 2 decode attention, 3 MoE),
# dtype variant, measured_s, predicted_s.
set title plottitle noenhanced
set xlabel 'measured latency (s)'
set ylabel 'predicted latency (s)'
set logscale xy
set format x '%.0e'
set format y '%.0e'
set grid xtics ytics lc rgb '#e4e4e4'
set key top left box opaque
plot datafile using ($1 == 0 ? $3 : 1/0):4 with points pt 7 ps 0.3 lc rgb '#4c72b0' title 'GEMM', \
     datafile using ($1 == 1 ? $3 : 1/0):4 with points pt 7 ps 0.3 lc rgb '#dd8452' title 'prefill attention', \
     datafile using ($1 == 2 ? $3 : 1/0):4 with points pt 7 ps 0.3 lc rgb '#55a868' title 'decode attention', \
     datafile using ($1 == 3 ? $3 : 1/0):4 with points pt 7 ps 0.3 lc rgb '#8172b3' title 'MoE experts', \
     x with lines lw 1 lc rgb '#333333' title 'predicted = measured', \
     1.15 * x with lines dt 2 lc rgb '#999999' title '±15%', \
     x / 1.15 with lines dt 2 lc rgb '#999999' notitle
