// The engines behind the bridge: the rules process, a process per engine seat (started with its
// option controls, prepared for each game, sent its clock or its time a move) and the analyser.

import { Bridge } from "./engine.js";
import { Rules } from "./game.js";
import { $, message, optionControl } from "./ui.js";
import { state, DEFAULT_LEVEL } from "./state.js";
import * as store from "./store.js";

/** The WebSocket to pion-web. */
export const bridge = new Bridge(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
/** The rules process, and the rules asked of it. */
export const rulesEngine = bridge.engine("rules");
export const rules = new Rules(rulesEngine);
/** Seat `k`'s (0 or 1) engine. */
export const playerEngine = (k) => bridge.engine(`p${k + 1}`);
/** The analysis engine. */
export const analyser = bridge.engine("an");

/** Starts the engine `name` for seat `k` and builds its option controls from its `option` lines. */
export async function startPlayer(k, name, onChange) {
  const engine = playerEngine(k);
  const box = $(`options-${k + 1}`);
  box.replaceChildren();
  $(`time-${k + 1}`).closest("label").hidden = name === "human" || !!state.tc;
  if (name === "human") { engine.kill(); return; }
  await engine.start(name);
  // A new engine seat plays at the default level, as the default opponent does.
  const level = engine.options.find((o) => o.name === "Level");
  if (level && !("Level" in state.players[k].options) && level.vars.includes(DEFAULT_LEVEL)) {
    state.players[k].options.Level = DEFAULT_LEVEL;
  }
  // The level in sight, the rest of the engine's own options folded away.
  const more = document.createElement("details");
  const summary = document.createElement("summary");
  summary.textContent = "more options";
  more.appendChild(summary);
  for (const option of engine.options) {
    if (["Game", "Variant"].includes(option.name) || option.type === "button") continue;
    const value = state.players[k].options[option.name] ?? option.def;
    const control = optionControl(option, value, (v) => {
      state.players[k].options[option.name] = v;
      engine.prepared = null;
      saveSeats();
      onChange();
    });
    (option.name === "Level" ? box : more).appendChild(control);
  }
  if (more.children.length > 1) box.appendChild(more);
}

export function saveSeats() {
  store.writePrefs({ seats: state.players.map((p) => ({ kind: p.kind, options: p.options, time: p.time })) });
}

/**
 * The Variant line for `engine`: `standard` included when it has the option, since pion keeps
 * a variant of the other game for later (protocol.md) and only `standard` forgets it.
 */
function variantLines(engine) {
  const has = engine.options.some((o) => o.name === "Variant");
  return state.variant !== "standard" || has ? [`setoption name Variant value ${state.variant}`] : [];
}

/** Gets seat `k`'s engine ready for this game: newgame, the variant and the chosen options. */
export async function preparePlayer(k) {
  const engine = playerEngine(k);
  const key = JSON.stringify([state.game, state.variant, state.players[k].options]);
  // A start under way (the seat was just changed) is waited for, not started again.
  if (engine.starting) await engine.starting.catch(() => {});
  if (engine.prepared === key && engine.alive) return engine;
  if (!engine.alive) await startPlayer(k, state.players[k].kind, () => {});
  if (engine.games.length && !engine.games.includes(state.game)) {
    throw new Error(`${engine.name} (player ${k + 1}) does not play ${state.game} (its game lines: ${engine.games.join(", ")})`);
  }
  const lines = [`newgame ${state.game}`];
  lines.push(...variantLines(engine));
  for (const [name, value] of Object.entries(state.players[k].options)) lines.push(`setoption name ${name} value ${value}`);
  const errors = await engine.sync(lines);
  for (const error of errors) message(`${engine.name} (player ${k + 1}): ${error}`);
  engine.prepared = key;
  return engine;
}

export function positionCommand(moves) {
  const head = state.start === "startpos" ? "position startpos" : `position ${state.start}`;
  return moves.length ? `${head} moves ${moves.join(" ")}` : head;
}

/** The `go` of seat `k`: the clocks when the game has them, else its time per move. */
export function goParams(k) {
  if (!state.clock) {
    const ms = Math.max(10, Number($(`time-${k + 1}`).value) || 1000);
    return { params: `movetime ${ms}`, deadline: ms + 5000 };
  }
  const [a, b] = state.clock.snapshot().map((t) => Math.max(0, Math.round(t)));
  const inc = state.clock.inc;
  return { params: `p1time ${a} p2time ${b} p1inc ${inc} p2inc ${inc}`, deadline: Math.max(a, b) + 5000 };
}

/** Gets the analysis engine chosen ready for this game. */
export async function prepareAnalyser() {
  if (!analyser.alive || analyser.name !== $("analysis-engine").value) await analyser.start($("analysis-engine").value);
  const errors = await analyser.sync([`newgame ${state.game}`, ...variantLines(analyser)]);
  for (const error of errors) message(`${analyser.name} (analysis): ${error}`);
}

