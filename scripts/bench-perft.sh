#!/usr/bin/env bash
# Perft throughput of both games from the start position: a release build, one core.
#   scripts/bench-perft.sh           Avalam depths 4 and 5, Awale depth 10
#   scripts/bench-perft.sh --quick   without Avalam depth 5, which alone takes about 5 s (2026, 2 cores)
# Each line is the engine's own report: depth, leaf count, time in ms and leaves per second.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
case "${1:-}" in
    --quick) quick=1 ;;
    "") ;;
    *) echo "usage: $0 [--quick]" >&2; exit 2 ;;
esac
cargo build --release --quiet --bin pion
pion="${CARGO_TARGET_DIR:-target}/release/pion"
run() {
    printf '%-7s ' "$1"
    "$pion" perft --game "$1" --depth "$2"
}
run avalam 4
if [ "$quick" -eq 0 ]; then
    run avalam 5
fi
run awale 10
