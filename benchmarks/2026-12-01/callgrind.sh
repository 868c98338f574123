#!/usr/bin/env bash
# Instruction counts of the engine's hot path, for one source tree:
#   benchmarks/2026-12-01/callgrind.sh SRC [MODE ...]
# SRC is a `src` folder (a checkout or `git archive COMMIT src | tar -x -C DIR`); the modes
# are `import` (import_only.py, subtracted from the others) and the playout.py modes.
# Prints one "mode instructions" line per mode. See state-declaration-callgrind.md.
set -euo pipefail
src=$1
shift
here="$(cd "$(dirname "$0")" && pwd)"
python="${PYTHON:-python}"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
for mode in "${@:-import checked unchecked no-copy positions}"; do
  for one in $mode; do
    if [ "$one" = import ]; then script=("$here/import_only.py"); else script=("$here/playout.py" "$one"); fi
    PYTHONHASHSEED=0 PYTHONPATH="$src" valgrind --tool=callgrind --callgrind-out-file="$out" \
      "$python" "${script[@]}" > /dev/null 2> /dev/null
    echo "$one $(grep -m1 '^summary' "$out" | cut -d' ' -f2)"
  done
done
