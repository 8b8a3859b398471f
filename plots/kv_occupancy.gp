# KV-cache occupancy of the decode replicas over a serving simulation.
# Variables: datafile, outfile, plottitle.
# datafile: columns t_s kv_fraction (pages in use / pages, all decode replicas).
set title plottitle noenhanced
set xlabel 'simulated time (s)'
set ylabel 'fraction of KV pages in use'
set yrange [0:1.05]
set grid xtics ytics lc rgb '#e4e4e4'
set key top right box opaque
plot datafile using 1:2 with lines lw 2 lc rgb '#4c72b0' title 'KV occupancy'
