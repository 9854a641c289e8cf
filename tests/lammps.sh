#!/bin/sh
# lammps.sh - the LAMMPS pair style plugin (src/lammps) against granucal's own simulators.
# Runs only when configure found LAMMPS (--with-lammps=DIR, scripts/build-lammps); skipped (77)
# otherwise, saying so.  Material: the soybean sphere of data/chute/soybean.params (ep NFD +
# ep TFD, table 9.1), two like spheres of 0.1 g.
#  1. head-on impact at 1 m/s, dt 1e-7 s: LAMMPS (velocity Verlet, fix nve/sphere) against
#     `granucal drop --verlet` with two spheres (the same integrator on the relative
#     coordinate): overlap, force and relative velocity compared step by step, and e, P_max and
#     the contact duration; tolerance 1e-6 relative (seen: 3.6e-10 step by step, rounding of
#     the positions and the CSV's 10 digits);
#  2. oblique impact (v_n 1, v_t 0.5 m/s, spin 100 rad/s) against `granucal impact`: e, the
#     tangential velocity and the spins after.  `granucal impact` keeps the normal fixed (the
#     planar idealisation of sec. 8.4); in 3-D it turns with the spheres' relative tangential
#     travel during the contact.  Both with the contact point in the middle of the overlap
#     (`granucal impact --mid-point`, as the plugin).  On a sphere 1000x larger (frozen) the
#     normal turns by ~2e-5 rad: tolerance 1e-3 (seen 8.6e-5); two equal spheres: ~1e-2 rad,
#     v_t and the spins then differ by up to 2 % (seen): tolerance 5e-2;
#  3. a small granular run (150 spheres, 0.2 mm apart, colliding with random velocities and
#     falling on a bottom of frozen spheres) on 1 and 2 MPI
#     ranks: kinetic energy and number of contacts after 10000 steps (20 ms) equal to 1e-4
#     relative (seen: 1.3e-8; the order of the force sums differs, see below; a contact whose
#     history were lost at a processor boundary would show as an O(1e-2) difference);
#  4. the decks `granucal export lammps` writes run, and match granucal chute in free fall;
#  5-10. fix wall/granucal: a sphere's head-on impact on a plane against `granucal drop`
#     (1e-6), an oblique one against `granucal impact` (1e-6); spheres rolling on a tilted
#     wall across a processor boundary (1 = 2 ranks to 1e-8), across a restart (the same
#     bytes) and through a run split in two (1e-12); bad input refused with its message;
#     keep_history within the skin only; Tsuji damping (m_eff from the atom) gives e = e_n;
#     the rolling-resistance couple on a wall as granucal impact;
#  11. the twisting couple on a wall against its closed form, on x, y and z walls;
#  12. a rigid body's mass as m_eff on a wall (Tsuji damping gives e = e_n);
#  13. the pair style from a static overlap: its twisting couple against the closed form;
#  14. compute pair/local (the pair style's single()) against the force of the run;
#  15. a polydisperse deck of `granucal export lammps` (clusters of four radii) against
#      granucal chute.
set -u
lmp=${GC_LAMMPS:-}
plugin=${GC_LAMMPS_PLUGIN:-}
if [ -z "$lmp" ] || [ ! -x "$lmp" ] || [ ! -f "$plugin" ]; then
  if [ -n "${GC_REQUIRE_LAMMPS:-}" ]; then # CI: a missing plugin is a failure, not a skip
    echo "FAIL lammps: GC_REQUIRE_LAMMPS is set but the plugin is not built ($plugin, $lmp)"
    exit 1
  fi
  echo "SKIP lammps: the plugin is not built (./configure --with-lammps=DIR after scripts/build-lammps)"
  exit 77
fi
g=${GRANUCAL:?}
data=${GC_DATADIR:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gclmp.XXXXXX")
[ -n "${GC_KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL lammps: $*"; fails=$((fails + 1)); }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
run_lmp() { # run_lmp NRANKS INPUT LOG
  if [ "$1" = 1 ]; then
    (cd "$tmp" && "$lmp" -nocite -log "$3" -in "$2" >"$3.out" 2>&1)
  else
    (cd "$tmp" && mpirun -np "$1" "$lmp" -nocite -log "$3" -in "$2" >"$3.out" 2>&1)
  fi || { tail -n 15 "$tmp/$3.out"; return 1; }
}

# the start of every input: the plugin, SI units, finite-size spheres, velocities on ghost
# atoms (the contact needs them) and newton on (pair granucal requires it)
head="plugin load $plugin
units si
atom_style sphere
atom_modify map array
comm_modify vel yes
newton on"
R=2.75e-3 m=1e-4 dt=1e-7
cp "$data/chute/soybean.params" "$tmp/soy.params"
set -- -c "$tmp/soy.params" -s R2=$R -s m=$m -s m2=$m -s E2=2.098e8 -s nu2=0.4314 -s sY2=4.857e6

# against_drop NAME WHAT: LAMMPS's $tmp/NAME.txt (step, alpha, P, u per step) against granucal
# drop's history $tmp/NAME-hist.csv and results $tmp/NAME.csv: alpha, P and u step by step
# over the steps granucal recorded (its run ends at separation), and P_max, e and the contact
# duration (steps with P > 0 times dt), all to 1e-6 relative
against_drop() {
  awk -F, -v dt=$dt -v what="$2" 'FNR == 1 { next }
    NR == FNR { a[FNR - 1] = $2; P[FNR - 1] = $3; u[FNR - 1] = $4; n = FNR - 1
                if ($2 > amax) amax = $2; if ($3 > gpmax) gpmax = $3; next }
    { split($0, f, " ") }
    f[1] >= 1 && f[1] <= n {
      k = f[1]; m++
      da = (f[2] - a[k]) / amax; dP = (f[3] - P[k]) / gpmax; du = (f[4] - u[k])
      if (da < 0) da = -da; if (dP < 0) dP = -dP; if (du < 0) du = -du
      if (da > ma) ma = da; if (dP > mp) mp = dP; if (du > mu) mu = du
    }
    f[1] >= 1 { if (f[3] > pmax) pmax = f[3]; if (f[3] > 0) ncont++; uend = f[4] }
    END {
      printf "%s, %d steps compared: max |d alpha|/alpha_max %.2e, |dP|/P_max %.2e, |du|/v_in %.2e\n", what, m, ma, mp, mu
      printf "%.17g %.17g %.17g\n", pmax, ncont * dt, -uend > "/dev/stderr"
      exit !(m >= n - 1 && ma < 1e-6 && mp < 1e-6 && mu < 1e-6)
    }' FS=, "$tmp/$1-hist.csv" FS=" " "$tmp/$1.txt" 2>"$tmp/$1.sum" ||
    fail "$2 differs from granucal drop"
  read -r lp lt le <"$tmp/$1.sum"
  awk -F, -v lp="$lp" -v le="$le" -v lt="$lt" -v dt=$dt -v hist="$tmp/$1-hist.csv" 'FNR == 2 {
      gp = $5; ge = $3 }
    END {
      while ((getline line < hist) > 0) { split(line, h, ","); if (++nl > 1 && h[3] + 0 > 0) gt += dt }
      rp = (lp - gp) / gp; re = (le - ge) / ge; rt = (lt - gt) / gt
      printf "  P_max   granucal %.10g  LAMMPS %.10g  rel %.1e\n", gp, lp, rp
      printf "  e       granucal %.10g  LAMMPS %.10g  rel %.1e\n", ge, le, re
      printf "  t_c     granucal %.10g  LAMMPS %.10g  rel %.1e (steps with P > 0 times dt)\n", gt, lt, rt
      if (rp < 0) rp = -rp; if (re < 0) re = -re; if (rt < 0) rt = -rt
      exit !(rp < 1e-6 && re < 1e-6 && rt < 1e-6) }' "$tmp/$1.csv" ||
    fail "$2: e / P_max / t_c differ from granucal drop by more than 1e-6"
}

