# plot-compare.gp - gnuplot script behind scripts/plot-compare: a reference curve as points and
# the models' curves as lines, P [N] against alpha [m] (fig. 6.14-6.16 of the dissertation).
#
# Variables (set by scripts/plot-compare with gnuplot -e):
#   infile, skip        the curves CSV and the header's line number
#   ref_a, ref_P        1-based columns of alpha_ref and P_ref
#   n, M[i], A[i], Q[i] number of models, their names and the columns of alpha and P
#   term, outfile, plot_title

if (term eq 'pngcairo') {
  set terminal pngcairo size 1000,700 noenhanced font 'Sans,11' linewidth 1.5
} else {
  set terminal png size 1000,700 noenhanced
}
set output outfile
set datafile separator ','
set datafile commentschars '#'
if (strlen(plot_title) > 0) { set title plot_title }
set xlabel 'alpha [m]'
set ylabel 'P [N]'
set format x '%g'
set format y '%g'
set grid
set key top left Left reverse box opaque
set border 3
set tics nomirror
plot infile every ::skip using ref_a:ref_P with points pt 1 ps 1.2 lc rgb 'black' title 'reference', \
     for [i=1:n] infile every ::skip using A[i]:Q[i] with lines lw 1.5 title M[i]
