# plot-drop.gp - gnuplot script behind scripts/plot-drop: coefficient of restitution (or another
# column) against the impact speed from several `granucal drop` results CSVs (header
# "v_in [m/s],v_out [m/s],e,e_energy,P_max [N],...") on one PNG, with optional measured points.
#
# Normally run by scripts/plot-drop, which checks the files and sets these variables with
# gnuplot -e before loading this script:
#   n             number of results files (curves)
#   F[i], L[i]    file name and legend entry of curve i (i = 1..n)
#   X[i], Y[i]    1-based column numbers to plot from file i
#   S[i]          lines to skip at the top of file i (comments and the header line)
#   nd            number of measured-data files (0 for none)
#   DF[j], DL[j], DX[j], DY[j], DS[j]
#                 the same for measured-data file j (j = 1..nd); the arrays have at least
#                 one element (gnuplot arrays cannot be empty)
#   term          'pngcairo' or 'png'
#   outfile       output PNG
#   plot_title    title ('' for none)
#   xlabel, ylabel  axis labels with units, e.g. 'v_in [m/s]', 'e'
#   keypos        legend position, e.g. 'top right'
#   xrange, yrange  axis ranges as 'min:max', '*:*' for autoscaling
#
# By hand, e.g.:
#   gnuplot -e "n=1; array F[1]; array L[1]; array X[1]; array Y[1]; array S[1]; \
#     F[1]='ep.csv'; L[1]='ep'; X[1]=1; Y[1]=3; S[1]=1; nd=0; array DF[1]; array DL[1]; \
#     array DX[1]; array DY[1]; array DS[1]; term='pngcairo'; outfile='e.png'; \
#     plot_title=''; xlabel='v_in [m/s]'; ylabel='e'; keypos='top right'; \
#     xrange='*:*'; yrange='*:*'" scripts/plot-drop.gp

if (term eq 'pngcairo') {
  set terminal pngcairo size 1000,700 noenhanced font 'Sans,11' linewidth 1.5
} else {
  set terminal png size 1000,700 noenhanced
}
set output outfile

set datafile separator ','
set datafile commentschars '#'
set datafile missing NaN

if (strlen(plot_title) > 0) { set title plot_title }
set xlabel xlabel
set ylabel ylabel
set format x '%g'
set format y '%g'
set grid
eval 'set key ' . keypos . ' Left reverse box opaque width 1 spacing 1.2'
set border 3
eval 'set xrange [' . xrange . ']'
eval 'set yrange [' . yrange . ']'
set tics nomirror

# Measured points: large black symbols, a different one per file.
array PT[4] = [9, 5, 13, 7]

# Model curves in the order of increasing v_in ('smooth unique' sorts by x; a sweep repeating a
# speed gives the same result twice, so averaging duplicates changes nothing), then the points.
# (An empty 'for [j=1:0]' clause is a syntax error in gnuplot 5.4, hence the two commands.)
if (nd > 0) {
  plot for [i=1:n] F[i] skip S[i] using X[i]:Y[i] smooth unique \
         with linespoints lw 2 pt 7 ps 0.9 title L[i], \
       for [j=1:nd] DF[j] skip DS[j] using DX[j]:DY[j] \
         with points pt PT[(j - 1) % 4 + 1] ps 2.2 lc rgb 'black' title DL[j]
} else {
  plot for [i=1:n] F[i] skip S[i] using X[i]:Y[i] smooth unique \
         with linespoints lw 2 pt 7 ps 0.9 title L[i]
}

set output