# ---- 1. head-on
"$g" drop "$@" --vin 1 --verlet --dt $dt --history "$tmp/headon-hist.csv" -o "$tmp/headon.csv" -q ||
  { echo "FAIL lammps: granucal drop"; exit 1; }
cat >"$tmp/headon.in" <<EOF
$head
boundary f f f
region box block -0.01 0.01 -0.01 0.01 -0.01 0.01
create_box 1 box
create_atoms 1 single -$R 0 0
create_atoms 1 single $R 0 0
set atom * diameter $(echo "$R" | awk '{ printf "%.17g", 2 * $1 }')
set atom * mass $m
velocity all set 0 0 0
set atom 1 vx 0.5
set atom 2 vx -0.5
pair_style granucal
pair_coeff 1 1 soy.params
neighbor 1e-3 bin
neigh_modify every 1 delay 0 check yes
fix 1 all nve/sphere
timestep $dt
variable a equal $(echo "$R" | awk '{ printf "%.17g", 2 * $1 }')-(x[2]-x[1])
variable P equal -fx[1]
variable u equal vx[1]-vx[2]
compute pl all pair/local p7
compute plsum all reduce sum c_pl
fix out all print 1 "\$(step) \$(v_a:%.17g) \$(v_P:%.17g) \$(v_u:%.17g) \$(c_plsum:%.17g)" file headon.txt screen no
run 1600
EOF
if run_lmp 1 headon.in headon.log; then
  against_drop headon "head-on impact"
  # compute pair/local (the pair style's single()): its P each step is the force on atom 1,
  # which section 1 compares with granucal drop's
  awk '$1 >= 1 { if ($3 > 0) n++; d = $5 - $3; if (d < 0) d = -d; if (d > m) m = d
                 if ($3 > pm) pm = $3 }
    END { printf "  compute pair/local P against the force on atom 1: %d steps in contact, max |dP|/P_max %.1e\n", n, m / pm
          exit !(n > 100 && m <= 1e-12 * pm) }' "$tmp/headon.txt" ||
    fail "compute pair/local: P differs from the pair force of the run"
else
  fail "LAMMPS head-on run failed"
fi

# ---- 2. oblique impact, sphere 2 at rest.  oblique NAME R2 M2 FROZEN TOL NCOMPARED
oblique() {
  name=$1 R2=$2 M2=$3 frozen=$4 tol=$5 nq=$6
  vn=1 vt=0.5 w=100
  "$g" impact -c "$tmp/soy.params" -s R2=$R2 -s m=$m -s m2=$M2 -s E2=2.098e8 -s nu2=0.4314 \
    -s sY2=4.857e6 --vn $vn --vt $vt --omega $w --dt $dt --mid-point -o "$tmp/impact-$name.csv" -q ||
    { fail "granucal impact ($name)"; return; }
  frz=""
  [ "$frozen" = 1 ] && frz="fix frz two freeze"
  cat >"$tmp/oblique-$name.in" <<EOF
$head
boundary f f f
region box block -0.01 $(awk -v r=$R -v q=$R2 'BEGIN { printf "%.17g", r + 2 * q + 0.01 }') -0.01 0.01 -0.01 0.01
create_box 2 box
create_atoms 1 single 0 0 0
create_atoms 2 single $(awk -v r=$R -v q=$R2 'BEGIN { printf "%.17g", r + q }') 0 0
set atom 1 diameter $(awk -v r=$R 'BEGIN { printf "%.17g", 2 * r }')
set atom 2 diameter $(awk -v r=$R2 'BEGIN { printf "%.17g", 2 * r }')
set atom 1 mass $m
set atom 2 mass $M2
velocity all set 0 0 0
set atom 1 vx $vn vy $vt
set atom 1 omega 0 0 $w
group two id 2
$frz
pair_style granucal
pair_coeff * * soy.params
neighbor 1e-3 bin
neigh_modify every 1 delay 0 check yes
fix 1 all nve/sphere
timestep $dt
run 3000
write_dump all custom final-$name.txt id vx vy omegaz modify sort id format float %.17g
EOF
  run_lmp 1 "oblique-$name.in" "oblique-$name.log" || { fail "LAMMPS oblique run ($name) failed"; return; }
  echo "  oblique impact, $name:"
  # final: 9 header lines, then "id vx vy omegaz" of atoms 1 and 2
  awk 'NR > 9 { v = v " " $2 " " $3 " " $4 } END { print "RESULT" v }' "$tmp/final-$name.txt" >"$tmp/oblique-$name.res"
  awk -F, -v vn=$vn -v tol="$tol" -v nq="$nq" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    NR == FNR { e = $c["e"]; vto = $c["v_t_out [m/s]"]; wo = $c["omega_out [rad/s]"]
                vn2 = $c["v_n2_out [m/s]"]; vt2 = $c["v_t2_out [m/s]"]; w2 = $c["omega2_out [rad/s]"]; next }
    { split($0, r, " ")
      le = (r[5] - r[2]) / vn
      split("e v_t_out omega_out v_n2_out v_t2_out omega2_out", nm, " ")
      gv[1] = e; gv[2] = vto; gv[3] = wo; gv[4] = vn2; gv[5] = vt2; gv[6] = w2
      lv[1] = le; lv[2] = r[3]; lv[3] = r[4]; lv[4] = r[5]; lv[5] = r[6]; lv[6] = r[7]
      bad = 0
      for (i = 1; i <= nq; i++) {
        d = (lv[i] - gv[i]) / gv[i]; if (d < 0) d = -d
        printf "    %-10s granucal %.9g  LAMMPS %.9g  rel %.1e\n", nm[i], gv[i], lv[i], d
        if (d > tol) bad = 1
      }
      exit bad }' "$tmp/impact-$name.csv" "$tmp/oblique-$name.res" ||
    fail "oblique impact ($name) differs from granucal impact by more than $tol"
}
# sphere 2 of radius 1000 R, frozen (m2 = 1e9 kg in granucal): the normal turns by ~2e-5 rad
# during the contact, so the 3-D contact is granucal impact's planar one
oblique big 2.75 1e9 1 1e-3 3
# two equal spheres: the normal turns by (relative tangential travel) / 2R ~ 1e-2 rad, which
# granucal impact's planar idealisation leaves out (sec. 8.4): up to 2 % in v_t and the spins
oblique equal $R $m 0 5e-2 6

