#!/bin/sh
# cli.sh - end-to-end checks of the granucal command: exit codes, error messages naming
# file:line:column or the parameter and its range, no partial output file on failure.
# Environment: GRANUCAL (the binary), GC_DATADIR (the bundled data).
set -u
G=${GRANUCAL:-../src/granucal}
D=${GC_DATADIR:-../data}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS: $1"; }
ko() { fail=$((fail + 1)); echo "FAIL: $1"; }

# expect NAME STATUS PATTERN -- command...: exit status and a stderr pattern
expect() {
  name=$1 want=$2 pat=$3
  shift 4
  "$@" >"$tmp/out" 2>"$tmp/err"
  got=$?
  if [ "$got" -eq "$want" ] && grep -q -- "$pat" "$tmp/err" "$tmp/out"; then
    ok "$name"
  else
    ko "$name (exit $got, want $want; pattern '$pat'; stderr: $(head -c 300 "$tmp/err"))"
  fi
}

expect "help" 0 "contact" -- "$G" --help
expect "unknown command" 2 "unknown command" -- "$G" frobnicate
expect "models listed" 0 "thornton" -- "$G" models
expect "contact help lists keys" 0 "C_a" -- "$G" contact --help

# main job: AFG displacement path, EP model (fig. 6.14: e = 0.7541)
expect "AFG ep run" 0 "e (energy, eq. 6.43) = 0.75" -- \
  "$G" contact -c "$D/materials/aluminium.card" -p "$D/paths/AFG_disp.csv" -o "$tmp/afg.csv"
if [ -f "$tmp/afg.csv" ] && head -1 "$tmp/afg.csv" | grep -q '^t \[s\],alpha \[m\],P \[N\]' &&
  [ "$(wc -l <"$tmp/afg.csv")" -eq 402 ]; then
  ok "AFG output CSV has header and 401 rows"
else
  ko "AFG output CSV"
fi

# bad CSV cell: file:line:column, exit 1, no output file
printf 't [s],P [N]\n0,0\n1,12x\n' >"$tmp/bad.csv"
expect "bad cell names file:line:col" 1 "bad.csv:3:2: column 'P'" -- \
  "$G" contact -c "$D/materials/aluminium.card" -p "$tmp/bad.csv" -o "$tmp/o1.csv"
[ ! -e "$tmp/o1.csv" ] && ok "no output after bad CSV" || ko "output left after bad CSV"
ls "$tmp" | grep -q '\.tmp' && ko "temporary file left" || ok "no temporary file left"

printf 't,P\n0,0\n1,-3\n' >"$tmp/neg.csv"
expect "negative force rejected" 1 "neg.csv:3:2: negative normal force" -- \
  "$G" contact -c "$D/materials/aluminium.card" -p "$tmp/neg.csv" -o "$tmp/o2.csv"

# non-physical parameter: named with its range
expect "nu out of range" 1 "nu1 = 0.7 out of range (-1, 0.5)" -- \
  "$G" contact -c "$D/materials/aluminium.card" -s nu=0.7 --ramp 100 -o "$tmp/o3.csv"
[ ! -e "$tmp/o3.csv" ] && ok "no output after bad parameter" || ko "output left after bad parameter"
expect "C_a negative" 1 "C_a = -1 out of range" -- \
  "$G" contact -c "$D/materials/aluminium.card" -s C_a=-1 --ramp 100
expect "unknown --set key" 2 "unknown parameter 'Young'" -- \
  "$G" contact -c "$D/materials/aluminium.card" -s Young=1 --ramp 100

# bad card: file:line:column
printf 'R = 0.1\nE = seventy\n' >"$tmp/bad.card"
expect "bad card value" 1 "bad.card:2:5: parameter 'E'" -- "$G" contact -c "$tmp/bad.card" --ramp 100
expect "missing card" 1 "cannot open" -- "$G" contact -c "$tmp/none.card" --ramp 100
expect "no load path" 2 "exactly one load path" -- "$G" contact -c "$D/materials/aluminium.card"
# drop test: the seed's aluminium impact at 0.10 m/s (sec. 6.5.2: e = 0.6143)
expect "drop aluminium" 0 "e = 0.61" -- "$G" drop -c "$D/materials/aluminium.card" --vin 0.1 -o "$tmp/d.csv"
grep -v '^rho' "$D/materials/aluminium.card" >"$tmp/nomass.card"
expect "drop needs a mass" 1 "mass is unknown" -- "$G" drop -c "$tmp/nomass.card" --vin 0.1
printf 'H [cm]\n14.8\n' >"$tmp/h.csv"
expect "drop sweep unit" 1 "h.csv:1:1: column 'H' is in \\[cm\\]" -- \
  "$G" drop -c "$D/materials/soybean-seed.card" --sweep "$tmp/h.csv" -o "$tmp/o4.csv"
[ ! -e "$tmp/o4.csv" ] && ok "no output after bad sweep" || ko "output left after bad sweep"
printf 'H [m]\n0.148\n0.289\n0.508\n' >"$tmp/h.csv"
expect "drop sweep soybean" 0 "e = 0.662" -- \
  "$G" drop -c "$D/materials/soybean-seed.card" --sweep "$tmp/h.csv" --ntcol 40 -o "$tmp/sweep.csv"
[ "$(wc -l <"$tmp/sweep.csv")" -eq 4 ] && ok "sweep CSV has 3 rows" || ko "sweep CSV rows"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
