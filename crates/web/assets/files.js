// Saving the game as a file (PGN-syntax text; OGN for Awale, which Aualé opens) and opening one:
// the text is also shown, to copy or to paste another game in.

import { state, keyAt } from "./state.js";
import { $, message } from "./ui.js";
import { toPgn, toOgn, readGameText } from "./record.js";
import { parsePosition } from "./game.js";

const MAX_FILE = 1 << 20;
let api = null;

function download(text, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

const seatNames = () => (state.replay ? [state.replay.first, state.replay.second]
  : state.players.map((p) => (p.kind === "human" ? "Human" : p.options.Level ? `${p.kind} ${p.options.Level}` : p.kind)));

/** The game's result as PGN says it, and why, from the end of the whole line. */
function outcomeOf(status) {
  const o = state.outcome;
  if (o) return { result: ["1/2-1/2", "1-0", "0-1"][o.winner], termination: { resignation: "resignation", time: "time forfeit", agreement: "draw agreed" }[o.reason] };
  if (!status.over) return { result: "*", termination: null };
  return { result: status.draw ? "1/2-1/2" : status.winner === 1 ? "1-0" : "0-1", termination: status.reason };
}

async function save(kind) {
  try {
    const end = await api.rules.load(state.start, state.moves);
    const { result, termination } = outcomeOf(end.status);
    let text;
    if (kind === "pgn") {
      const tc = state.tc ? `${state.tc.base / 1000}+${state.tc.inc / 1000}` : null;
      text = toPgn({ game: state.game, variant: state.variant, start: state.start, moves: state.moves, players: seatNames(), result, termination, score: end.status.over ? end.status.score : null, tc });
    } else {
      // Aualé writes each move's captures: the captures after every ply are asked of the rules.
      const stores = [];
      for (let i = 0; i <= state.moves.length; i++) {
        let pos = state.positions.get(keyAt(i));
        if (!pos) pos = parsePosition("awale", (await api.rules.load(state.start, state.moves.slice(0, i))).position);
        stores.push(pos.stores);
      }
      // As Aualé's final board: a game won on captures (or 24 each) keeps its stores; one ended
      // otherwise gives each player the seeds on their side, which is pion's final score.
      const last = stores[stores.length - 1];
      const decided = last[0] > 24 || last[1] > 24 || (last[0] === 24 && last[1] === 24);
      if (end.status.over && !decided) stores[stores.length - 1] = end.status.score;
      text = toOgn({ start: state.start, moves: state.moves, stores, over: end.status.over, players: seatNames() });
    }
    $("game-text").value = text;
    $("game-text-box").open = true;
    download(text, `pion-${state.game}-${new Date().toISOString().slice(0, 10)}.${kind}`);
  } catch (e) {
    message(`The game was not saved: ${e.message}`, e.stderr);
  }
}

async function open(text) {
  try {
    await api.open(readGameText(text));
  } catch (e) {
    message(`The game was not opened: ${e.message}`);
  }
}

/** Wires the save and open buttons; `pageApi`: {rules, open(game)}. */
export function initFiles(pageApi) {
  api = pageApi;
  for (const [id, kind] of [["save-pgn", "pgn"], ["save-ogn", "ogn"], ["save-pgn-end", "pgn"], ["save-ogn-end", "ogn"]]) {
    $(id).addEventListener("click", () => save(kind));
  }
  $("open-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    e.target.value = "";
    if (!file) return;
    if (file.size > MAX_FILE) { message(`The game was not opened: ${file.name} is over 1 MiB, not a saved game`); return; }
    const text = await file.text();
    $("game-text").value = text;
    open(text);
  });
  $("open-text").addEventListener("click", () => open($("game-text").value));
}
