#!/bin/sh
# record.sh - the record of a chute run: effective.chute re-runs from any directory; the series,
# profiles and force statistics survive an interruption up to the last checkpoint and a resumed
# run continues them; progress lines in a log.
# Environment: GRANUCAL (the binary), GC_DATADIR (the bundled data).
set -u
G=${GRANUCAL:-../src/granucal}
D=${GC_DATADIR:-../data}
case $G in /*) ;; *) G=$(pwd)/$G ;; esac
case $D in /*) ;; *) D=$(pwd)/$D ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS: $1"; }
ko() { fail=$((fail + 1)); echo "FAIL: $1"; }

# effective.chute names its files by absolute paths: run from the card's directory, it re-runs
# from another directory (the card's paths are relative to the card's directory) with the same
# series
if (cd "$D/chute" && "$G" chute -q -o "$tmp/e1" -s t_end=0.01 tiny.chute) &&
  mkdir "$tmp/elsewhere" && (cd "$tmp/elsewhere" && "$G" chute -q -o ../e2 ../e1/effective.chute) &&
  cmp -s "$tmp/e1/series.csv" "$tmp/e2/series.csv" &&
  grep -q "^params = /.*/soybean.params  # tiny.chute:" "$tmp/e1/effective.chute"; then
  ok "effective.chute re-runs from another directory, same series"
else
  ko "effective.chute re-run: $(ls "$tmp/e2" 2>&1 | tr '\n' ' ')"
fi

# same_files A B: every file of run A is in run B with the same bytes (provenance.txt and
# effective.chute name the command and the date), and B has no other file
same_files() {
  (cd "$1" && ls) | grep -v '^provenance.txt$\|^effective.chute$' >"$tmp/la"
  (cd "$2" && ls) | grep -v '^provenance.txt$\|^effective.chute$' >"$tmp/lb"
  cmp -s "$tmp/la" "$tmp/lb" || { echo "files differ: $(diff "$tmp/la" "$tmp/lb" | tr '\n' ' ')"; return 1; }
  while read -r f; do
    cmp -s "$1/$f" "$2/$f" || { echo "$f differs"; return 1; }
  done <"$tmp/la"
  [ -s "$tmp/la" ]
}

# A run stopped at a checkpoint and continued to its end leaves the files of an uninterrupted
# run (series, profiles, forces, VTK, the final checkpoint).  The first part ends at 0.06 s, off
# the 0.02 s grid of checkpoints (and of the VTK snapshots at 0.007 s); the keys whose defaults
# follow t_end are given, as the same run's would be.
T="$D/chute/tiny.chute"
keys="-s checkpoint_interval=0.02 -s vtk_interval=0.007 -s steady_window=0.05 -s profile_end=0.1 -s forces_time=0.1"
# shellcheck disable=SC2086
if "$G" chute -q -o "$tmp/u" $keys --t-end 0.1 "$T" && "$G" chute -q -o "$tmp/p" $keys --t-end 0.0605 "$T" &&
  tail -n 1 "$tmp/p/series.csv" | awk -F, '{ exit !($1 > 0.0604 && $1 < 0.0606) }' &&
  "$G" chute -q -o "$tmp/p" $keys --t-end 0.1 --resume "$tmp/p/checkpoint.bin" "$T" &&
  why=$(same_files "$tmp/u" "$tmp/p"); then
  ok "stopped at 0.0605 s and resumed: every output as the uninterrupted run's"
else
  ko "stopped and resumed: ${why:-a run failed}"
fi
# continued into another directory: the series up to the checkpoint comes from the one next to
# it; without it the series starts at the checkpoint, with a note (and the slope of the trailing
# window, columns 19-20, over its own rows)
# shellcheck disable=SC2086
if "$G" chute -q -o "$tmp/q" $keys --t-end 0.0605 "$T" &&
  "$G" chute -q -o "$tmp/q2" $keys --t-end 0.1 --resume "$tmp/q/checkpoint.bin" "$T" &&
  cmp -s "$tmp/u/series.csv" "$tmp/q2/series.csv" && cmp -s "$tmp/u/forces.csv" "$tmp/q2/forces.csv" &&
  cmp -s "$tmp/u/profile-side-all.csv" "$tmp/q2/profile-side-all.csv"; then
  ok "resumed into another directory: the same series, profiles and forces"
else
  ko "resumed into another directory"
