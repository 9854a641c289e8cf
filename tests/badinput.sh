#!/bin/sh
# badinput.sh - the hand-written bad inputs as tables (badinput.table, and badinput-*.table by
# class of fault): each row gives the exit status, a fragment of the message and the arguments
# of granucal.  Also checks
# that no file the row names is changed and no temporary is left behind.
# Environment: GRANUCAL (the binary), GC_DATADIR (the bundled data), BADINPUT_TIMEOUT (seconds a
# row may run, 120 by default: a row still running then has hung).
# BADINPUT_AUDIT=1 classifies each row's outcome instead of passing or failing it and prints one
# line per table: probes, as wanted (the row passes), refused otherwise (non-zero exit, another
# message), silently accepted (exit 0 where the row wants a refusal or a message), crashed (a
# signal), hung, data lost (a file that existed before the row changed or vanished).  Run with an
# older granucal it gives the before column of a before/after table.
set -u
G=${GRANUCAL:-../src/granucal}
D=${GC_DATADIR:-../data}
here=$(cd "$(dirname "$0")" && pwd)
G=$(cd "$(dirname "$G")" && pwd)/$(basename "$G")
D=$(cd "$D" && pwd)
tables=${BADINPUT_TABLE:-$(ls "$here"/badinput.table "$here"/badinput-*.table)}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# fixtures
printf 'R = 0.1\nE = 7\000e10\nnu = 0.3\n' >"$T/nul.card"
printf 't [s],P [N]\n0,0\n\000,1\n' >"$T/nulrow.csv"
printf 't [s],P [N]\n0,1\0009\n1,0\n' >"$T/nulcell.csv"
printf 'R = 0.1\nE = 0x1p36\nnu = 0.3\nrho = 2699\n' >"$T/hex.card"
printf 'R = 0.1\rnu = 0.3\rE = seventy\r' >"$T/cr.card"
printf '\357\273\277R = 0.1\rE = 7e10\rnu = 0.3\rrho = 2699\r' >"$T/bom-cr.card"
printf '\377\376R\000 \000=\000 \0001\000\n\000' >"$T/utf16.card"
printf 't [s],P [N],P [N]\n0,0,0\n1,1,1\n' >"$T/dup.csv"
printf 'params = %s/chute/soybean.params\nshape = sphere\nn_particles = 0x18\n' "$D" >"$T/chute.chute"
grep -v '^P_Y' "$D/soybean/soybean.card" >"$T/negpy.params"
echo 'P_Y = -0.4' >>"$T/negpy.params"
printf 'R = 0.1\nE = 7e10\nnu = 0.3\nrho = 1e300\n' >"$T/heavy.card"
printf 'v_in [m/s]\n0.1\n50\n' >"$T/fast.csv"
cp "$D/materials/aluminium.card" "$T/al.card"
ln -s "$T/al.card" "$T/link-to-al.card"
ln -s "$T/missing.csv" "$T/dangling"
printf 't [s],P [N]\n0,0\n1,10\n2,0\n' >"$T/path.csv"
printf 'H [m]\n0.1\n' >"$T/h.csv"
cp "$D/soybean/soybean.card" "$T/soy.card"
mkdir "$T/outdir"
printf 'x [m],y [m],z [m],r [m]\n0,0,0,2.75e-3\n' >"$T/outdir/series.csv"
# a finished chute run with a checkpoint at its end
sed -e "s|^params = .*|params = $D/chute/soybean.params|" -e "s|^wall = .*|wall = $D/materials/plexiglass.card|" \
  -e "s|^bead = .*|bead = $D/materials/glass.card|" -e 's|^t_end = .*|t_end = 0.005|' \
  "$D/chute/tiny.chute" >"$T/short.chute"
"$G" chute -q -o "$T/run" -s checkpoint_interval=0.005 "$T/short.chute" >/dev/null 2>&1 ||
  echo "badinput.sh: could not make the finished run" >&2

