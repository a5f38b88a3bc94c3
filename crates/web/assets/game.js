// The rules, asked of a pion process (legal, status, show), and the position string read back
// for drawing. The page never decides a rule itself.

/** Reads a `status` line into {over, turn, winner, draw, score: [p1, p2], reason}. */
export function parseStatus(line) {
  const w = line.trim().split(/\s+/);
  const at = (key) => w.indexOf(key);
  const score = [Number(w[at("score") + 1]), Number(w[at("score") + 2])];
  if (w[1] === "playing") return { over: false, turn: Number(w[at("turn") + 1]), score };
  return {
    over: true,
    winner: at("winner") >= 0 ? Number(w[at("winner") + 1]) : 0,
    draw: at("draw") >= 0,
    score,
    reason: at("reason") >= 0 ? w[at("reason") + 1] : "",
  };
}

/** Reads a position string into what the board draws; null if it is not one. */
export function parsePosition(game, text) {
  const [board, side] = text.trim().split(/\s+/);
  if (!board) return null;
  if (game === "avalam") {
    const rows = board.split("/");
    if (rows.length !== 9) return null;
    const cells = new Array(81).fill(null);
    rows.forEach((row, i) => {
      const r = 8 - i;
      let c = 0;
      for (let k = 0; k < row.length; k++) {
        const ch = row[k];
        if (ch === "y" || ch === "r") {
          let h = 1;
          if (k + 1 < row.length && /[2-5]/.test(row[k + 1])) { h = Number(row[k + 1]); k++; }
          cells[r * 9 + c] = { h, top: ch === "y" ? 1 : 2 };
        }
        c++;
      }
    });
    return { game, cells, side: Number(side) };
  }
  const parts = board.split("/");
  if (parts.length !== 3) return null;
  const p1 = parts[0].split(",").map(Number);
  const p2 = parts[1].split(",").map(Number);
  return { game, pits: [...p1, ...p2], stores: parts[2].split(",").map(Number), side: Number(side) };
}

/** Avalam cells by name: "a1" is 0, "i9" is 80. */
export function cellIndex(name) {
  return (Number(name.slice(1)) - 1) * 9 + (name.charCodeAt(0) - 97);
}

export function cellName(index) {
  return String.fromCharCode(97 + (index % 9)) + String(Math.floor(index / 9) + 1);
}

/** The squares of an Avalam move `e4e5`, or the pit of an Awale move, for drawing. */
export function moveParts(game, move) {
  if (game === "avalam") {
    const m = /^([a-i][1-9])([a-i][1-9])$/.exec(move || "");
    return m ? { from: cellIndex(m[1]), to: cellIndex(m[2]) } : null;
  }
  const m = /^[A-Fa-f]$/.exec(move || "");
  if (!m) return null;
  const code = move.charCodeAt(0);
  return { pit: code < 97 ? code - 65 : 6 + code - 97 };
}

/** The game's rules through one pion process. */
export class Rules {
  constructor(engine) {
    this.engine = engine;
  }

  /** Starts `game` under `variant` in the rules process. Throws the engine's error, if any. */
  async setGame(game, variant) {
    const errors = await this.engine.sync([`newgame ${game}`, `setoption name Variant value ${variant}`]);
    if (errors.length) throw new Error(errors[0].replace(/^error /, ""));
  }

  /**
   * The variants of each game the engine plays, by `query variants` (pion keeps a variant of
   * the other game for later rather than refusing it, so trying each one would list them all).
   * An engine that does not know the query gets the `Variant` option's list for every game.
   */
  async variants(games, all) {
    const found = {};
    for (const game of games) {
      const got = await this.engine.request([`newgame ${game}`, "query variants"], (l) => /^(response|error) /.test(l));
      const last = got[got.length - 1];
      found[game] = last.startsWith("response ") ? last.split(" ").slice(1).filter((v) => all.includes(v)) : [...all];
    }
    return found;
  }

  /**
   * The position after `moves` from `start` ("startpos" or a position string): its legal moves,
   * status, position string and picture. Throws the engine's error for a bad position or move.
   */
  async load(start, moves) {
    const head = start === "startpos" ? "position startpos" : `position ${start}`;
    const command = moves.length ? `${head} moves ${moves.join(" ")}` : head;
    const first = await this.engine.request([command, "isready"], (l) => l === "readyok");
    const error = first.find((l) => l.startsWith("error"));
    if (error) throw new Error(error.replace(/^error /, ""));
    const lines = await this.engine.request(["legal", "status", "show"], (l) => l.startsWith("position "));
    const legal = lines.find((l) => l.startsWith("legal")).split(/\s+/).slice(1);
    const status = parseStatus(lines.find((l) => l.startsWith("status ")));
    const position = lines[lines.length - 1].slice("position ".length);
    const board = lines.findIndex((l) => l.startsWith("board "));
    return { legal, status, position, picture: lines.slice(board, -1).join("\n") };
  }
}
