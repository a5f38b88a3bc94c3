#!/usr/bin/env bash
# Plays the level table of docs/engine.md with the referee: pion at Level max against the yardstick
# levels and against MCTS at equal time, colour-swapped pairs, 100 ms per move. The openings are
# the balanced books openings/<game>-balanced.txt (scripts/make-openings.py), in order;
# OPENINGS=random-plies=4 (or any referee --openings value) plays those openings instead.
#
# Usage: scripts/level-table.sh [GAMES] [OUTDIR]     (defaults: 200 games, target/level-table)
# Each match writes OUTDIR/<name>.jsonl (resumable: run the script again to continue) and
# OUTDIR/<name>.json (the summary); the last lines print one summary line per match.
set -euo pipefail
if [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 0
fi
games=${1:-200}
case $games in
  '' | *[!0-9]* | 0) echo "level-table.sh: GAMES must be a positive number, not '$games' (see --help)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
out=${2:-target/level-table}
openings=${OPENINGS:-book}
mkdir -p "$out"
cargo build --release --quiet
target=${CARGO_TARGET_DIR:-target}
# Play with copies, so that a rebuild during the matches cannot swap the engines mid-match.
mkdir -p "$out/bin"
cp "$target/release/pion" "$target/release/referee" "$out/bin/"
pion=$out/bin/pion
referee=$out/bin/referee

match() { # name game opponent-options...
  local name=$1 game=$2
  shift 2
  local resume=()
  [ -s "$out/$name.jsonl" ] && resume=(--resume)
  local book=$openings
  [ "$book" = book ] && book=file=openings/$game-balanced.txt
  "$referee" --game "$game" \
    --engine name=max cmd="$pion" option.Level=max \
    --engine name=opponent cmd="$pion" "$@" \
    --games "$games" --concurrency 2 --tc movetime=100 \
    --openings "$book" --seed 1 --out "$out/$name.jsonl" "${resume[@]}" \
    --json >"$out/$name.json.new" || {
    rm -f "$out/$name.json.new"
    echo "level-table.sh: the $name match failed (above); its files in $out are as they were. Other openings or options need another OUTDIR." >&2
    exit 1
  }
  # Replace the summary only once the referee has written a new one: a refused resume
  # (other openings, say) leaves the last summary as it was.
  mv "$out/$name.json.new" "$out/$name.json"
}

match avalam-max-divine avalam option.Level=divine
match avalam-max-mcts avalam option.Search=mcts
match awale-max-divine awale option.Level=divine
match awale-max-mcts awale option.Search=mcts

for f in "$out"/*.json; do
  python3 - "$f" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
e = s["engines"]["max"]
if s.get("elo_bound") is not None:
    elo = f'{">=" if s["score"] > 0.5 else "<="} {s["elo_bound"]:+.0f} (95% one-sided bound: every game went one way)'
elif s["elo"] is None:
    elo = "n/a"
elif s["elo_error"] is None:
    elo = f'{s["elo"]:+.0f} (no error bar yet)'
else:
    elo = f'{s["elo"]:+.0f} +/- {s["elo_error"]:.0f} (95%)'
print(f'{sys.argv[1].split("/")[-1][:-5]:<20} games {s["games"]:>4}  max W/D/L {e["wins"]}/{e["draws"]}/{e["losses"]}'
      f'  score {100 * s["score"]:.1f}%  Elo {elo}  LOS {100 * (s["los"] or 0):.1f}%  forfeits {s["forfeits"] or "none"}')
PY
done
