# Decode step time vs batch, split into the terms of formula (1) (seed 000 section 1).
# Variables: datafile, outfile, plottitle, bcrit, bmin, bmax, ncontexts, titles[], hasattn.
# datafile: one block per context; columns batch weight_ms kv_ms flops_ms step_ms attn_ms
# (KV, step and attention are NaN where weights + KV exceed HBM, so those curves end there).
# attn_ms: the attention kernels' FLOP time beyond their KV read (attention_compute_s),
# step = kv + attn + max(weight, flops); drawn when hasattn (some point above 0: MLA).
set title plottitle noenhanced
set xlabel 'batch B (sequences), log scale'
set ylabel 'time per decode step (ms), log scale'
set logscale x 2
set logscale y
set format y '%g'
set xrange [bmin:bmax]
set grid xtics ytics mytics lc rgb '#e4e4e4', lc rgb '#f2f2f2'
set key outside right top box samplen 2.5 spacing 1.15 font ',12'
set label 2 'curves end where weights + KV no longer fit in HBM' at graph 0.99, graph 0.97 right font ',11' tc rgb '#555555'
if (bcrit < bmax) {
  set object 1 rect from bcrit, graph 0 to bmax, graph 1 fc rgb '#fbe3d6' fs solid 1.0 noborder behind
  set label 1 sprintf("MLP compute-bound\nB > B_{crit} = %.0f", bcrit) at bmax, graph 0.08 right offset char -1,0 font ',12' tc rgb '#a0522d'
}
plot datafile index 0 using 1:2 with lines lw 3 lc rgb '#000000' title 'parameter loading', \
     datafile index 0 using 1:4 with lines lw 3 dt 2 lc rgb '#777777' title 'matmul FLOPs', \
     for [i=1:ncontexts] datafile index (i-1) using 1:3 with lines lw 2 dt 3 lc i title 'KV loading, '.titles[i], \
     for [i=1:(hasattn ? ncontexts : 0)] datafile index (i-1) using 1:($6 > 0 ? $6 : NaN) with lines lw 2 dt 4 lc i title 'attention FLOPs beyond KV, '.titles[i], \
     for [i=1:ncontexts] datafile index (i-1) using 1:5 with linespoints lw 2.5 pt 7 ps 0.8 lc i title 'step, '.titles[i]