# ---- 3. 1 and 2 MPI ranks: 150 spheres (random velocities ~0.03 m/s, falling at 0.3 m/s) on 25
# frozen spheres, gravity, friction.  Forces are summed in another order on 2 ranks, so the runs
# differ by rounding, which collisions amplify: after 20 ms of a dense bed they still agree to
# ~1e-8 with 22 contacts (a granular flow is chaotic: after 0.1 s, 242 against 134 contacts).
cat >"$tmp/bed.in" <<EOF
$head
boundary p p f
region box block 0 0.0285 0 0.0285 0 0.06
create_box 2 box
lattice sc 0.0057
region bottom block 0 0.0285 0 0.0285 0 0.001 units box
create_atoms 2 region bottom
region top block 0 0.0285 0 0.0285 0.005 0.035 units box
create_atoms 1 region top
set type * diameter 0.0055
set type * mass $m
group beads type 2
group grains type 1
velocity grains create 7e15 4928459 dist gaussian loop geom
velocity grains set NULL NULL -0.3 sum yes
velocity beads set 0 0 0
pair_style granucal
pair_coeff * * soy.params
neighbor 1e-3 bin
neigh_modify every 1 delay 0 check yes
fix g grains gravity 9.81 vector 0 0 -1
fix 1 grains nve/sphere
fix 2 beads freeze
timestep 2e-6
compute ke grains ke
compute rke grains erotate/sphere
compute nc grains contact/atom
compute ncs grains reduce sum c_nc
thermo_style custom step c_ke c_rke c_ncs
thermo_modify format float %.15g
thermo 10000
run 10000
EOF
if run_lmp 1 bed.in bed1.log && run_lmp 2 bed.in bed2.log; then
  s1=$(awk '/^ *10000 /{ print $2, $3, $4 }' "$tmp/bed1.log" | tail -n 1)
  s2=$(awk '/^ *10000 /{ print $2, $3, $4 }' "$tmp/bed2.log" | tail -n 1)
  echo "  1 rank:  KE $s1 (translational, rotational [J], contacts)"
  echo "  2 ranks: KE $s2"
  echo "$s1 $s2" | awk '{ for (i = 1; i <= 3; i++) { d = ($(i + 3) - $i) / ($i != 0 ? $i : 1); if (d < 0) d = -d; if (d > m) m = d }
      printf "  largest relative difference %.1e\n", m; exit !(NF == 6 && $1 > 0 && $3 > 0 && m < 1e-4) }' ||
    fail "1 and 2 ranks differ (or nothing moved / touched)"
else
  fail "LAMMPS bed run failed"
fi

# ---- 5. fix wall/granucal, head-on: a sphere on a rigid plane at 1 m/s against `granucal drop
# --verlet` (R2 = 0, E2 = 0: the plane of sec. 6.5), step by step and e, P_max, t_c to 1e-6
# relative (seen: 1.7e-10 step by step)
"$g" drop -c "$tmp/soy.params" -s R2=0 -s m=$m -s E2=0 --vin 1 --verlet --dt $dt \
  --history "$tmp/wall-hist.csv" -o "$tmp/wall.csv" -q || fail "granucal drop on a plane"
cat >"$tmp/wall.in" <<EOF
$head
boundary f f f
region box block -0.01 0.01 -0.01 0.01 -0.01 0.01
create_box 1 box
create_atoms 1 single 0 0 $R
set atom * diameter $(echo "$R" | awk '{ printf "%.17g", 2 * $1 }')
set atom * mass $m
velocity all set 0 0 -1
fix 1 all nve/sphere
fix w all wall/granucal soy.params E2 0 zplane 0 NULL
timestep $dt
variable a equal $R-z[1]
variable P equal fz[1]
variable u equal -vz[1]
fix out all print 1 "\$(step) \$(v_a:%.17g) \$(v_P:%.17g) \$(v_u:%.17g)" file wall.txt screen no
run 1600
EOF
if run_lmp 1 wall.in wall.log; then
  against_drop wall "sphere-wall impact (fix wall/granucal)"
else
  fail "LAMMPS sphere-wall head-on run failed"
fi

