#!/usr/bin/env bash
# Referee match that checks a weight change: new binary against old, fixed nodes per move.
# usage: scripts/tune-match.sh <avalam|awale> <new-pion> <old-pion> [games] [nodes] [seed]
# Fixed node budgets make the match fair and cheap on a loaded machine; one game at a time.
# The openings are the balanced book openings/<game>-balanced.txt, in order (colour-swapped
# pairs); OPENINGS=random-plies=4 (or any referee --openings value) plays those instead.
set -euo pipefail
game=${1:?usage: tune-match.sh <avalam|awale> <new> <old> [games] [nodes] [seed]}
new=${2:?new engine binary}
old=${3:?old engine binary}
games=${4:-200}
nodes=${5:-20000}
seed=${6:-1}
here=$(cd "$(dirname "$0")/.." && pwd)
referee=${REFEREE:-${CARGO_TARGET_DIR:-$here/target}/release/referee}
[ -x "$referee" ] || { echo "tune-match.sh: no referee at $referee (cargo build --release, or set REFEREE)" >&2; exit 2; }
case $game in
  avalam | awale) ;;
  *) echo "tune-match.sh: the game is avalam or awale, not '$game'" >&2; exit 2 ;;
esac
openings=${OPENINGS:-file=$here/openings/$game-balanced.txt}
log=$(mktemp -d /tmp/tune-match.XXXXXX)
set -x
"$referee" --game "$game" \
  --engine name=new cmd="$new" \
  --engine name=old cmd="$old" \
  --games "$games" --concurrency 1 --tc nodes="$nodes" \
  --openings "$openings" --seed "$seed" \
  --out "$log/games.jsonl" --log-dir "$log/logs" --json
