# shellcheck shell=bash
# plot-common.sh - shell functions shared by scripts/plot-contact and scripts/plot-drop.
#
# Sourced, not run.  The caller sets prog (its name, for messages) before calling any of them.
# Exit status convention of the scripts: 0 success, 1 failure, 2 usage error.

: "${prog:=plot}"

die() {
  printf '%s: %s\n' "$prog" "$*" >&2
  exit 1
}

usage_error() {
  printf '%s: %s\n' "$prog" "$*" >&2
  printf "Try '%s -h' for help.\n" "$prog" >&2
  exit 2
}

need_value() { # option remaining-argument-count
  [ "$2" -ge 2 ] || usage_error "option $1 needs a value"
}

# Usage error if the output name does not end in .png.
check_png_name() { # out
  case $1 in
    *.png | *.PNG) ;;
    *) usage_error "output '$1' should end in .png" ;;
  esac
}

# Usage error if any argument contains a line break (they end up in gnuplot strings).
check_no_line_breaks() { # string...
  local s
  for s in "$@"; do
    case $s in
      *$'\n'* | *$'\r'*) usage_error "file names, labels and the title cannot contain line breaks" ;;
    esac
  done
}

# Check for gnuplot and the gnuplot script; set term to pngcairo or png.
find_gnuplot() { # gp-script
  command -v gnuplot >/dev/null 2>&1 ||
    die "gnuplot not found: install it (on Debian: apt-get install gnuplot-nox)"
  [ -r "$1" ] || die "$1: cannot read the gnuplot script"
  if gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1; then
    term=pngcairo
  elif gnuplot -e 'set terminal png' >/dev/null 2>&1; then
    term=png
  else
    die "this gnuplot has neither the pngcairo nor the png terminal (on Debian: apt-get install gnuplot-nox)"
  fi
}

# The output's directory must exist and be writable, and the output must not be a directory.
check_output_dir() { # out
  local outdir
  outdir=$(dirname -- "$1")
  [ -d "$outdir" ] || die "$1: directory '$outdir' does not exist"
  [ -w "$outdir" ] || die "$1: directory '$outdir' is not writable"
  [ ! -d "$1" ] || die "$1: is a directory"
}

# An input file must be an existing, readable regular file.
check_input_file() { # file
  [ -e "$1" ] || die "$1: no such file"
  [ -f "$1" ] || die "$1: not a regular file"
  [ -r "$1" ] || die "$1: cannot read (permission denied)"
}

# Quote a string for gnuplot: single-quoted strings take no escapes; ' is written ''.
gpq() {
  local s=${1//\'/\'\'}
  printf "'%s'" "$s"
}

# Print "LINE<TAB>NCOLS<TAB>INDEX<TAB>HEADER-TEXT" for column SEL of FILE: LINE is the
# header's line number, INDEX the 1-based column, HEADER-TEXT the column's header (with unit).
# SEL is a column name (the header text without its unit in brackets) or a 1-based number.
# Fails with a message on stderr.  (The awk programs here read the file from standard input, so
# that a file name such as "v=1.csv" is not taken for an awk variable assignment.)
resolve() { # file sel
  awk -v sel="$2" -v file="$1" -v prog="$prog" '
    function trim(s) { gsub(/^[ \t"]+|[ \t"\r]+$/, "", s); return s }
    /^[ \t]*(#|$|\r$)/ { next }
    {
      n = split($0, f, ",")
      names = ""
      for (i = 1; i <= n; i++) {
        full = trim(f[i]); name = full
        sub(/[ \t]*\[.*$/, "", name)
        names = names (i > 1 ? ", " : "") name
        if (name == sel || (sel ~ /^[0-9]+$/ && sel + 0 == i)) {
          printf "%d\t%d\t%d\t%s\n", NR, n, i, full
          found = 1
          exit
        }
      }
      if (sel ~ /^[0-9]+$/)
        printf "%s: %s:%d: column %s out of range: the header has %d columns (%s)\n", prog, file, NR, sel, n, names > "/dev/stderr"
      else
        printf "%s: %s:%d: no column \"%s\" in the header (columns: %s)\n", prog, file, NR, sel, names > "/dev/stderr"
      bad = 1
      exit
    }
    END {
      if (!found && !bad)
        printf "%s: %s: empty file: no header line\n", prog, file > "/dev/stderr"
      exit !found
    }' <"$1"
}

# Count the rows after the header where both columns hold numbers.
count_points() { # file header-line xcol ycol
  awk -F, -v h="$2" -v x="$3" -v y="$4" '
    function num(s) {
      gsub(/^[ \t]+|[ \t\r]+$/, "", s)
      return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/
    }
    NR <= h || /^[ \t]*#/ { next }
    num($x) && num($y) { n++ }
    END { print n + 0 }' <"$1"
}

# Legend entry of a file without -l: its base name without .csv.
default_label() { # file
  local label
  label=$(basename -- "$1")
  label=${label%.csv}
  label=${label%.CSV}
  printf '%s' "$label"
}

# Run gnuplot on GP-SCRIPT with the variables SETUP (gnuplot commands; outfile and term are
# appended) and move the image to OUT atomically: gnuplot writes a temporary file next to OUT,
# which is renamed when complete, so a failed run never leaves a partial image behind.
# Uses the global term set by find_gnuplot.
write_png() { # out gp-script setup
  local out=$1 gp_script=$2 setup=$3
  _plot_tmp=$(mktemp --suffix=.png.tmp "$out.XXXXXX") ||
    die "$out: cannot create a temporary file in '$(dirname -- "$out")'"
  trap 'rm -f -- "$_plot_tmp"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM HUP
  setup+="; term=$(gpq "$term"); outfile=$(gpq "$_plot_tmp")"
  if ! gnuplot -e "$setup" "$gp_script"; then
    die "gnuplot failed; $out not written"
  fi
  [ -s "$_plot_tmp" ] || die "gnuplot wrote an empty image; $out not written"
  # mktemp makes the file private; give the image the permissions a new file would get.
  chmod "$(printf '%o' $((0666 & ~$(umask))))" "$_plot_tmp" 2>/dev/null || true
  mv -f -- "$_plot_tmp" "$out" || die "$out: cannot rename the temporary file"
  trap - EXIT
}