# ---- 6. fix wall/granucal, oblique: v_n 1, v_t 0.5 m/s, spin 100 rad/s on a deformable plane
# (E2 3.2e9, nu2 0.35: plexiglass) against `granucal impact --mid-point` with R2 = 0.  A plane
# does not turn, so granucal impact's planar contact is the 3-D one: e, v_t and the spin after
# to 1e-6 relative (seen: 1e-9, the CSV's 10 digits), without and with rolling resistance (the
# spring model, mu_r 0.1, beta_r 0.5: the wall's couple; seen 1e-10)
wall_oblique() { # wall_oblique NAME "GRANUCAL IMPACT OPTIONS" "FIX KEYWORDS"
  # shellcheck disable=SC2086 # the options are words
  "$g" impact -c "$tmp/soy.params" -s R2=0 -s m=$m -s E2=3.2e9 -s nu2=0.35 $2 --vn 1 --vt 0.5 \
    --omega 100 --dt $dt --mid-point -o "$tmp/wimpact-$1.csv" -q ||
    { fail "granucal impact on a plane ($1)"; return; }
  cat >"$tmp/wobl-$1.in" <<EOF
$head
boundary f f f
region box block -0.01 0.01 -0.01 0.01 -0.01 0.01
create_box 1 box
create_atoms 1 single 0 0 0
set atom 1 diameter $(echo "$R" | awk '{ printf "%.17g", 2 * $1 }')
set atom 1 mass $m
velocity all set 1 0.5 0
set atom 1 omega 0 0 100
fix 1 all nve/sphere
fix w all wall/granucal soy.params E2 3.2e9 nu2 0.35 $3 xplane NULL $R
timestep $dt
run 3000
write_dump all custom final-wall-$1.txt id vx vy omegaz modify sort id format float %.17g
EOF
  run_lmp 1 "wobl-$1.in" "wobl-$1.log" || { fail "LAMMPS oblique wall run ($1) failed"; return; }
  echo "  oblique impact on a wall, $1:"
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    NR == FNR { g[1] = $c["e"]; g[2] = $c["v_t_out [m/s]"]; g[3] = $c["omega_out [rad/s]"]; next }
    FNR == 10 { split($0, r, " "); l[1] = -r[2]; l[2] = r[3]; l[3] = r[4]
      split("e v_t_out omega_out", nm, " ")
      for (i = 1; i <= 3; i++) {
        d = (l[i] - g[i]) / g[i]; if (d < 0) d = -d
        printf "    %-10s granucal %.9g  LAMMPS %.9g  rel %.1e\n", nm[i], g[i], l[i], d
        if (d > 1e-6) bad = 1
      }
      done = 1 }
    END { exit bad || !done }' "$tmp/wimpact-$1.csv" FS=" " "$tmp/final-wall-$1.txt" ||
    fail "oblique impact on a wall ($1) differs from granucal impact by more than 1e-6"
}
wall_oblique sliding "" ""
wall_oblique rolling "-s mu_r=0.1 -s beta_r=0.5 --rolling-model spring" "mu_r 0.1 beta_r 0.5 rolling spring"

# ---- 7. fix wall/granucal keeps each sphere's history when it changes rank and across a
# restart: 36 spheres rolling at 0.3 m/s on a wall tilted by 10 deg (static friction, held by
# the tangential history), 12 of them crossing a processor boundary, no sphere-sphere contacts.
# 1 and 2 ranks: every sphere's velocity and spin equal to 1e-8 relative (seen: 5e-13, from the
# initial velocities' momentum sum; a history lost at migration gives 3e-4 or more); a run continued
# from write_restart / read_restart gives the same bytes as the run without (a history lost
# there: 3e-4 or more).
roll_rest="neighbor 5e-4 bin
neigh_modify every 1 delay 0 check yes
pair_style granucal
pair_coeff 1 1 soy.params
fix g all gravity 9.81 vector 0.17364817766693 0 -0.98480775301221
fix 1 all nve/sphere
fix w all wall/granucal soy.params E2 3.2e9 nu2 0.35 mu 0.328 zplane 0 NULL
timestep 1e-6"
cat >"$tmp/roll.in" <<EOF
$head
boundary p p f
processors * 1 1
region box block 0 0.039 0 0.039 0 0.01
create_box 1 box
# 6 x 6 spheres 6.5 mm apart; x from 5.7 mm: the third column starts 0.8 mm before the ranks'
# boundary at x = 19.5 mm, the sixth 0.8 mm before the period
lattice sc 0.0065 origin 0.877 0.5 0.4230769
region row block 0 0.039 0 0.039 0.0027 0.00285 units box
create_atoms 1 region row
set type 1 diameter $(echo "$R" | awk '{ printf "%.17g", 2 * $1 }')
set type 1 mass $m
# resting on the wall: the Hertz overlap under m g cos 10 deg (1.49e-7 m)
set type 1 z 0.00274985
velocity all create 1e14 87287 dist uniform loop geom
velocity all set 0.3 NULL 0 units box
set type 1 omega 0 109.0909090909091 0
$roll_rest
run 2500
write_restart roll.restart
run 2500
write_dump all custom roll-end.txt id x y z vx vy vz omegax omegay omegaz modify sort id format float %.17g
EOF
cat >"$tmp/roll2.in" <<EOF
plugin load $plugin
read_restart roll.restart
comm_modify vel yes
$roll_rest
run 2500
write_dump all custom roll-restart.txt id x y z vx vy vz omegax omegay omegaz modify sort id format float %.17g
EOF
# the spheres' velocities and spins at the end of two runs, sorted by place (create_atoms
# numbers the atoms rank by rank), against each other: the largest relative difference (of
# the value, or of 1e-3 for smaller ones) into $tmp/NAME.diff; exit 1 unless all 36 spheres
# rolled at the end of the first run and the difference is below TOL
by_place() { awk 'NR > 9 { $1 = ""; print }' "$1" | sort -g -k2,2 -k1,1; }
same_spheres() { # same_spheres A B TOL NAME
  by_place "$1" >"$tmp/$4.a"
  by_place "$2" >"$tmp/$4.b"
  paste -d' ' "$tmp/$4.a" "$tmp/$4.b" | awk -v tol="$3" -v out="$tmp/$4.diff" '{
      n++; if ($4 > 0.28) moving++; if ($8 > 100) rolling++
      for (i = 4; i <= 9; i++) { d = $i - $(i + 9); s = $i < 0 ? -$i : $i; if (s < 1e-3) s = 1e-3
        d = d < 0 ? -d / s : d / s; if (d > m) m = d } }
    END { printf "%.1e\n", m > out; exit !(n == 36 && moving == 36 && rolling == 36 && m < tol) }'
}
# one run of 5000 steps against the run split in two by the restart: the set-up between the
# two runs must not step the histories (seen: the same digits; a set-up that steps them gives
# 2.1e-3)
awk '/^write_restart/ { next } /^run 2500$/ && !r { r = 1; next } /^run 2500$/ { $0 = "run 5000" }
  { sub("roll-end.txt", "roll-one.txt"); print }' "$tmp/roll.in" >"$tmp/roll-one.in"
