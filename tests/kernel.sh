#!/bin/sh
# kernel.sh - tests/bench_kernel, bench-chute's purpose-built peer (issue 15), against LAMMPS:
# it claims LAMMPS's physics of bench-chute's matched deck (pair_style granular hertz + damping
# tsuji + tangential mindlin, fix wall/gran zplane, gravity, frozen beads, fix nve/sphere), so
# a small deck of that form (90 spheres thrown with random velocities and spins in a narrow
# periodic chute, the lowest layer touching a bed of 84 frozen beads, and two more spheres
# touching across the periodic boundary; two side walls) must give LAMMPS's kinetic energy:
# after 1 step (the set-up and one step with 11 contacts) to 1e-12 relative, after 3000 steps
# (0.015 s: impacts on the bed and the walls, ~56 list builds) to 1e-9.  Seen: the same to the
# last digit up to 3000 steps; after that the difference grows (6e-14 at 4000, 1e-11 at 6000,
# 5e-7 at 8000), the spread of rounding differences in a granular flow (the two codes add the
# pair forces in different orders), so a later comparison would test chaos, not the physics.
# Deliberate errors caught (relative differences at 1 / 3000 steps): a history update in the
# set-up 3e-4 / 1e-3; the periodic shift left out 1.0; the Coulomb rule for a zero history
# 1e-4 / 4e-4; half the tangential damping, the wall torque's sign, no frame update, k_n x 1.01
# and k_t x 1.001 each 9e-4..1e-2 at 3000 steps.  Then bad input: refused with its file and
# line, exit 1; STEPS 0, exit 2.  Also the kernel's -g / -G / -F / -N (granucal's law, with
# its energy ledger but for -N; see below), which need no LAMMPS.  Without a LAMMPS binary
# (GC_LAMMPS, else lmp or lmp_serial on the PATH) only those and the bad input run, and the
# test says SKIP (77).
set -u
kern=${GC_BUILDDIR:-..}/tests/bench_kernel
lmp=${GC_LAMMPS:-}
[ -n "$lmp" ] && [ -x "$lmp" ] || lmp=$(command -v lmp || command -v lmp_serial) 2>/dev/null || lmp=""
[ -x "$kern" ] || { echo "FAIL kernel: $kern not built"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "PASS $1"; }
# within A B TOL: B equals A > 0 within the relative tolerance TOL
within() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = (b - a) / a; if (d < 0) d = -d; exit !(a > 0 && d <= t) }'; }
# ke_of OUTPUT: the kinetic energy at the end in the kernel's output line
ke_of() { echo "$1" | sed -n 's/.*KE [0-9.eE+-]* -> \([0-9.eE+-]*\) J.*/\1/p'; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }

# the deck: x periodic (length 0.084), 90 spheres R 2.75 mm on a lattice (5 x 6 x 3) whose
# lowest layer touches the bed (overlaps ~2e-5 m at step 0, so the set-up step has contacts),
# two more spheres touching across the periodic boundary x = 0, 84 beads R 1.5 mm at y = 0
# (28 along x, 3 across), walls z = 0 and 0.0186
awk 'BEGIN {
  srand(7); L = 0.084; W = 0.0186; n = 0
  for (i = 0; i < 5; i++) for (j = 0; j < 6; j++) for (k = 0; k < 3; k++) {
    n++; X[n] = 0.004 + 0.0165 * i + 0.002 * (j % 2); Y[n] = 0.0042 + 0.0062 * j; Z[n] = 0.0033 + 0.006 * k
    T[n] = 1; D[n] = 0.0055
  }
  n++; X[n] = 0.002; Y[n] = 0.045; Z[n] = 0.0093; T[n] = 1; D[n] = 0.0055
  n++; X[n] = L - 0.00348; Y[n] = 0.045; Z[n] = 0.0093; T[n] = 1; D[n] = 0.0055
  ns = n
  for (i = 0; i < 28; i++) for (k = 0; k < 3; k++) {
    n++; X[n] = 0.0015 + 0.003 * i; Y[n] = 0; Z[n] = 0.0031 + 0.0062 * k; T[n] = 2; D[n] = 0.003
  }
  printf "kernel test deck\n\n%d atoms\n2 atom types\n\n", n
  printf "0 %.10g xlo xhi\n-0.003 0.06 ylo yhi\n0 %.10g zlo zhi\n\nAtoms # sphere\n\n", L, W
  for (a = 1; a <= n; a++) printf "%d %d %.10g 1161.9 %.10g %.10g %.10g\n", a, T[a], D[a], X[a], Y[a], Z[a]
  printf "\nVelocities\n\n"
  for (a = 1; a <= n; a++)
    if (T[a] == 1) printf "%d %.6f %.6f %.6f %.3f %.3f %.3f\n", a, rand() - 0.5, -rand(), 0.6 * (rand() - 0.5), 200 * (rand() - 0.5), 200 * (rand() - 0.5), 200 * (rand() - 0.5)
    else printf "%d 0 0 0 0 0 0\n", a
}' >"$tmp/state.data"

