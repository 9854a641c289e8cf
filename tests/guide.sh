#!/bin/sh
# guide.sh - run the examples of the user's guide, man/granucal-guide.7, so that it cannot rot.
#
# The guide marks the examples a user types between the comment lines
#   .\" guide-run begin            (always run)
#   .\" guide-run begin lammps     (run only when LAMMPS and the plugin are configured)
#   .\" guide-run end
# This test takes those blocks in order, undoes the roff escapes (\- \e \(aq \&), drops the
# roff requests (.EX .EE .RS .RE .PP) and runs the result with sh -e in a scratch directory,
# with the tree's granucal and plot scripts first on PATH and the installed data directory
# (/usr/local/share/granucal) replaced by the tree's data/.  It then checks the files and the
# verdict the guide describes.  Exit status: 0 pass, 1 fail (the failing script's output is
# printed).
set -u
g=${GRANUCAL:?GRANUCAL unset (run by make check)}
src=${GC_SRCDIR:?GC_SRCDIR unset}
data=${GC_DATADIR:?GC_DATADIR unset}
page=$src/man/granucal-guide.7
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $*"; }
ko() { echo "FAIL: $*"; fail=1; }

# the commands the guide calls, from the tree
mkdir "$tmp/bin" "$tmp/work"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$g" >"$tmp/bin/granucal"
for s in plot-chute plot-contact plot-drop; do
  if command -v gnuplot >/dev/null 2>&1; then
    printf '#!/bin/sh\nexec "%s/scripts/%s" "$@"\n' "$src" "$s" >"$tmp/bin/$s"
  else # configure warned already; the plots are skipped, the rest still runs
    printf '#!/bin/sh\necho "%s: skipped (no gnuplot)"\n' "$s" >"$tmp/bin/$s"
  fi
done
chmod +x "$tmp/bin/"*

# extract: $1 = "" for the plain blocks, "lammps" for the LAMMPS ones
extract() {
  awk -v want="$1" '
    /^\.\\" guide-run begin/ { on = ($4 == want); n++; next }
    /^\.\\" guide-run end/ { on = 0; next }
    on && !/^\.(EX|EE|RS|RE|PP)$/ { print }
    END { if (!n) exit 1 }' "$page" |
    sed -e 's/\\&//g' -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\e/\\/g' \
      -e "s|/usr/local/share/granucal|$data|g"
}
extract "" >"$tmp/guide-run.sh" || { echo "FAIL: no guide-run blocks in $page"; exit 1; }
nl=$(wc -l <"$tmp/guide-run.sh")
[ "$nl" -gt 40 ] || ko "extracted only $nl lines"
# every command the guide runs must have been extracted (a block left unmarked would not be
# tested): the plain commands the page shows in its examples
for c in "granucal data" "granucal fit" "granucal drop" "granucal contact" "granucal chute" \
  "granucal export lammps" "plot-drop" "plot-contact" "plot-chute"; do
  grep -q "^$c " "$tmp/guide-run.sh" || ko "the guide runs no '$c' in a guide-run block"
done

if (cd "$tmp/work" && PATH="$tmp/bin:$PATH" sh -e "$tmp/guide-run.sh") >"$tmp/out" 2>&1; then
  ok "the guide's examples run ($(grep -c . "$tmp/guide-run.sh") lines)"
else
  ko "the guide's examples failed; the script and its output:"
  cat "$tmp/guide-run.sh" "$tmp/out"
fi

w=$tmp/work/bean
for f in bean.params report/report.html drops-model.csv ramp.csv measured.csv run/series.csv \
  run/particles.pvd run/checkpoint.bin deck/chute.in deck/chute-granular.in; do
  [ -s "$w/$f" ] && ok "wrote $f" || ko "no $f"
done
# what the guide says of this fit and this run
for s in "verdict: E\* and C_a are determined by these data" "P_Y is only bounded above" \
  "a drop at v_in = 0.2 m/s (H = 2.04 mm)" "column 'alpha' in \[mm\] converted to \[m\]" \
  "column 'H' in \[mm\] converted to \[m\]" "t_end = 0.3 s: 40650 steps" "outputs in run/"; do
  grep -q "$s" "$tmp/out" && ok "output says: $s" || ko "output does not say: $s"
done
grep -q '^nu *= 0.4' "$w/bean.params" && ok "bean.params: nu held at 0.4" || ko "bean.params: nu"
grep -q '^mu *= 0 ' "$w/bean.params" && ok "bean.params: mu = 0 (the chute needs mu_pp)" ||
  ko "bean.params: mu is no longer 0: the guide's section 5 says it is"

# the LAMMPS block, with the configured LAMMPS and the tree's plugin
lmp=${GC_LAMMPS:-}
plugin=${GC_LAMMPS_PLUGIN:-}
if [ -n "$lmp" ] && [ -x "$lmp" ] && [ -f "$plugin" ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_rmaps_base_oversubscribe=1
  extract lammps | sed -e "s|/var/cache/granucal/lammps/bin/lmp|$lmp|g" \
    -e "s|granucal export lammps|granucal export lammps --plugin $plugin -s t_end=0.01|" \
    >"$tmp/guide-lammps.sh" || ko "no guide-run lammps block"
  if (cd "$w" && PATH="$tmp/bin:$PATH" sh -e "$tmp/guide-lammps.sh") >"$tmp/lout" 2>&1 &&
    [ -s "$w/deck/series.txt" ]; then
    ok "the guide's LAMMPS example runs (t_end 0.01 s)"
  else
    ko "the guide's LAMMPS example failed:"
    cat "$tmp/guide-lammps.sh" "$tmp/lout"
  fi
else
  echo "skip: the guide's LAMMPS example (LAMMPS not configured: --with-lammps=DIR)"
fi
exit $fail