# the fixtures of the tables by class (badinput-CLASS.fixtures, shell run here with $D, $G, $T)
for f in "$here"/badinput-*.fixtures; do
  [ -e "$f" ] && . "$f"
done

snapshot() { find "$T" -type f -exec cksum {} + 2>/dev/null | sort; }

fixtures=$(snapshot | sed 's/^[^ ]* [^ ]* //')

cd "$T" || exit 1 # a row that wrongly runs must not write into the source tree
pass=0 fail=0
if [ -n "${BADINPUT_AUDIT:-}" ]; then
  printf '%-24s %6s %6s %8s %8s %7s %4s %4s\n' table probes wanted refused accepted crashed hung lost
fi
for table in $tables; do
tname=$(basename "$table")
n=0 a_n=0 a_wanted=0 a_refused=0 a_accepted=0 a_crashed=0 a_hung=0 a_lost=0
while IFS= read -r row; do
  n=$((n + 1))
  case $row in '#'* | '') continue ;; esac
  want=$(printf '%s' "$row" | cut -d'|' -f1 | tr -d ' ')
  frag=$(printf '%s' "$row" | cut -d'|' -f2 | sed 's/^ *//; s/ *$//')
  args=$(printf '%s' "$row" | cut -d'|' -f3- | sed 's/^ *//')
  before=$(snapshot)
  eval "set -- $args"
  timeout -k 5 "${BADINPUT_TIMEOUT:-120}" "$G" "$@" >"$T/.out" 2>"$T/.err"
  got=$?
  rm -f "$T/ok.csv"
  after=$(snapshot | grep -v '/\.out\|/\.err')
  before=$(printf '%s\n' "$before" | grep -v '/\.out\|/\.err')
  leftover=$(find "$T" -name '*.tmp[0-9]*' | head -1)
  if [ -n "${BADINPUT_AUDIT:-}" ]; then
    # lost: a fixture (a file there before the first row, not one an earlier row wrote) that
    # this row changed or removed
    lost=$(printf '%s\n' "$before" | while IFS= read -r line; do
      [ -n "$line" ] && printf '%s\n' "$fixtures" | grep -qxF -- "${line#* * }" &&
        ! printf '%s\n' "$after" | grep -qxF -- "$line" && echo x; done | head -1)
    if [ "$got" -eq 124 ] || [ "$got" -eq 137 ]; then k=hung
    elif [ "$got" -gt 128 ]; then k=crashed
    elif [ -n "$lost" ]; then k=lost
    elif [ "$got" -eq "$want" ] && grep -qF -- "$frag" "$T/.err" "$T/.out"; then k=wanted
    elif [ "$got" -ne 0 ]; then k=refused
    else k=accepted
    fi
    eval "a_$k=\$((a_$k + 1))"
    a_n=$((a_n + 1))
    echo "AUDIT: $tname:$n: $k (exit $got)"
  elif [ "$got" -eq "$want" ] && grep -qF -- "$frag" "$T/.err" "$T/.out" &&
    [ "$after" = "$before" ] && [ -z "$leftover" ]; then
    pass=$((pass + 1))
    echo "PASS: $tname:$n"
  else
    fail=$((fail + 1))
    echo "FAIL: $tname:$n: granucal $args"
    echo "      exit $got (want $want); want '$frag'; stderr: $(head -c 400 "$T/.err")"
    [ "$after" = "$before" ] || echo "      files in the scratch directory changed"
    [ -z "$leftover" ] || echo "      temporary left: $leftover"
  fi
done <"$table"
if [ -n "${BADINPUT_AUDIT:-}" ]; then
  printf '%-24s %6d %6d %8d %8d %7d %4d %4d\n' "$tname" $a_n $a_wanted $a_refused $a_accepted \
    $a_crashed $a_hung $a_lost
fi
done
[ -z "${BADINPUT_AUDIT:-}" ] || exit 0
echo "badinput: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