deck() { # STEPS
  cat <<EOF
units si
atom_style sphere
atom_modify map array
boundary p m f
newton off
comm_modify vel yes
read_data $tmp/state.data
group flow type 1
group beads type 2
pair_style granular
pair_coeff 1 1 hertz 171848741.7 0.6 tangential mindlin 186879755 1.0 0.267 damping tsuji
pair_coeff 1 2 hertz 342370732.1 0.5 tangential mindlin 372556519.3 1.0 0.328 damping tsuji
pair_coeff 2 2 hertz 342370732.1 0.5 tangential mindlin 372556519.3 1.0 0.328 damping tsuji
neighbor 0.00055 bin
neigh_modify delay 0 every 1 check yes exclude type 2 2
fix freeze beads freeze
fix integrate flow nve/sphere
fix gravity flow gravity 9.80665 vector 0.36 -0.93 0
fix walls flow wall/gran granular hertz 321006730.8 0.7 tangential mindlin 350933755.6 1.0 0.328 damping tsuji zplane 0.0 0.0186
timestep 5e-6
thermo_style custom step atoms ke
thermo_modify format float %.15g
thermo $1
run $1
EOF
}

if [ -z "$lmp" ]; then
  echo "SKIP kernel: no LAMMPS binary (GC_LAMMPS, lmp or lmp_serial): the comparisons with LAMMPS"
