# HBM use vs batch: weights, KV cache, activations stacked, against capacity.
# Variables: datafile, outfile, plottitle, capacity (GB), bmin, bmax, maxbatch
# (largest B whose weights + KV fit, rl_memory_max_batch), usable (GB: what
# weights + KV may use, the limit maxbatch is judged by; < 0 when it is the
# whole HBM, not drawn) and usablelabel (its rule, src/plot.c put_usable;
# "does not fit: ..." where the weights alone exceed it).
# datafile: columns batch weights_GB kv_GB activations_GB.
set title plottitle noenhanced
set xlabel 'batch B (sequences)'
set ylabel 'memory over all chips (GB = 10^9 bytes)'
set xrange [bmin:bmax]
set yrange [0:*]
set grid xtics ytics lc rgb '#e4e4e4'
# below the plot, outside the axes: inside, top left, it covered the HBM
# capacity and usable lines it names (README tester, fixGI #6)
set bmargin 10
set key at screen 0.5, screen 0.012 center bottom vertical maxcols 1 box font ',13' spacing 1.2
set style fill solid 0.75 noborder
limit = usable >= 0 ? usable : capacity
usableline = usable >= 0 ? ", usable with lines lw 2 dt 4 lc rgb '#8c564b' title sprintf('%s: %.1f GB', usablelabel, usable)" : ""
if (maxbatch >= bmin && maxbatch <= bmax) {
  set arrow 1 from maxbatch, graph 0 to maxbatch, limit nohead lw 2 dt 3 lc rgb '#333333' front
  set label 1 sprintf('largest batch that fits: %d', maxbatch) at maxbatch, limit offset char 1,(usable >= 0 ? -1.5 : 1) font ',12' front
}
plot datafile using 1:(0):2 with filledcurves lc rgb '#4c72b0' title 'weights', \
     datafile using 1:2:($2 + $3) with filledcurves lc rgb '#dd8452' title 'KV cache', \
     datafile using 1:($2 + $3):($2 + $3 + $4) with filledcurves lc rgb '#55a868' title 'activations (estimate)', \
     capacity with lines lw 3 dt 2 lc rgb '#c44e52' title sprintf('HBM capacity %.0f GB', capacity) @usableline
