# bench-common.sh - helpers sourced by scripts/bench-chute and scripts/bench-lammps (not run).

# median of the numbers on standard input (separated by spaces or newlines)
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.6g\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
# "lo-hi" (two decimals) of the numbers on standard input
range() { tr ' ' '\n' | grep -v '^$' | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f-%.2f\n", lo, hi }'; }
# "# granucal VERSION, built with CFLAGS: ..." of the binary $1 (whether -march=native is in)
build_line() { printf '# %s\n' "$("$1" --version | paste -sd ' ' - | sed 's/ built with/, built with/')"; }