fi
# run ld3000: the pairs' laws with limit_damping (the normal force does not pull)
for run in 1 3000 ld3000; do
  [ -n "$lmp" ] || break
  steps=${run#ld}
  deck $steps >"$tmp/in.$run"
  lab=""
  [ $run = $steps ] || {
    sed -i '/^pair_coeff/ s/$/ limit_damping/; s/damping tsuji zplane/damping tsuji limit_damping zplane/' "$tmp/in.$run"
    lab=" (limit_damping)"
  }
  (cd "$tmp" && "$lmp" -in "in.$run" -log "lmp.$run" -screen none >/dev/null 2>&1) ||
    { cat "$tmp/lmp.$run"; bad "kernel: LAMMPS run $run"; continue; }
  lke=$(awk '/^ *Step/ { getline; getline; if ($1 ~ /^[0-9]+$/) v = $3 } END { print v }' "$tmp/lmp.$run")
  out=$("$kern" "$tmp/in.$run" $steps 2>&1) || { echo "$out"; bad "kernel: run $run"; continue; }
  echo "# $out"
  kke=$(ke_of "$out")
  builds=$(echo "$out" | sed -n 's/.*; \([0-9]*\) builds$/\1/p')
  tol=1e-12
  [ $steps = 1 ] || tol=1e-9
  if within "$lke" "$kke" $tol; then
    ok "kernel: kinetic energy after $steps steps$lab $kke J, LAMMPS $lke J (within $tol)"
  else
    bad "kernel: kinetic energy after $steps steps$lab $kke J, LAMMPS $lke J (tolerance $tol)"
  fi
  contacts0=$(echo "$out" | sed -n 's/.*; contacts \([0-9]*\) -> .*/\1/p')
  [ "${contacts0:-0}" -gt 0 ] || bad "kernel: no contacts at step 0 (the deck should have some)"
  if [ $steps != 1 ]; then
    [ "${builds:-0}" -ge 2 ] && ok "kernel: $builds list builds (histories carried over a build)" ||
      bad "kernel: only ${builds:-?} list builds; the test needs rebuilds"
  fi
done

# -g / -G / -F / -N (granucal's law, and but for -N its ledger, in the kernel's passes; no
# LAMMPS needed).
# (1) With friction 0 and limit_damping (granucal's normal force does not pull either) and the
# walls out of reach, granucal's Hertz law and dashpot with the constants -g derives from the
# deck's (glaw_of) are LAMMPS's: -g must move as the kernel's LAMMPS path (itself LAMMPS's to
# 1e-9 above), seen the same to the last printed digit after 3000 steps; asserted to 1e-9.
# This covers the constants (E*, k_hertz, the dashpot, the sphere-bead pair's), the normal,
# the overlap and the sums; not the tangential part, the contact point's arms or the torques.
# (2) The energy balance closes as the time step goes to zero.  The deck with its walls out of
# reach (their work is not booked), 0.015 s at dt and at dt / 4: the residual (the change of
# the kinetic energy of translation and rotation against the work of gravity less the work the
# contacts absorbed, over the work of gravity) is the integration's error, seen -0.030 at
# 5e-6 s, -0.012 at 2.5e-6 s and -0.0046 at 1.25e-6 s; asserted below 0.02 at dt / 4 and below
# half its value at dt.  Deliberate errors that make the forces and the booked work disagree
# give 0.16-6.6 at both steps (the torque on j of the wrong sign, the rotation of i in the
# contact velocity of the wrong sign, the set-up's force not kept for the first step's work,
# half the work of gravity); errors made alike in both (the arms, the law's constants, the
# friction) pass it.  -G, which keeps only the 5 numbers of the record that the motion and the
# ledger depend on, must move the same (its KE line equal to 15 digits after 12000 steps, where
# a difference in the last bit would have grown); so must -F, -G with the geometry, the
# law (gc_hm_step) and the torques fused into one loop, and book the same work (its ledger line
# equal to -G's); and so must -N, -F without the ledger (a history of Q alone).
deck 3000 | sed 's/zplane 0.0 0.0186/zplane -1 1/
  /^pair_coeff/ s/\(tangential mindlin [0-9.]* 1.0\) [0-9.]* damping tsuji/\1 0 damping tsuji limit_damping/' >"$tmp/mu0"
outl=$("$kern" "$tmp/mu0" 3000 2>&1) || bad "kernel: the friction-free deck ($outl)"
outg=$("$kern" -g "$tmp/mu0" 3000 2>&1) || bad "kernel -g: the friction-free deck ($outg)"
kl=$(ke_of "$outl") kg0=$(ke_of "$outg")
if [ -n "$kl" ] && [ -n "$kg0" ] && within "$kl" "$kg0" 1e-9; then
  ok "kernel -g: friction 0, limit_damping: kinetic energy $kg0 J, the LAMMPS path's $kl J (within 1e-9)"
else
  bad "kernel -g: friction 0, limit_damping: kinetic energy '$kg0' J, the LAMMPS path's '$kl' J (tolerance 1e-9)"
fi
deck 3000 | sed 's/zplane 0.0 0.0186/zplane -1 1/' >"$tmp/far1"
deck 12000 | sed 's/zplane 0.0 0.0186/zplane -1 1/; s/^timestep .*/timestep 1.25e-6/' >"$tmp/far4"
resid() { echo "$1" | sed -n 's/.*; residual \([0-9.eE+-]*\) of the work of gravity$/\1/p'; }
outg1=$("$kern" -g "$tmp/far1" 3000 2>&1) || bad "kernel -g: run at dt ($outg1)"
outg4=$("$kern" -g "$tmp/far4" 12000 2>&1) || bad "kernel -g: run at dt / 4 ($outg4)"
outG4=$("$kern" -G "$tmp/far4" 12000 2>&1) || bad "kernel -G: run at dt / 4 ($outG4)"
outF4=$("$kern" -F "$tmp/far4" 12000 2>&1) || bad "kernel -F: run at dt / 4 ($outF4)"
outN4=$("$kern" -N "$tmp/far4" 12000 2>&1) || bad "kernel -N: run at dt / 4 ($outN4)"
echo "$outg4" | sed 's/^/# /'
r1=$(resid "$outg1") r4=$(resid "$outg4")
if [ -n "$r1" ] && [ -n "$r4" ] &&
  awk -v a="$r1" -v b="$r4" 'BEGIN { if (a < 0) a = -a; if (b < 0) b = -b; exit !(b <= 0.02 && b <= 0.5 * a) }'; then
  ok "kernel -g: energy balance residual $r1 at dt, $r4 at dt / 4 (below 0.02 and half)"
else
  bad "kernel -g: energy balance residual '$r1' at dt, '$r4' at dt / 4 (want below 0.02 and half)"
fi
kg=$(echo "$outg4" | sed -n 's/.*\(KE .* builds\)$/\1/p') kG=$(echo "$outG4" | sed -n 's/.*\(KE .* builds\)$/\1/p')
[ -n "$kg" ] && [ "$kg" = "$kG" ] && ok "kernel -G: the same motion as -g ($kG)" ||
  bad "kernel -G: not the motion of -g ('$kG' against '$kg')"
kF=$(echo "$outF4" | sed -n 's/.*\(KE .* builds\)$/\1/p')
wG=$(echo "$outG4" | sed -n 's/^bench_kernel -G: \(work absorbed .*\)$/\1/p')
wF=$(echo "$outF4" | sed -n 's/^bench_kernel -F: \(work absorbed .*\)$/\1/p')
[ -n "$kF" ] && [ "$kF" = "$kG" ] && [ -n "$wF" ] && [ "$wF" = "$wG" ] &&
  ok "kernel -F: the same motion and work as -G ($kF; $wF)" ||
  bad "kernel -F: not the motion or work of -G ('$kF' against '$kG'; '$wF' against '$wG')"
kN=$(echo "$outN4" | sed -n 's/.*\(KE .* builds\)$/\1/p')
[ -n "$kN" ] && [ "$kN" = "$kG" ] && ok "kernel -N: the same motion as -G ($kN)" ||
  bad "kernel -N: not the motion of -G ('$kN' against '$kG')"
sed '/^Atoms/,/^Velocities/ s/^\(5 1 \)0.0055/\10.0056/' "$tmp/state.data" >"$tmp/r2.data"
deck 10 | sed "s|read_data .*|read_data $tmp/r2.data|" >"$tmp/r2"
out=$("$kern" -g "$tmp/r2" 10 2>&1); rc=$?
case "$rc:$out" in 1:*"-g needs one radius and mass"*) ok "kernel -g: two radii of the flow refused ($out)" ;;
  *) bad "kernel -g: two radii of the flow: rc $rc, '$out'" ;; esac

