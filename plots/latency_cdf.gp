# Latency CDFs of a serving simulation: TTFT, TPOT and end-to-end.
# Variables: datafile, outfile, plottitle.
# datafile: three blocks (gnuplot index 0, 1, 2: TTFT, TPOT, end-to-end),
# columns latency_s fraction_of_requests (nearest-rank quantiles).
set title plottitle noenhanced
set xlabel 'latency (s), log scale'
set ylabel 'fraction of requests'
set logscale x
set format x '%g'
set yrange [0:1.02]
set grid xtics ytics lc rgb '#e4e4e4'
set key bottom right box opaque
plot datafile index 0 using 1:2 with lines lw 2 lc rgb '#4c72b0' title 'TTFT', \
     datafile index 1 using 1:2 with lines lw 2 lc rgb '#55a868' title 'TPOT', \
     datafile index 2 using 1:2 with lines lw 2 lc rgb '#dd8452' title 'end-to-end'
