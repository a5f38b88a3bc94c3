// The page's one state: the game (start, moves, the ply shown), who plays each seat, clocks, an
// ending decided at the board (resignation, time, agreement), and what engines last thought.

/** The level of a new engine seat, the default opponent's included. */
export const DEFAULT_LEVEL = "basic";

/** Everything the page shows; app.js changes it, panel.js draws it. */
export const state = {
  games: [], variants: {}, engines: [],
  game: "avalam", variant: "standard", start: "startpos", moves: [], ply: 0, target: 0,
  view: null, selected: null, paused: false, step: false, busy: false,
  analysis: false, hint: null, hintText: "", replay: null,
  players: [{ kind: "human", options: {}, time: 1000 }, { kind: "human", options: {}, time: 1000 }],
  // Set by resignation, a fallen flag or an agreed draw: {winner (0 for a draw), reason, loser}.
  outcome: null,
  flip: false,
  tc: null, clock: null, clockAt: [],
  // Each engine seat's last search ({info, key}) and the panel's line ({label, info, side, key}).
  seatThought: { 1: null, 2: null }, thinking: null,
  // Positions seen, by `start|moves`, for sowing and captures.
  positions: new Map(),
  captured: [], sowing: null, sow: "normal",
  keepFields: null,
};

/** The side to move at the start of the game. */
export function startSide() {
  return state.start === "startpos" ? 1 : Number(state.start.trim().split(/\s+/)[1]) || 1;
}

/** The side to move after `n` moves. */
export function turnAt(n) {
  return n % 2 === 0 ? startSide() : 3 - startSide();
}

/** Whether seat `k` (1 or 2) is played by an engine. */
export const isEngine = (k) => state.players[k - 1].kind !== "human";

/** The seat the page speaks to: the one human against an engine, else player 1. */
export function pointOfView() {
  const humans = [1, 2].filter((k) => !isEngine(k));
  return humans.length === 1 ? humans[0] : 1;
}

/** The key of the position after `n` moves of the line. */
export function keyAt(n) {
  return `${state.start}|${state.moves.slice(0, n).join(" ")}`;
}

/** Whether the game has ended on the board (by the rules at the shown end, or decided at the board). */
export function gameOver() {
  return !!state.outcome || !!(state.view && state.view.status.over);
}
