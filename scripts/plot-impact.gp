# plot-impact.gp - gnuplot script behind scripts/plot-impact: beta against the incidence x with
# the rigid-body line of eq. C.25, and the recoil against the incident angle, from several
# `granucal impact` results CSVs (header "omega [rad/s],v_st [m/s],vn_over_vst,x,e,beta,...").
#
# Normally run by scripts/plot-impact, which sets with gnuplot -e:
#   n                 number of results files
#   F[i], L[i], S[i]  file, legend entry, lines to skip (comments and header) of file i
#   CX[i], CB[i], CI[i], CO[i], CE[i]
#                     1-based columns of x, beta, tan_in, tan_out and e in file i
#   term, outfile     'pngcairo' or 'png', and the output PNG
#   plot_title        title ('' for none)

if (term eq 'pngcairo') {
  set terminal pngcairo size 1000,1100 noenhanced font 'Sans,11' linewidth 1.5
} else {
  set terminal png size 1000,1100 noenhanced
}
set output outfile
set datafile separator ','
set datafile commentschars '#'
set datafile missing NaN
set grid
set format x '%g'
set format y '%g'
set tics nomirror
set border 3

if (strlen(plot_title) > 0) {
  set multiplot layout 2,1 title plot_title
} else {
  set multiplot layout 2,1
}

# top: beta against x; the sliding line beta = -1 + x (eq. C.25) and the sticking level
# beta = e of eq. 8.12 (special material, kt_ratio = 2/7), from each run's simulated e
set xlabel 'x = f mu (1+e) v_n / v_st   (f = 7/2: homogeneous spheres)'
set ylabel "beta = -v_st' / v_st"
set logscale x
set offsets 0, 0, graph 0.06, graph 0.06
set key bottom right box opaque
plot for [i=1:n] F[i] skip S[i] using (column(CX[i])):(column(CB[i])) \
       with linespoints lw 2 pt 7 ps 0.8 title L[i], \
     (x <= 2 ? -1 + x : NaN) with lines dt 2 lw 2 lc rgb 'black' title 'eq. C.25 (sliding): -1 + x', \
     for [i=1:n] F[i] skip S[i] using (column(CX[i])):(column(CE[i])) \
       with lines dt 3 lw 2 lc rgb '#d55e00' title (i == 1 ? 'eq. 8.12 (sticking, special material): beta = e' : '')
unset logscale x
set offsets 0, 0, 0, 0

# bottom: tan recoil against tan incident; rigid sliding tan_out = tan_in (1 - x) / e for x <= 1
set xlabel 'tan incident angle = v_st / v_n'
set ylabel "tan recoil angle = v_st' / v_n'"
set key top left box opaque
plot for [i=1:n] F[i] skip S[i] using (column(CI[i])):(column(CO[i])) \
       with linespoints lw 2 pt 7 ps 0.8 title L[i], \
     for [i=1:n] F[i] skip S[i] \
       using (column(CI[i])):(column(CX[i]) <= 1 ? column(CI[i]) * (1 - column(CX[i])) / column(CE[i]) : NaN) \
       with lines dt 2 lw 2 lc rgb 'black' title (i == 1 ? 'rigid-body sliding' : '')
unset multiplot
set output
