# Predicted vs measured end-to-end times (roofline validate --against, fit --plot), log-log.
# Variables set by roofline: datafile, outfile, plottitle.
# datafile: three blocks (decode, prefill, static); columns measured_s predicted_s.
set title plottitle noenhanced
set xlabel 'measured (s), log scale'
set ylabel 'predicted (s), log scale'
set logscale xy
set format x '%g'
set format y '%g'
set grid xtics ytics mxtics mytics lc rgb '#e4e4e4' lw 1, lc rgb '#f2f2f2' lw 1
set key top left box noenhanced
set size square
stats datafile using 1:2 nooutput
lo = (STATS_min_x < STATS_min_y ? STATS_min_x : STATS_min_y) / 1.5
hi = (STATS_max_x > STATS_max_y ? STATS_max_x : STATS_max_y) * 1.5
set xrange [lo:hi]
set yrange [lo:hi]
plot x title 'y = x' lw 2 lc rgb '#333333', \
     1.1 * x title '+10%' dt 2 lc rgb '#888888', \
     0.9 * x title '-10%' dt 2 lc rgb '#888888', \
     datafile index 0 using 1:2 title 'decode' pt 7 ps 1.0 lc 1, \
     datafile index 1 using 1:2 title 'prefill' pt 5 ps 1.0 lc 2, \
     datafile index 2 using 1:2 title 'static' pt 9 ps 1.2 lc 3
