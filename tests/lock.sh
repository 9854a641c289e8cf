#!/bin/sh
# lock.sh - one run at a time writes an output directory.  A second `granucal chute` into the
# directory of a running one is refused, naming the directory and the first run's pid, and
# leaves the first run's files as they were; a run stopped by a signal removes its lock file,
# and a killed one (SIGKILL) leaves nothing that blocks the next.  fit --report and export
# lammps are refused the same way while another process holds the directory's lock.
# Environment: GRANUCAL (the binary), GC_DATADIR (the bundled data).
set -u
G=${GRANUCAL:-../src/granucal}
D=${GC_DATADIR:-../data}
D=$(cd "$D" && pwd)
T=$(mktemp -d)
first=
trap '[ -n "$first" ] && kill "$first" 2>/dev/null; rm -rf "$T"' EXIT
fail=0
ok() { echo "PASS: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
# wait up to 60 s for a file
await() {
  i=0
  while [ ! -e "$1" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
  [ -e "$1" ]
}
snapshot() { (cd "$1" && find . -type f ! -name '*.tmp[0-9]*' -exec cksum {} + | sort); }

sed -e "s|^params = .*|params = $D/chute/soybean.params|" \
  -e "s|^wall = .*|wall = $D/materials/plexiglass.card|" \
  -e "s|^bead = .*|bead = $D/materials/glass.card|" "$D/chute/tiny.chute" >"$T/long.chute"

# 1. a second chute run into the directory of a running one
"$G" chute -q -o "$T/run" -s t_end=20 -s checkpoint_interval=0.002 "$T/long.chute" \
  >"$T/first.out" 2>&1 &
first=$!
if await "$T/run/checkpoint.bin" && await "$T/run/.granucal.lock"; then
  before=$(snapshot "$T/run")
  "$G" chute -q -o "$T/run" -s t_end=0.01 "$T/long.chute" >"$T/second.out" 2>&1
  rc=$?
  [ $rc -eq 1 ] && ok "second run refused (exit 1)" || bad "second run: exit $rc, want 1"
  grep -qF "$T/run: another granucal (pid $first) is writing this directory" "$T/second.out" &&
    ok "the message names the directory and the first run's pid" ||
    bad "message: $(cat "$T/second.out")"
  # the first run's files are as they were, but for those the first run itself renews at each
  # checkpoint (the checkpoint and the record up to it: series, profiles, forces)
  renewed='checkpoint.bin\|series.csv\|profile-.*\.csv\|forces.csv'
  after=$(snapshot "$T/run")
  b=$(printf '%s\n' "$before" | grep -v "$renewed")
  a=$(printf '%s\n' "$after" | grep -v "$renewed")
  [ "$a" = "$b" ] && ok "the first run's files are intact" || bad "the first run's files changed: $(printf "%s\n" "$b" >"$T/b"; printf "%s\n" "$a" | diff "$T/b" - | tr "\n" " ")"
  grep -q -- '-s t_end=20' "$T/run/provenance.txt" && ok "provenance.txt is the first run's" ||
    bad "provenance.txt was replaced"
  # 2. SIGTERM: the run ends (143) and removes its lock file
  kill -TERM "$first"
  wait "$first"
  rc=$?
  first=
  [ $rc -eq 143 ] && ok "SIGTERM: exit 143" || bad "SIGTERM: exit $rc"
  [ ! -e "$T/run/.granucal.lock" ] && ok "SIGTERM: no lock file left" || bad "lock file left"
else
  bad "the first run did not start: $(cat "$T/first.out")"
fi

# 3. SIGKILL: the lock file stays, but it does not block the next run
"$G" chute -q -o "$T/run2" -s t_end=20 "$T/long.chute" >"$T/first.out" 2>&1 &
first=$!
if await "$T/run2/.granucal.lock"; then
  kill -KILL "$first"
  wait "$first" 2>/dev/null
  first=
  "$G" chute -q -o "$T/run2" -s t_end=0.002 "$T/long.chute" >"$T/third.out" 2>&1 &&
    ok "a killed run's lock does not block the next" || bad "after SIGKILL: $(cat "$T/third.out")"
  [ ! -e "$T/run2/.granucal.lock" ] && [ -s "$T/run2/series.csv" ] &&
    ok "the next run completes and removes the lock file" || bad "after SIGKILL: files"
else
  bad "the run to kill did not start: $(cat "$T/first.out")"
fi

# 4. fit --report and export lammps into a directory whose lock another process holds
if command -v python3 >/dev/null 2>&1; then
  mkdir "$T/held"
  echo kept >"$T/held/summary.txt"
  python3 -c 'import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.lockf(fd, fcntl.LOCK_EX)
open(sys.argv[1] + ".ready", "w").close()
time.sleep(60)' "$T/held/.granucal.lock" &
  holder=$!
  if await "$T/held/.granucal.lock.ready"; then
    "$G" fit -c "$D/soybean/soybean.card" "$D/soybean/compression.csv" "$D/soybean/drops.csv" \
      --fix nu=0.4 -q -o "$T/o.params" --report "$T/held" >"$T/fit.out" 2>&1
    rc=$?
    [ $rc -eq 1 ] && grep -qF "$T/held: another granucal (pid $holder)" "$T/fit.out" &&
      [ "$(cat "$T/held/summary.txt")" = kept ] && [ ! -e "$T/o.params" ] &&
      ok "fit --report refused, nothing written" ||
      bad "fit --report: exit $rc: $(cat "$T/fit.out")"
    "$G" export lammps -o "$T/held" "$T/long.chute" >"$T/export.out" 2>&1
    rc=$?
    [ $rc -eq 1 ] && grep -qF "$T/held: another granucal (pid $holder)" "$T/export.out" &&
      [ ! -e "$T/held/chute.in" ] &&
      ok "export lammps refused, nothing written" || bad "export: exit $rc: $(cat "$T/export.out")"
  else
    bad "the lock holder did not start"
  fi
  kill "$holder" 2>/dev/null
  wait "$holder" 2>/dev/null
else
  echo "SKIP: python3 not found (fit and export against a held lock)"
fi
[ $fail -eq 0 ]