fi
mv "$tmp/q/series.csv" "$tmp/q/series.old"
# shellcheck disable=SC2086
if "$G" chute -o "$tmp/q3" $keys --t-end 0.1 --resume "$tmp/q/checkpoint.bin" "$T" 2>"$tmp/err" &&
  grep -q "does not hold the series of its run up to the checkpoint (missing or changed)" "$tmp/err" &&
  grep -q "series.csv starts at t = 0.060[45]" "$tmp/err" &&
  sed -n 2p "$tmp/q3/series.csv" | awk -F, '{ exit !($1 > 0.0604 && $1 < 0.062) }' &&
  [ "$(tail -n 1 "$tmp/q3/series.csv" | cut -d, -f1-18)" = \
    "$(tail -n 1 "$tmp/u/series.csv" | cut -d, -f1-18)" ]; then
  ok "resumed without the series next to the checkpoint: starts there, with a note"
else
  ko "resumed without the series: $(head -c 300 "$tmp/err")"
fi

# SIGKILL at any time after a checkpoint: the record is on the disk up to the checkpoint, and the
# run resumed into its directory leaves the files of the uninterrupted run
keys="-s checkpoint_interval=0.01 -s vtk_interval=0.05 -s t_end=1 -s profile_start=0.5"
# shellcheck disable=SC2086
"$G" chute -q -o "$tmp/ku" $keys "$T" || ko "uninterrupted run to 1 s"
# shellcheck disable=SC2086
"$G" chute -q -o "$tmp/k" $keys "$T" &
pid=$!
i=0
while [ ! -e "$tmp/k/checkpoint.bin" ] && [ $i -lt 2000 ]; do sleep 0.01; i=$((i + 1)); done
kill -KILL "$pid"
{ wait "$pid"; } 2>/dev/null # (without the shell's note of the kill)
st=$?
rows=$(($(wc -l <"$tmp/k/series.csv") - 1))
if [ "$st" -eq 137 ] && [ "$rows" -ge 10 ] &&
  cmp -s "$tmp/k/series.csv" "$tmp/ku/series.csv" 2>/dev/null; then
  ko "SIGKILL: the run ended before the kill (make the run longer)"
elif [ "$st" -eq 137 ] && [ "$rows" -ge 10 ] &&
  cmp -s -n "$(wc -c <"$tmp/k/series.csv")" "$tmp/k/series.csv" "$tmp/ku/series.csv" &&
  grep -q '^# so far: written at the checkpoint at t = ' "$tmp/k/forces.csv" &&
  grep -q '^# so far: written at the checkpoint at t = ' "$tmp/k/profile-side-all.csv"; then
  ok "SIGKILL: series.csv holds the $rows rows up to a checkpoint, profiles and forces so far"
else
  ko "SIGKILL: exit $st, $rows rows of series.csv"
fi
# shellcheck disable=SC2086
if "$G" chute -q -o "$tmp/k" $keys --resume "$tmp/k/checkpoint.bin" "$T" &&
  why=$(same_files "$tmp/ku" "$tmp/k"); then
  ok "SIGKILL after $rows rows, resumed: every output as the uninterrupted run's"
else
  ko "SIGKILL and resume: ${why:-the resumed run failed}"
fi

# progress: with standard error not a terminal, a line every few seconds (time, rate, velocity,
# contacts, ETA); the summary ends with what to do next
"$G" chute -o "$tmp/pr" -s t_end=100 -s vtk_interval=1 "$T" 2>"$tmp/pr.err" &
pid=$!
i=0
while ! grep -q '^t = ' "$tmp/pr.err" && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM "$pid"
wait "$pid"
if grep -q '^t = [0-9.]* / 100 s ([0-9.]* %)  [0-9.e+]* steps/s  vx = [-0-9.e]* m/s  [0-9]* contacts  ETA [0-9]*:[0-9][0-9]:[0-9][0-9]$' \
  "$tmp/pr.err" && ! grep -q "$(printf '\r')" "$tmp/pr.err"; then
  ok "progress lines in a log"
else
  ko "progress lines: $(head -c 400 "$tmp/pr.err")"
fi
"$G" chute -o "$tmp/nx" -s t_end=0.01 -s vtk_interval=0.005 "$T" 2>"$tmp/nx.err"
if tail -n 1 "$tmp/nx.err" | grep -q "^next: plot-chute $tmp/nx draws .*; open $tmp/nx/particles.pvd in ParaView"; then
  ok "the summary ends with what to do next"
else
  ko "next steps: $(tail -n 2 "$tmp/nx.err")"
fi
"$G" chute -q -o "$tmp/nq" -s t_end=0.01 "$T" 2>"$tmp/nq.err"
[ ! -s "$tmp/nq.err" ] && ok "-q: nothing on standard error" || ko "-q: $(head -c 200 "$tmp/nq.err")"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
