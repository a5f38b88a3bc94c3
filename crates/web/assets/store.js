// What survives a reload: the game in the address (so that it can be shared as a link) and in
// local storage, and the player's settings (seats, clock, sowing speed) in local storage.

const GAME = "pion-web-game";
const PREFS = "pion-web-prefs";

/** Writes the game ({game, variant, start, moves, ply}) into the address and local storage. */
export function writeGame(g) {
  const p = new URLSearchParams();
  p.set("game", g.game);
  if (g.variant !== "standard") p.set("variant", g.variant);
  if (g.start !== "startpos") p.set("start", g.start);
  if (g.moves.length) p.set("moves", g.moves.join(" "));
  if (g.ply !== g.moves.length) p.set("ply", String(g.ply));
  history.replaceState(null, "", `${location.pathname}${location.search}#${p}`);
  try { localStorage.setItem(GAME, JSON.stringify(g)); } catch { /* storage off: the address keeps it */ }
}

/** The game of the address, or else of local storage; null if neither holds one. */
export function readGame() {
  const p = new URLSearchParams(location.hash.slice(1));
  if (p.get("game")) {
    const moves = (p.get("moves") || "").split(/\s+/).filter(Boolean);
    const ply = p.has("ply") ? Number(p.get("ply")) : moves.length;
    return {
      game: p.get("game"), variant: p.get("variant") || "standard", start: p.get("start") || "startpos",
      moves, ply: Number.isInteger(ply) && ply >= 0 && ply <= moves.length ? ply : moves.length,
    };
  }
  try {
    const g = JSON.parse(localStorage.getItem(GAME) || "null");
    if (g && typeof g.game === "string" && Array.isArray(g.moves)) return g;
  } catch { /* a damaged entry is ignored */ }
  return null;
}

/** The saved settings (an object, empty if none). */
export function readPrefs() {
  try { return JSON.parse(localStorage.getItem(PREFS) || "{}") || {}; } catch { return {}; }
}

/** Merges `changes` into the saved settings. */
export function writePrefs(changes) {
  try { localStorage.setItem(PREFS, JSON.stringify({ ...readPrefs(), ...changes })); } catch { /* storage off */ }
}
