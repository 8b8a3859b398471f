# Latency / cost Pareto frontier (ESTI-style, seed 000 section 1).
# Odd series are labelled to the right of their points, even ones to the left.
# Variables set by roofline: datafile, outfile, plottitle, ylabel, nseries, haskey, titles[].
# haskey 0: no series has a title, and no key is drawn (an empty box otherwise).
# datafile: one block per series; columns latency_ms cost label("C:B").
set title plottitle noenhanced
set xlabel 'per-token latency (ms), log scale;  points labelled C:B = chips:batch'
set ylabel ylabel noenhanced
set logscale xy
set format x '%g'
set format y '%g'
set xtics (0.01,0.02,0.03,0.05,0.07,0.1,0.15,0.2,0.3,0.5,0.7,1,1.5,2,3,4,5,6,7,8,10,12,15,20,30,40,50,70,100,150,200,300,500,700,1000,1500,2000,3000,5000,7000,1e4,2e4,5e4,1e5)
set ytics (1e-4,2e-4,5e-4,0.001,0.002,0.005,0.01,0.02,0.05,0.1,0.2,0.5,1,2,5,10,20,50,100,200,500,1000,2000,5000,1e4)
set grid xtics ytics mxtics mytics lc rgb '#e4e4e4' lw 1, lc rgb '#f2f2f2' lw 1
set key outside below center horizontal maxrows 2 box samplen 2 spacing 1.1 width 1 noenhanced
if (!haskey) unset key; set bmargin 4
set autoscale fix
# One distinct latency (or cost) leaves an empty range, which gnuplot widens
# by 1%, too little for a listed tic (tester50 F14): widen it to 2x each way.
# An axis spanning under a decade (12-16 ms) met one listed tic or none
# (fixNE #10): it is drawn linear instead, with gnuplot's own tics (at least
# 3 labelled, 12.5 13 ... 16 there); a decade or more holds 3 listed tics.
stats datafile using 1 nooutput
if (STATS_min == STATS_max) set xrange [STATS_min / 2 : STATS_max * 2]
if (STATS_min > 0 && (STATS_min == STATS_max || STATS_max < 10 * STATS_min)) {
  unset logscale x; set xtics autofreq; set mxtics default
  set xlabel 'per-token latency (ms);  points labelled C:B = chips:batch'
}
stats datafile using 2 nooutput
if (STATS_min == STATS_max) set yrange [STATS_min / 2 : STATS_max * 2]
if (STATS_min > 0 && (STATS_min == STATS_max || STATS_max < 10 * STATS_min)) {
  unset logscale y; set ytics autofreq; set mytics default
}
set offsets graph 0.04, graph 0.14, graph 0.08, graph 0.08
if (haskey) set bmargin 7

# (gnuplot 5.4 runs a `for` over an empty range once, hence the if.)
nodd = (nseries + 1) / 2
neven = nseries / 2
if (neven > 0) {
  plot for [i=1:nseries] datafile index (i-1) using 1:2 with linespoints lw 2 pt 7 ps 1.1 lc i title titles[i], \
       for [j=1:nodd] datafile index (2*j-2) using 1:2:3 with labels offset char 0.7,0.5 left font ',10' tc lt (2*j-1) notitle, \
       for [j=1:neven] datafile index (2*j-1) using 1:2:3 with labels offset char -0.7,-0.5 right font ',10' tc lt (2*j) notitle
} else {
  plot datafile index 0 using 1:2 with linespoints lw 2 pt 7 ps 1.1 lc 1 title titles[1], \
       datafile index 0 using 1:2:3 with labels offset char 0.7,0.5 left font ',10' tc lt 1 notitle
}
