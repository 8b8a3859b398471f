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
# A class with no row keeps out of the key (tester50 F15: 'MoE experts'
# was listed with no MoE data); MoE points are red triangles, told apart
# from the blue GEMM dots at this size.
array n[4]
do for [c=0:3] { stats datafile using ($1 == c ? 1 : 0) nooutput; n[c+1] = STATS_sum }
key_of(c, t) = n[c+1] > 0 ? t : ''
plot datafile using ($1 == 0 ? $3 : 1/0):4 with points pt 7 ps 0.3 lc rgb '#4c72b0' title key_of(0, 'GEMM'), \
     datafile using ($1 == 1 ? $3 : 1/0):4 with points pt 7 ps 0.3 lc rgb '#dd8452' title key_of(1, 'prefill attention'), \
     datafile using ($1 == 2 ? $3 : 1/0):4 with points pt 7 ps 0.3 lc rgb '#55a868' title key_of(2, 'decode attention'), \
     datafile using ($1 == 3 ? $3 : 1/0):4 with points pt 9 ps 0.5 lc rgb '#c44e52' title key_of(3, 'MoE experts'), \
     x with lines lw 1 lc rgb '#333333' title 'predicted = measured', \
     1.15 * x with lines dt 2 lc rgb '#999999' title '±15%', \
     x / 1.15 with lines dt 2 lc rgb '#999999' notitle