if run_lmp 1 roll.in roll1.log && mv "$tmp/roll-end.txt" "$tmp/roll-end1.txt" &&
  run_lmp 1 roll2.in roll-restart.log && run_lmp 2 roll.in roll2.log &&
  run_lmp 1 roll-one.in roll-one.log; then
  cmp -s "$tmp/roll-end1.txt" "$tmp/roll-restart.txt" ||
    fail "wall: the run continued from a restart differs from the run without"
  same_spheres "$tmp/roll-end1.txt" "$tmp/roll-end.txt" 1e-8 ranks ||
    fail "wall: 1 and 2 ranks differ by $(cat "$tmp/ranks.diff") (or the spheres did not roll)"
  same_spheres "$tmp/roll-end1.txt" "$tmp/roll-one.txt" 1e-12 split ||
    fail "wall: one run and the run split in two differ by $(cat "$tmp/split.diff")"
  echo "  rolling on a wall: 36 spheres; 1 against 2 ranks: largest relative difference $(cat "$tmp/ranks.diff"); one run against two: $(cat "$tmp/split.diff"); restart: the same bytes"
else
  fail "LAMMPS rolling runs failed"
fi

# ---- 8. fix wall/granucal refuses bad input with a message: a model it does not have, a
# periodic axis and run_style respa (all ranks, error->all), and an atom beyond the wall (one
# rank: rank_error puts the message on standard error before LAMMPS aborts, which would lose
# it from a redirected screen)
bad_wall() { # bad_wall NAME "FIX ARGS" "CREATE" EXPECTED
  sed -e "s|^fix w all .*|fix w all wall/granucal soy.params $2|" \
    -e "s|^create_atoms 1 single 0 0 .*|create_atoms 1 single 0 0 $3|" "$tmp/wall.in" >"$tmp/bad-$1.in"
  if (cd "$tmp" && "$lmp" -nocite -log none -in "bad-$1.in" >"bad-$1.out" 2>&1); then
    fail "wall: $1 ran"
  elif ! grep -q "$4" "$tmp/bad-$1.out"; then
    fail "wall: $1 without the message '$4'"; tail -n 5 "$tmp/bad-$1.out"
  fi
}
bad_wall model "normal nosuch zplane 0 NULL" "$R" "ERROR: fix wall/granucal: 'nosuch' is not a normal model"
bad_wall beyond "E2 0 zplane 0 NULL" -0.001 "ERROR on proc 0: fix wall/granucal: atom 1 (centre -0.001) on or beyond the wall at 0"
sed -i 's/^boundary f f f$/boundary f f p/' "$tmp/wall.in"
bad_wall periodic "E2 0 zplane 0 NULL" "$R" "ERROR: fix wall/granucal: the walls' axis zplane is periodic"
sed -i 's/^boundary f f p$/boundary f f f/; s/^timestep .*/&\nrun_style respa 2 2/' "$tmp/wall.in"
bad_wall respa "E2 0 zplane 0 NULL" "$R" "ERROR: fix wall/granucal: not with run_style respa"
sed -i '/^run_style respa/d' "$tmp/wall.in"

# ---- 9. keep_history yes keeps a wall record while the sphere is within the neighbour skin of
# the wall, as granucal chute does, and resets it beyond: a sphere bouncing at 1 m/s between
# walls 2.2 mm apart (skin 1 mm) ends as with keep_history no (the same digits); with a skin of
# 1 cm, over the gap, the record is kept and the end differs (seen: vz -0.7088 against -0.6921
# after 6 ms)
kh() { # kh NAME KEEP SKIN: the sphere's vz and z after 60000 steps into $tmp/kh-NAME.txt
  sed -e "s|^fix w all .*|fix w all wall/granucal soy.params E2 0 keep_history $2 zplane 0 0.0077|" \
    -e "s|^fix 1 all nve/sphere|neighbor $3 bin\nfix 1 all nve/sphere|" -e '/^fix out /d' \
    -e 's|^run 1600|run 60000\nprint "END $(vz[1]:%.17g) $(z[1]:%.17g)" file kh.end|' \
    "$tmp/wall.in" >"$tmp/kh-$1.in"
  run_lmp 1 "kh-$1.in" "kh-$1.log" && mv "$tmp/kh.end" "$tmp/kh-$1.txt"
}
if kh no no 1e-3 && kh yes yes 1e-3 && kh yes-wide yes 0.01 && kh no-wide no 0.01; then
  cmp -s "$tmp/kh-no.txt" "$tmp/kh-yes.txt" ||
    fail "wall: keep_history yes kept a record beyond the skin ($(cat "$tmp/kh-yes.txt") against $(cat "$tmp/kh-no.txt"))"
  cmp -s "$tmp/kh-no-wide.txt" "$tmp/kh-yes-wide.txt" &&
    fail "wall: keep_history yes kept nothing within the skin"
  echo "  keep_history on a wall: beyond the skin $(cat "$tmp/kh-yes.txt") (= keep_history no), within it $(cat "$tmp/kh-yes-wide.txt")"
else
  fail "LAMMPS keep_history runs failed"
fi

# ---- 10. a law that reads m_eff (Tsuji damping, which delivers e = e_n exactly for Hertz,
# sec. 4.1) with a parameter file that gives no mass: m_eff is the atom's.  A sphere on a rigid
# plane at 1 m/s with e_n = 0.8 rebounds at 0.8 m/s to 1e-4 (seen: 0.800015; LAMMPS's Verlet
# gives the damping the half-step velocity, a difference of 1.6e-5 at dt 1e-7 that halves with dt)
grep -v '^m ' "$tmp/soy.params" >"$tmp/soy-nomass.params"
echo "e_n = 0.8" >>"$tmp/soy-nomass.params"
sed -e "s|^fix w all .*|fix w all wall/granucal soy-nomass.params E2 0 normal tsuji zplane 0 NULL|" \
  -e "s|file wall.txt|file tsuji.txt|" "$tmp/wall.in" >"$tmp/tsuji.in"
if run_lmp 1 tsuji.in tsuji.log; then
  awk '{ u = $4 } END { e = -u; printf "  Tsuji damping on a wall, e_n 0.8: e %.9f\n", e
    d = e - 0.8; if (d < 0) d = -d; exit !(NR > 1000 && d < 1e-4) }' "$tmp/tsuji.txt" ||
    fail "wall: Tsuji damping does not deliver e_n = 0.8 to 1e-4"
