#!/bin/sh
# vtk.sh - `granucal chute` VTK snapshots and their .pvd collection read with VTK (Debian's
# python3-vtk9, the library ParaView uses for legacy .vtk files): tests/vtk_check.py.  Skipped
# (77) when Debian's python3 has no vtk module (scripts/bootstrap installs python3-vtk9).
set -u
G=${GRANUCAL:?}
D=${GC_DATADIR:?}
S=${GC_SRCDIR:?}
py=/usr/bin/python3
if ! "$py" -c 'import vtk' 2>/dev/null; then
  echo "SKIP vtk: no python3 vtk module (apt-get install python3-vtk9)"
  exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gcvtk.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$G" chute -q -o "$tmp/out" -s vtk_interval=0.02 -s t_end=0.1 "$D/chute/tiny.chute" ||
  { echo "FAIL vtk: chute run"; exit 1; }
n=$(awk -F= '$1 ~ /^n_particles/ { print $2 + 0 }' "$D/chute/tiny.chute")
L=$(awk -F= '$1 ~ /^length/ { print $2 + 0 }' "$D/chute/tiny.chute")
"$py" "$S/tests/vtk_check.py" "$tmp/out" "$n" 4 "$L"
