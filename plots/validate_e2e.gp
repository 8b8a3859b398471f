# Predicted vs measured end-to-end times (roofline validate --against, fit --plot), log-log.
# Variables set by roofline: datafile, outfile, plottitle, has0..has2 (1 when the
# decode, prefill, static block holds rows: an empty class stays out of the key,
# tester46 F11).
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
# one column at a time: two-column stats fits a line, and warns on stderr that it
# cannot compute its errors for a single point (one-row CSV; tester41 F3)
stats datafile using 1 nooutput
lo = STATS_min
hi = STATS_max
stats datafile using 2 nooutput
lo = lo < STATS_min ? lo : STATS_min
hi = hi > STATS_max ? hi : STATS_max
# out to whole decades, 10% clear of the points: a log axis labels its decades only,
# so points within one decade (one point above all) had an axis without a number
lo = 10.0 ** floor(log10(lo / 1.1))
hi = 10.0 ** ceil(log10(hi * 1.1))
set xrange [lo:hi]
set yrange [lo:hi]
plot x title 'y = x' lw 2 lc rgb '#333333', \
     1.1 * x title '+10%' dt 2 lc rgb '#888888', \
     0.9 * x title '-10%' dt 2 lc rgb '#888888', \
     datafile index 0 using 1:2 title (has0 ? 'decode' : '') pt 7 ps 1.0 lc 1, \
     datafile index 1 using 1:2 title (has1 ? 'prefill' : '') pt 5 ps 1.0 lc 2, \
     datafile index 2 using 1:2 title (has2 ? 'static' : '') pt 9 ps 1.2 lc 3