else
  fail "LAMMPS wall run with Tsuji damping failed (m_eff)"
fi

# ---- 12. m_eff of a rigid body on a wall: two spheres of 1e-4 kg, one above the other, as one
# body (fix rigid/small), fall at 1 m/s onto a rigid plane with Tsuji damping (e_n 0.8, a file
# without a mass).  The contact acts through the centre of mass, so the body meets the wall
# with its whole mass: e = e_n to 1e-4 only when the law's m_eff is the body's 2e-4 kg (seen
# 0.800010; with the atom's 1e-4 kg, a deliberate break then reverted, the damping is sqrt(2)
# too weak: e 0.852)
cat >"$tmp/rigid-wall.in" <<EOF
$head
boundary f f f
fix mol all property/atom mol ghost yes
region box block -0.01 0.01 -0.01 0.01 -0.01 0.03
create_box 1 box
create_atoms 1 single 0 0 $R units box
create_atoms 1 single 0 0 $(echo "$R" | awk '{ printf "%.17g", 3 * $1 }') units box
set atom * diameter $(echo "$R" | awk '{ printf "%.17g", 2 * $1 }')
set atom * mass $m
set atom * mol 1
velocity all set 0 0 -1
comm_modify vel yes cutoff 0.02
fix 1 all rigid/small molecule
fix w all wall/granucal soy-nomass.params E2 0 normal tsuji zplane 0 NULL
timestep $dt
thermo_style custom step
run 3000
print "\$(vz[1]:%.17g) \$(vz[2]:%.17g) \$(vx[1]:%.17g)" file rigid-wall.txt
EOF
if run_lmp 1 rigid-wall.in rigid-wall.log; then
  awk '{ e = $1; printf "  Tsuji damping on a wall, a rigid body of two spheres, e_n 0.8: e %.9f\n", e
    d = e - 0.8; if (d < 0) d = -d; ok = d < 1e-4 && $2 == $1 } END { exit !(NR == 1 && ok) }' \
    "$tmp/rigid-wall.txt" ||
    fail "wall: a rigid body's m_eff is not its mass (e differs from e_n = 0.8 by more than 1e-4)"
else
  fail "LAMMPS wall run of a rigid body failed"
fi

# ---- 11. the twisting couple on a wall, and the three wall axes: a sphere resting on a
# plexiglass plane under gravity (placed at the static Hertz overlap, P = m g far below P_Y
# ~0.3 N, so the ep law is Hertz: a = sqrt(R alpha), eq. 6.24) and spinning about the normal
# at 10 rad/s, with the twisting model "const": M = (2/3) mu a P against the spin, so the spin
# falls linearly, dw/dt = -M / (2/5 m R^2) (closed form; 14.4 rad/s^2 here).  After 0.05 s the
# spin's fall against the closed form to 1e-6 relative (seen 5.6e-11; 7.2e-6 when the set-up
# gave the initial overlap no force, and the sphere then oscillated by 5e-10 m), on a zplane, a
# yplane and an xplane wall (gravity along the axis); the three axes give the same spin to 1e-12.
tw_E=$(awk '$1 == "E" { print $3 }' "$tmp/soy.params") tw_nu=$(awk '$1 == "nu" { print $3 }' "$tmp/soy.params")
# static_twist E1 NU1 E2 NU2 RSTAR MU: for a sphere of radius R and mass m resting under P = m g
# (Hertz, eq. 3.1 and 6.24), its static overlap alpha and the rate at which the twisting couple
# "const", M = (2/3) mu a P with a = sqrt(R* alpha), slows its spin, M / (2/5 m R^2)
static_twist() {
  awk -v R=$R -v m=$m -v E1="$1" -v nu1="$2" -v E2="$3" -v nu2="$4" -v Rs="$5" -v mu="$6" 'BEGIN {
    Es = 1 / ((1 - nu1 * nu1) / E1 + (1 - nu2 * nu2) / E2); k = 4 / 3 * Es * sqrt(Rs); P = m * 9.81
    alpha = (P / k) ^ (2 / 3); a = sqrt(Rs * alpha); M = 2 / 3 * mu * a * P
    printf "%.17g %.17g\n", alpha, M / (0.4 * m * R * R) }'
}
# twist_fall_ok FILE RATE WHAT: the spin in FILE (one line, first column), 0.05 s after
# 10 rad/s, has fallen by RATE * 0.05 to 1e-6 relative
twist_fall_ok() {
  awk -v rate="$2" -v what="$3" '{ fall = 10 - $1; want = rate * 0.05; d = (fall - want) / want
    printf "  twisting %s: the spin falls by %.9f rad/s in 0.05 s, closed form %.9f, rel %.1e\n", what, fall, want, d
    if (d < 0) d = -d; ok = d < 1e-6 } END { exit !(NR == 1 && ok) }' "$1"
}
read -r tw_alpha tw_rate <<EOF
$(static_twist "$tw_E" "$tw_nu" 3.2e9 0.35 $R 0.328)
EOF
tw_z0=$(awk -v R=$R -v a="$tw_alpha" 'BEGIN { printf "%.17g", R - a }')
twist_wall() { # twist_wall AXIS(x|y|z): the spin at the end into $tmp/twist-AXIS.txt
  local gv pos om
  case $1 in
    x) gv="-1 0 0" pos="$tw_z0 0 0" om="10 0 0" ;;
    y) gv="0 -1 0" pos="0 $tw_z0 0" om="0 10 0" ;;
    z) gv="0 0 -1" pos="0 0 $tw_z0" om="0 0 10" ;;
  esac
  cat >"$tmp/twist-$1.in" <<EOF