# bad input: the file and line named, exit 1; nothing else written
deck 10 | sed 's/^timestep .*/timestep -5e-6/' >"$tmp/bad1"
out=$("$kern" "$tmp/bad1" 10 2>&1); rc=$?
line=$(grep -n '^timestep' "$tmp/bad1" | cut -d: -f1)
case "$rc:$out" in 1:*"bad1:$line: timestep"*) ok "kernel: a negative timestep refused ($out)" ;;
  *) bad "kernel: a negative timestep: rc $rc, '$out'" ;; esac
sed '15s/.*/2 1 0.0055 1161.9 0.01 zz 0.01/' "$tmp/state.data" >"$tmp/bad.data"
deck 10 | sed "s|read_data .*|read_data $tmp/bad.data|" >"$tmp/bad2"
out=$("$kern" "$tmp/bad2" 10 2>&1); rc=$?
case "$rc:$out" in 1:*"bad.data:15: expected: id type"*) ok "kernel: a bad atom line refused ($out)" ;;
  *) bad "kernel: a bad atom line: rc $rc, '$out'" ;; esac
deck 10 | grep -v "^fix walls" >"$tmp/bad3"
out=$("$kern" "$tmp/bad3" 10 2>&1); rc=$?
case "$rc:$out" in 1:*"bad3: not bench-chute's matched case"*) ok "kernel: a deck without walls refused" ;;
  *) bad "kernel: a deck without walls: rc $rc, '$out'" ;; esac
deck 10 >"$tmp/ok10" # a valid deck (in.1 is written only when LAMMPS runs)
out=$("$kern" "$tmp/ok10" 0 2>&1); rc=$?
[ $rc = 2 ] && ok "kernel: STEPS 0 refused (exit 2)" || bad "kernel: STEPS 0: rc $rc, '$out'"
out=$("$kern" -x "$tmp/ok10" 10 2>&1); rc=$?
[ $rc = 2 ] && ok "kernel: an unknown option refused (exit 2)" || bad "kernel: option -x: rc $rc, '$out'"
[ $fails = 0 ] || exit 1
[ -n "$lmp" ] || exit 77 # the bad input passed, the physics was not compared
