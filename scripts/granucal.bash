# bash completion for granucal (installed as $(datadir)/bash-completion/completions/granucal)
_granucal()
{
  local cur prev words cword
  _init_completion 2>/dev/null || {
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
  }
  local cmds="contact drop impact fit data compare chute export models"
  if [ "$cword" -eq 1 ]; then
    COMPREPLY=($(compgen -W "$cmds -h --help -V --version" -- "$cur"))
    return
  fi
  local opts=""
  case ${words[1]} in
    fit) opts="-c --card -m --model -s --set -o --output -A --algorithm --fix --free --bounds --w-a --w-e
               --point-weights --eps --delta --max-iter --max-evals --polish --starts --seed
               --dt --gravity --report --compression --drops --undetermined -v --verbose
               -q --quiet -h --help" ;;
    export) opts="lammps --output-dir --set --state --plugin --help" ;;
    models) opts="--names -h --help" ;;
  esac
  # a command with an option table lists its options itself
  local table
  table=$(granucal --complete "${words[1]}" 2>/dev/null) && opts=$table
  case $prev in
    -m | --model)
      # the program's own list (one name a line), not the text of `granucal models`
      COMPREPLY=($(compgen -W "$(granucal models --names normal 2>/dev/null)" -- "$cur"))
      return ;;
    -t | --tfd)
      COMPREPLY=($(compgen -W "$(granucal models --names tangential 2>/dev/null) none" -- "$cur"))
      return ;;
    -A | --algorithm)
      COMPREPLY=($(compgen -W "$(granucal fit --list-algorithms 2>/dev/null)" -- "$cur"))
      return ;;
    --polish)
      COMPREPLY=($(compgen -W "$(granucal fit --list-algorithms 2>/dev/null) none" -- "$cur"))
      return ;;
    --undetermined) COMPREPLY=($(compgen -W "hold fit" -- "$cur")); return ;;
    --point-weights) COMPREPLY=($(compgen -W "none n sd" -- "$cur")); return ;;
    --fix | --free | --bounds) COMPREPLY=($(compgen -W "E nu P_Y C_a K_c all" -- "$cur")); return ;;
    -o | --output | --output-dir | --report | --history | --resume | --sweep | --path)
      COMPREPLY=($(compgen -f -- "$cur")); return ;;
    -c | --card)
      COMPREPLY=($(compgen -f -X '!*.@(card|params)' -- "$cur") $(compgen -d -- "$cur"))
      return ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _granucal granucal
