# Roofline of one chip: attainable FLOP/s = min(peak, I * BW), log-log, with operators.
# Variables: datafile, outfile, plottitle, peak (FLOP/s), bw (bytes/s).
# datafile: columns intensity(FLOPs/byte) attainable(FLOP/s) label;
# block 0 the weight matmuls (one point per batch), block 1 decode attention,
# block 2 the elementwise operators (norms, RoPE, residual adds).
set title plottitle noenhanced
set xlabel 'arithmetic intensity (FLOPs per byte of HBM traffic), log scale'
set ylabel 'attainable TFLOP/s (10^{12} FLOP/s), log scale'
set logscale xy
set format x '%g'
set format y '%g'
ridge = peak / bw
set xrange [0.1:ridge * 30]
set yrange [0.1 * bw / 1e12:peak / 1e12 * 3]
set samples 400
set grid xtics ytics mxtics mytics lc rgb '#e4e4e4', lc rgb '#f2f2f2'
set key top left box opaque font ',12' spacing 1.2
set arrow 1 from ridge, graph 0 to ridge, peak / 1e12 nohead dt 2 lc rgb '#888888'
set label 1 sprintf('ridge: %.0f FLOPs/byte', ridge) at ridge, graph 0.06 offset char 0.8,0 font ',12'
roof(x) = (x * bw < peak ? x * bw : peak) / 1e12
plot roof(x) with lines lw 3 lc rgb '#000000' title sprintf('roofline: %.0f TFLOP/s, %.0f GB/s', peak / 1e12, bw / 1e9), \
     datafile index 0 using 1:($2 / 1e12) with points pt 7 ps 1.6 lc rgb '#1f77b4' title 'weight matmuls (all layers), per batch B', \
     datafile index 0 using 1:($2 / 1e12):3 with labels left offset char 1,-0.9 font ',11' tc rgb '#1f77b4' notitle, \
     datafile index 1 using 1:($2 / 1e12) with points pt 9 ps 2.0 lc rgb '#d62728' title 'decode attention (QK^T, PV over the KV cache)', \
     datafile index 1 using 1:($2 / 1e12):3 with labels right offset char -1.2,0.9 font ',11' tc rgb '#d62728' notitle, \
     datafile index 2 using 1:($2 / 1e12) with points pt 5 ps 1.6 lc rgb '#2ca02c' title 'elementwise (norms, RoPE, residual adds)', \
     datafile index 2 using 1:($2 / 1e12):3 with labels left offset char 1,-0.9 font ',11' tc rgb '#2ca02c' notitle