$head
boundary f f f
region box block -0.01 0.01 -0.01 0.01 -0.01 0.01
create_box 1 box
create_atoms 1 single $pos units box
set atom 1 diameter $(echo "$R" | awk '{ printf "%.17g", 2 * $1 }')
set atom 1 mass $m
set atom 1 omega $om
fix g all gravity 9.81 vector $gv
fix 1 all nve/sphere
fix w all wall/granucal soy.params E2 3.2e9 nu2 0.35 mu 0.328 w_reg 0.01 twisting const ${1}plane 0 NULL
timestep 1e-6
run 50000
write_dump all custom twist-$1.dump omega$1 $1 modify format float %.17g
EOF
  run_lmp 1 "twist-$1.in" "twist-$1.log" && awk 'NR == 10' "$tmp/twist-$1.dump" >"$tmp/twist-$1.txt"
}
if twist_wall z && twist_wall y && twist_wall x; then
  for ax in z y x; do
    twist_fall_ok "$tmp/twist-$ax.txt" "$tw_rate" "on a ${ax}plane wall" ||
      fail "wall: the twisting couple on a ${ax}plane wall differs from (2/3) mu a P"
  done
  awk 'FNR == 1 { w[NR] = $1 } END { for (i = 2; i <= 3; i++) { d = (w[i] - w[1]) / w[1]; if (d < 0) d = -d
      if (d > m) m = d }; printf "  the three wall axes: largest relative difference in the spin %.1e\n", m
      exit !(NR == 3 && m < 1e-12) }' "$tmp/twist-z.txt" "$tmp/twist-y.txt" "$tmp/twist-x.txt" ||
    fail "wall: xplane, yplane and zplane walls give different spins"
else
  fail "LAMMPS twisting runs on a wall failed"
fi

# ---- 13. the pair style's set-up with an overlap the run starts with, and its twisting
# couple: a soybean sphere resting on a like frozen sphere at the static Hertz overlap under
# gravity (P = m g; R* = R/2, E* = E / (2 (1 - nu^2))), spinning about the vertical at 10 rad/s
# with the twisting model "const" (mu 0.267 of the file): the spin falls by (2/3) mu a P t /
# (2/5 m R^2), a = sqrt(R* alpha), to 1e-6 relative (a set-up that gives the initial overlap no
# force, a deliberate break then reverted, makes the sphere oscillate by (g dt / 2) / omega_n
# and the fall differ by 8e-6; seen 1.3e-10)
read -r tp_alpha tp_rate <<EOF
$(static_twist "$tw_E" "$tw_nu" "$tw_E" "$tw_nu" "$(awk -v R=$R 'BEGIN { printf "%.17g", R / 2 }')" 0.267)
EOF
tp_z=$(awk -v R=$R -v a="$tp_alpha" 'BEGIN { printf "%.17g", 2 * R - a }')
cat >"$tmp/twist-pair.in" <<EOF
$head
boundary f f f
region box block -0.01 0.01 -0.01 0.01 -0.01 0.02
create_box 1 box
create_atoms 1 single 0 0 0 units box
create_atoms 1 single 0 0 $tp_z units box
set atom * diameter $(echo "$R" | awk '{ printf "%.17g", 2 * $1 }')
set atom * mass $m
set atom 2 omega 0 0 10
group bottom id 1
group top id 2
neighbor 5e-4 bin
pair_style granucal twisting const
pair_coeff 1 1 soy.params w_reg 0.01
fix g top gravity 9.81 vector 0 0 -1
fix 1 top nve/sphere
fix f bottom freeze
timestep 1e-6
run 50000
write_dump top custom twist-pair.dump omegaz z modify format float %.17g
EOF
if run_lmp 1 twist-pair.in twist-pair.log &&
  awk 'NR == 10' "$tmp/twist-pair.dump" >"$tmp/twist-pair.txt"; then
  twist_fall_ok "$tmp/twist-pair.txt" "$tp_rate" "between two spheres (pair style, from a static overlap)" ||
    fail "pair: the twisting couple from a static overlap differs from (2/3) mu a P"
else
  fail "LAMMPS twisting run of the pair style failed"
fi

# ---- 14. compute pair/local (single()) in an oblique impact of two equal spheres with spin:
# each step, its force on atom i (p1-p3) is the force on atom 1 of the run (or on atom 2, by
# which atom holds the pair: the opposite), to 1e-12 of the largest force; the normal force
# ("force") is P (p7) to 1e-6 (Q is perpendicular to n up to the turn of n in one step); the
# overlap (p8) is 2R - |x2 - x1|; the tangential force (p9) is not zero
cat >"$tmp/single.in" <<EOF
$head
boundary f f f
region box block -0.01 0.02 -0.01 0.01 -0.01 0.01
create_box 1 box
create_atoms 1 single 0 0 0
create_atoms 1 single $(awk -v r=$R 'BEGIN { printf "%.17g", 2 * r }') 1e-3 0
set atom * diameter $(awk -v r=$R 'BEGIN { printf "%.17g", 2 * r }')
set atom * mass $m
velocity all set 0 0 0
set atom 1 vx 1 vy 0.3
set atom 1 omega 0 0 100
pair_style granucal
pair_coeff * * soy.params
neighbor 1e-3 bin
neigh_modify every 1 delay 0 check yes
fix 1 all nve/sphere
timestep $dt
compute pl all pair/local p1 p2 p3 force p7 p8 p9
compute s all reduce sum c_pl[1] c_pl[2] c_pl[3] c_pl[4] c_pl[5] c_pl[6] c_pl[7]
variable d equal sqrt((x[2]-x[1])^2+(y[2]-y[1])^2+(z[2]-z[1])^2)
fix out all print 1 "\$(step) \$(fx[1]:%.17g) \$(fy[1]:%.17g) \$(fz[1]:%.17g) \$(c_s[1]:%.17g) \$(c_s[2]:%.17g) \$(c_s[3]:%.17g) \$(c_s[4]:%.17g) \$(c_s[5]:%.17g) \$(c_s[6]:%.17g) \$(c_s[7]:%.17g) \$(v_d:%.17g)" file single.txt screen no
run 2500
EOF
if run_lmp 1 single.in single.log; then
  awk -v R=$R '$1 >= 1 && $8 > 0 { n++
      for (e = 0; e < 3; e++) { f = $(2 + e); p = $(5 + e)
        a = p - f; if (a < 0) a = -a; if (a > ep) ep = a
        b = p + f; if (b < 0) b = -b; if (b > em) em = b
        if (f * f > fm) fm = f * f }
      d = $8 - $9; if (d < 0) d = -d; if (d > en) en = d; if ($9 > pm) pm = $9
      d = $10 - (2 * R - $12); if (d < 0) d = -d; if (d > ea) ea = d
      if ($11 > qm) qm = $11 }
    END { fm = sqrt(fm); e = ep < em ? ep : em
      printf "  compute pair/local, oblique: %d steps in contact, max |F - f_1|/F_max %.1e, |force - P|/P_max %.1e, |d alpha| %.1e m, Q_max/P_max %.2f\n", n, e / fm, en / pm, ea, qm / pm
      exit !(n > 100 && e <= 1e-12 * fm && en <= 1e-6 * pm && ea <= 1e-12 * R && qm > 1e-2 * pm) }' \
    "$tmp/single.txt" || fail "compute pair/local differs from the pair force of the run"
