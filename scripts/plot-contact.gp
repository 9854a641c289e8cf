# plot-contact.gp - gnuplot script behind scripts/plot-contact: curves of several
# `granucal contact` output CSVs (header "t [s],alpha [m],P [N],...") on one PNG.
#
# Normally run by scripts/plot-contact, which checks the files and sets these variables
# with gnuplot -e before loading this script:
#   n             number of files
#   F[i], L[i]    file name and legend entry of curve i (i = 1..n)
#   X[i], Y[i]    1-based column numbers to plot from file i
#   S[i]          lines to skip at the top of file i (comments and the header line)
#   term          'pngcairo' or 'png'
#   outfile       output PNG
#   plot_title    title ('' for none)
#   xlabel, ylabel  axis labels with units, e.g. 'alpha [um]', 'P [N]'
#   xscale, yscale  factors applied to the columns (1e6: metres drawn in micrometres)
#   nr, RF[j], RL[j], RX[j], RY[j], RS[j]  reference data files drawn as points
#
# By hand, e.g.:
#   gnuplot -e "n=1; array F[1]; array L[1]; array X[1]; array Y[1]; array S[1]; \
#     F[1]='ep.csv'; L[1]='ep'; X[1]=2; Y[1]=3; S[1]=1; term='pngcairo'; outfile='ep.png'; \
#     plot_title=''; xlabel='alpha [m]'; ylabel='P [N]'" scripts/plot-contact.gp

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
set key top left Left reverse box opaque width 1 spacing 1.2
set border 3
set tics nomirror
set xzeroaxis lt -1 lw 0.5

if (!exists('nr')) { nr = 0 }
if (!exists('xscale')) { xscale = 1 }
if (!exists('yscale')) { yscale = 1 }
# gnuplot 5.4 parses an empty loop's body, and an unset RF[j] is no file name: the reference
# points' loop only when there are references (-d)
if (nr > 0) {
  plot for [i=1:n] F[i] skip S[i] using (column(X[i]) * xscale):(column(Y[i]) * yscale) \
         with lines lw 2 title L[i], \
       for [j=1:nr] RF[j] skip RS[j] using (column(RX[j]) * xscale):(column(RY[j]) * yscale) \
         with points pt 7 ps 1.2 lc rgb 'black' title RL[j]
} else {
  plot for [i=1:n] F[i] skip S[i] using (column(X[i]) * xscale):(column(Y[i]) * yscale) \
         with lines lw 2 title L[i]
}

set output
