// Saved games: PGN-syntax text for both games, OGN (the Oware Game Notation that Aualé writes
// and reads, as its serialize/ogn.py and game/match.py do) for Awale, and either read back.

const STR = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
const OGN_ROSTER = ["Variant", "Event", "Site", "Date", "Round", "South", "North", "Result"];
/** Aualé's name for the rules it plays: the only Variant value it writes. */
export const OGN_RULESET = "Oware Abapa";

const escape = (v) => String(v).replace(/\\/g, "\\\\").replace(/"/g, '\\"');
const unescape = (v) => v.replace(/\\"/g, '"').replace(/\\\\/g, "\\");

/** Tag lines: the roster first, in its order, then the other tags sorted by name. */
function tagLines(tags, roster) {
  const names = [...roster, ...Object.keys(tags).filter((n) => !roster.includes(n)).sort()];
  return names.map((n) => `[${n} "${escape(tags[n] ?? "?")}"]\n`).join("");
}

/** Tokens joined into lines shorter than 80 characters. */
function wrap(tokens) {
  let line = tokens[0];
  const lines = [];
  for (const t of tokens.slice(1)) {
    if (1 + line.length + t.length < 80) line += ` ${t}`;
    else { lines.push(line); line = t; }
  }
  lines.push(line);
  return lines.join("\n") + "\n";
}

const today = () => new Date().toISOString().slice(0, 10).replace(/-/g, ".");

/**
 * A game as PGN-syntax text. `g`: {game, variant, start, moves, players: [p1, p2], result:
 * "1-0" | "0-1" | "1/2-1/2" | "*", termination, score: [p1, p2] or null, tc}.
 */
export function toPgn(g) {
  const tags = {
    Event: "pion-web game", Site: "pion-web", Date: today(), Round: "-",
    White: g.players[0], Black: g.players[1], Result: g.result,
    Game: g.game[0].toUpperCase() + g.game.slice(1), Variant: g.variant,
  };
  if (g.start !== "startpos") { tags.SetUp = "1"; tags.FEN = g.start; }
  if (g.tc) tags.TimeControl = g.tc;
  if (g.termination) tags.Termination = g.termination;
  const first = g.start === "startpos" ? 1 : Number(g.start.trim().split(/\s+/)[1]) || 1;
  const tokens = [];
  g.moves.forEach((m, i) => {
    const side = (i % 2 === 0) === (first === 1) ? 1 : 2;
    const number = Math.floor((i + (first === 2 ? 1 : 0)) / 2) + 1;
    if (side === 1) tokens.push(`${number}.`);
    else if (i === 0) tokens.push(`${number}...`);
    tokens.push(m);
  });
  if (g.score && g.result !== "*") tokens.push("{", "score", `${g.score[0]}-${g.score[1]}`, "}");
  tokens.push(g.result);
  return tagLines(tags, STR) + "\n" + wrap(tokens);
}

/** pion's Awale position `A..F/a..f/c1,c2 side` as Aualé's `h0-...-h11-s0-s1-S|N`. */
export function toAualePosition(position) {
  const [board, side] = position.trim().split(/\s+/);
  const [ones, twos, stores] = board.split("/").map((p) => p.split(","));
  return [...ones, ...twos, ...stores, side === "2" ? "N" : "S"].join("-");
}

/** Aualé's position notation as pion's; null if it is not one. */
export function fromAualePosition(text) {
  const m = /^((?:[1-4]?[0-9]-){14})(S|N)$/.exec(text.trim());
  if (!m) return null;
  const n = m[1].split("-").slice(0, 14);
  return `${n.slice(0, 6).join(",")}/${n.slice(6, 12).join(",")}/${n[12]},${n[13]} ${m[2] === "N" ? 2 : 1}`;
}

/**
 * An Awale game as OGN. `g`: {start, moves, stores: the captures [p1, p2] after each ply (ply 0
 * first; after the last move of a finished game, the final score), over, players: [south, north]}.
 */
export function toOgn(g) {
  const tags = {
    Variant: OGN_RULESET, Event: "?", Site: "?", Date: "?", Round: "?",
    South: g.players[0], North: g.players[1], Result: "*",
  };
  const last = g.stores[g.stores.length - 1];
  if (g.over) tags.Result = `${last[0]}-${last[1]}`;
  if (g.start !== "startpos") tags.FEN = toAualePosition(g.start);
  let text = tagLines(tags, OGN_ROSTER);
  if (!g.moves.length) return text;
  const tokens = [];
  g.moves.forEach((m, i) => {
    if (i % 2 === 0) tokens.push(`${i / 2 + 1}.`);
    // The mover's gain: a south move (A..F) fills store 0, a north move store 1.
    const s = /[A-F]/.test(m) ? 0 : 1;
    const gain = g.stores[i + 1][s] - g.stores[i][s];
    tokens.push(gain ? `${m}+${gain}` : m);
  });
  if (g.over) tokens.push(tags.Result);
  return text + "\n" + wrap(tokens);
}

/** Reads the tag pairs at the head of `text`: {tags, end} (where the moves begin). */
function readTags(text) {
  const re = /\s*\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]/y;
  const tags = {};
  let m;
  while ((m = re.exec(text))) tags[m[1]] = unescape(m[2]);
  return { tags, end: re.lastIndex || skipTags(text) };
}

function skipTags(text) {
  const re = /\s*\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]/y;
  let end = 0;
  while (re.exec(text)) end = re.lastIndex;
  return end;
}

/** The movetext without comments, variations, NAGs and move numbers, as words. */
function moveWords(body) {
  let depth = 0, out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "{") { const j = body.indexOf("}", i); i = j < 0 ? body.length : j; out += " "; continue; }
    if (c === ";") { const j = body.indexOf("\n", i); i = j < 0 ? body.length : j; continue; }
    if (c === "(") { depth++; continue; }
    if (c === ")") { depth = Math.max(0, depth - 1); out += " "; continue; }
    if (depth === 0) out += c;
  }
  return out.split(/\s+/).map((w) => w.replace(/^\d+\.+/, "")).filter((w) => w && !/^\$\d+$/.test(w) && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(w));
}

/**
 * Reads a saved game, PGN or OGN: {game, variant (null when the file does not say), start,
 * moves, tags}. Throws an Error with one sentence when the text is neither.
 */
export function readGameText(text) {
  const { tags } = readTags(text);
  const end = skipTags(text);
  if (!Object.keys(tags).length) throw new Error("this is not a saved game: it has no [Tag \"value\"] lines (PGN or OGN)");
  const body = text.slice(end);
  if (!tags.Game && (tags.Variant === OGN_RULESET || "South" in tags || "North" in tags)) {
    // Aualé reads every letter A..F, a..f outside comments and variations as a move.
    const moves = (moveWords(body).join(" ").match(/[A-Fa-f]/g) || []);
    let start = "startpos";
    if (tags.FEN) {
      start = fromAualePosition(tags.FEN);
      if (!start) throw new Error(`the FEN tag '${tags.FEN}' is not an Aualé position (14 numbers and S or N, joined by '-')`);
    }
    return { game: "awale", variant: null, start, moves, tags };
  }
  const moves = moveWords(body).map((w) => w.replace(/[+#!?]+$/, ""));
  const game = (tags.Game || "").toLowerCase() || (moves.every((m) => /^[A-Fa-f]$/.test(m)) && moves.length ? "awale" : "avalam");
  return { game, variant: tags.Variant || null, start: tags.FEN || "startpos", moves, tags };
}