else
  fail "LAMMPS run with compute pair/local failed"
fi

# ---- 15. a polydisperse deck: tiny.chute with 16 clusters of four spheres of four radii (2.2 to
# 3.1 mm), exported and run to 0.03 s: in free fall (until the first wall contact at ~0.0095 s)
# its mean velocity equals granucal chute's to 1e-6 (the masses of the unequal spheres, whose
# centroid must be the cluster's centre of mass, and the inertia), the first series time with
# pair contacts (0.018 s) is granucal's (the radii), at 0.03 s, after some fifty contacts, the
# mean velocities differ by less than 0.1 (seen 1.9e-2: the two codes' integrators), and the
# pair style built a law per pair of radii met (at least the four particle-bead pairs)
printf '%s\n' "x [m],y [m],z [m],r [m]" "-2.9e-3,0,0,2.2e-3" "-0.5e-3,0.4e-3,0,2.5e-3" \
  "2.0e-3,-0.3e-3,0.6e-3,2.8e-3" "0.4e-3,0.2e-3,-2.9e-3,3.1e-3" >"$tmp/poly.csv"
sed -e '/^shape/d' -e '/^particle_[LWH]/d' -e "s|^params = .*|params = $data/chute/soybean.params|" \
  -e "s|^wall = ../|wall = $data/|" -e "s|^bead = ../|bead = $data/|" -e "s|^n_particles = .*|n_particles = 16|" \
  "$data/chute/tiny.chute" >"$tmp/poly.chute"
printf '%s\n' "shape = cluster" "cluster_file = $tmp/poly.csv" "particle_density = 1150" >>"$tmp/poly.chute"
if "$g" chute -q -o "$tmp/poly-g" -s t_end=0.03 "$tmp/poly.chute" &&
  "$g" export lammps --plugin "$plugin" -o "$tmp/poly" -s t_end=0.03 "$tmp/poly.chute" 2>/dev/null; then
  echo "run 0 post no" >>"$tmp/poly/chute.in"
  if (cd "$tmp/poly" && "$lmp" -nocite -log log.poly -in chute.in >chute.out 2>&1); then
    radii=$(awk '$1 == "set" && $4 == "diameter" { print $5 }' "$tmp/poly/particles.lmp" | sort -u | wc -l)
    laws=$(awk '/^granucal: pair granucal holds/ { n = $5 } END { print n + 0 }' "$tmp/poly/log.poly")
    awk -F, -v radii="$radii" -v laws="$laws" 'NR == FNR { if (FNR > 1) { t = sprintf("%.6f", $1)
          v[t] = $2; if ($6 > 0 && g1 == "") g1 = t; last = t } ; next }
      /^#/ { next }
      { t = sprintf("%.6f", $1); if ($5 > 0 && l1 == "") l1 = t
        if (t < 0.0095 && v[t] != 0) { n++
          d = ($2 - v[t]) / v[t]; if (d < 0) d = -d; if (d > m) m = d }
        if (t == last) { e = ($2 - v[t]) / v[t]; if (e < 0) e = -e } }
      END { printf "  polydisperse deck: %d sphere diameters; free fall at %d series times, largest relative difference in vx %.1e; first pair contacts at t = %s s (granucal %s s); at %s s vx differs by %.1e; %d laws\n", radii, n, m, l1, g1, last, e, laws
            exit !(radii >= 4 && n >= 5 && m < 1e-6 && l1 != "" && l1 == g1 && e < 0.1 && laws >= 4) }' \
      "$tmp/poly-g/series.csv" FS=" " "$tmp/poly/series.txt" ||
      fail "polydisperse deck: differs from granucal chute (free fall, first contact) or too few laws"
  else
    tail -n 5 "$tmp/poly/chute.out"
    fail "LAMMPS run of the polydisperse deck failed"
  fi
else
  fail "granucal chute / export lammps of the polydisperse card"
fi

# ---- 4. the decks of `granucal export lammps` (tiny.chute: 24 soybean clusters over beads
# between walls, 0.012 s, before the first contact at ~0.016 s): both run; in this free fall the
# mean velocity of the LAMMPS run (rigid bodies with granucal's mass and inertia) equals
# granucal chute's to 1e-6 relative at every series time, for the plugin deck and the fallback
"$g" chute -q -o "$tmp/tiny-g" -s t_end=0.012 "$data/chute/tiny.chute" || fail "granucal chute tiny"
"$g" export lammps --plugin "$plugin" -o "$tmp/deck" -s t_end=0.012 "$data/chute/tiny.chute" 2>/dev/null ||
  fail "granucal export lammps tiny"
for deck in chute.in chute-granular.in; do
  rm -f "$tmp/deck/series.txt"
  if (cd "$tmp/deck" && "$lmp" -nocite -log none -in "$deck" >"$deck.out" 2>&1); then
    awk -F, 'NR == FNR { if (FNR > 1 && $6 == 0) { v[sprintf("%.6f", $1)] = $2 } ; next }
      /^#/ { next }
      { t = sprintf("%.6f", $1); if ((t in v) && $5 == 0 && v[t] != 0) { n++
          d = ($2 - v[t]) / v[t]; if (d < 0) d = -d; if (d > m) m = d } }
      END { printf "  %s: free fall, %d series times, largest relative difference in vx %.1e\n", deck, n, m
            exit !(n >= 5 && m < 1e-6) }' deck="$deck" "$tmp/tiny-g/series.csv" FS=" " "$tmp/deck/series.txt" ||
      fail "$deck: mean velocity in free fall differs from granucal chute"
  else
    tail -n 5 "$tmp/deck/$deck.out"
    fail "LAMMPS run of the exported $deck failed"
  fi
done

[ "$fails" = 0 ] && echo "PASS lammps: plugin = granucal drop (head-on), = granucal impact (oblique), 1 = 2 ranks, exported decks run (polydisperse too), pair/local; wall = granucal drop, = granucal impact, 1 = 2 ranks, restart"
exit $((fails > 0))
