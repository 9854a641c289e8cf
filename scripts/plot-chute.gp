# plot-chute.gp - gnuplot script behind scripts/plot-chute: one PNG of a `granucal chute`
# output file.  Normally run by scripts/plot-chute, which sets with gnuplot -e:
#   kind         'series'     series.csv: vx, vy, vz [cm/s] against t (fig. 9.4-9.5)
#                'pmax'       series.csv: P_max [N] and contacts against t (fig. 9.10)
#                'profile'    profile-*.csv: arrows (vx, vy) or (vx, vz) per cell, coloured
#                             by the speed [cm/s] (fig. 9.6-9.9)
#                'histogram'  forces.csv: contacts per step in each bin (fig. 9.12)
#                'cumulative' forces.csv: accumulated percentage (fig. 9.11, top)
#   infile, skip   input CSV and the lines before its data (comments and the header)
#   plot_title     title
#   vcol, ylabel, arrow_scale   profiles: column of the second velocity component (4: vy,
#                  5: vz), the label of the vertical axis, and the arrow length [cm] per m/s
#   term, outfile  'pngcairo' or 'png', and the output PNG
#
# By hand, e.g.:
#   gnuplot -e "kind='series'; infile='short/series.csv'; skip=1; plot_title='short'; \
#     term='pngcairo'; outfile='v.png'" scripts/plot-chute.gp

if (term eq 'pngcairo') {
  set terminal pngcairo size 1000,700 noenhanced font 'Sans,11' linewidth 1.5
} else {
  set terminal png size 1000,700 noenhanced
}
set output outfile
set datafile separator ','
set datafile commentschars '#'
set title plot_title
set grid
set format x '%g'
set format y '%g'
set key top left box opaque

if (kind eq 'series') {
  set xlabel 't [s]'
  set ylabel 'mean velocity [cm/s]'
  plot infile skip skip using 1:($2 * 100) with lines lw 1.5 title 'vx (down the chute)', \
       '' skip skip using 1:($3 * 100) with lines lw 1.5 dt 2 title 'vy (normal to the bottom)', \
       '' skip skip using 1:($4 * 100) with lines lw 1 dt 3 title 'vz (across)'
}
if (kind eq 'pmax') {
  set xlabel 't [s]'
  set ylabel 'P_max [N]'
  set y2label 'contacts'
  set y2tics
  set ytics nomirror
  plot infile skip skip using 1:8 with points pt 1 ps 0.6 title 'largest normal force P_max [N]', \
       '' skip skip using 1:6 axes x1y2 with lines lw 1.5 title 'contacts (all)', \
       '' skip skip using 1:7 axes x1y2 with lines lw 1 dt 2 title 'contacts between particles'
}
if (kind eq 'profile') {
  # a canvas with the aspect of the cells' extent (true scale, filled), a perceptual
  # palette (viridis) and a scale arrow
  stats infile skip skip using ($1 * 100):($2 * 100) nooutput
  xw = STATS_max_x - STATS_min_x; yw = STATS_max_y - STATS_min_y; x0 = STATS_min_x
  y1 = STATS_max_y
  xw = xw > 0 ? xw : 1; yw = yw > 0 ? yw : 1
  # plot area about 760 px wide for the longer side, margins for labels and colour box
  W = 760.0; H = W * (yw + 1) / (xw + 1)
  if (H > 900) { W = W * 900 / H; H = 900 }
  if (H < 260) { H = 260 }
  if (term eq 'pngcairo') {
    set terminal pngcairo size int(W) + 240, int(H) + 170 noenhanced font 'Sans,13' linewidth 1.5
  } else {
    set terminal png size int(W) + 240, int(H) + 170 noenhanced
  }
  set output outfile
  set xlabel 'x, along the chute [cm]'
  set ylabel ylabel
  set size ratio -1
  set offsets 0.3, 0.3, 0.5, 0.3
  set xtics 0.5
  set ytics 0.5
  set mxtics 5
  set mytics 5
  set cblabel 'speed [cm/s]'
  set palette defined (0 '#440154', 1 '#482878', 2 '#3e4a89', 3 '#31688e', 4 '#26828e', \
                       5 '#1f9e89', 6 '#35b779', 7 '#6ece58', 8 '#b5de2b', 9 '#fde725')
  unset key
  # the scale arrow: a round speed near half the fastest cell's
  stats infile skip skip using ($6 * 100) nooutput
  vs = STATS_max / 2; e10 = 10 ** floor(log10(vs > 0 ? vs : 1)); m = vs / e10
  vs = (m >= 5 ? 5 : m >= 2 ? 2 : 1) * e10
  L = vs / 100.0 * arrow_scale
  # the scale arrow above the top row of cells, drawn as a data vector so that it has the
  # cells' scale exactly
  ya = y1 + 0.22
  set label 1 sprintf(' %g cm/s', vs) at first x0 + L, first ya left front
  plot infile skip skip using ($1 * 100 - 0.5 * $3 * arrow_scale):($2 * 100 - 0.5 * column(vcol) * arrow_scale):($3 * arrow_scale):(column(vcol) * arrow_scale):($6 * 100) \
       with vectors head filled size screen 0.01,20,60 lw 2 lc palette, \
       '+' every ::0::0 using (x0):(ya):(L):(0) with vectors head filled size screen 0.01,20,60 lw 2.5 lc rgb 'black'
}
if (kind eq 'histogram') {
  set xlabel 'normal contact force [N]'
  set ylabel 'contacts per step'
  set style fill solid 0.6 border -1
  set boxwidth 0.95 relative
  set xrange [0:*]
  unset key
  plot infile skip skip using (($1 + $2) / 2):4:($2 - $1) with boxes lc rgb '#4060a0'
}
if (kind eq 'cumulative') {
  set xlabel 'normal contact force [N]'
  set ylabel 'accumulated percentage [%]'
  set yrange [0:100]
  set xrange [0:*]
  unset key
  plot infile skip skip using 2:($6 * 100) with linespoints lw 2 pt 7 ps 0.6
}
set output
