// The play and analysis page: the game on the board, whose turn it is and who plays it, engines
// thinking, clocks. The rules come from a pion process ("rules"); the players and the analyser
// are engine processes of their own ("p1", "p2", "an"). panel.js draws; this file decides.

import { parsePosition, moveParts, cellName } from "./game.js";
import { initViewer } from "./viewer.js";
import { $, message, note, clearMessages, optionControl } from "./ui.js";
import { state, turnAt, isEngine, keyAt, gameOver } from "./state.js";
import { render, renderThinking, renderClocks, drawPosition, drawLine, humanToMove } from "./panel.js";
import { Clock, parseTc } from "./clock.js";
import { capturedPits, animateSowing } from "./sow.js";
import { initFiles } from "./files.js";
import { wireControls } from "./controls.js";
import * as store from "./store.js";
import {
  bridge, rules, rulesEngine, playerEngine, analyser, startPlayer, saveSeats, preparePlayer,
  positionCommand, goParams, prepareAnalyser,
} from "./seats.js";

// Engines' moves are paced so that a fast game can be followed (`?pace=MS` to change it). A
// ply costs the page about eight messages, so 50 ms at least keeps two engines under the
// server's default limit of 200 messages a second.
const MIN_PLY_MS = Math.max(50, Number(new URLSearchParams(location.search).get("pace") ?? 200) || 0);
/** Milliseconds a seed for each sowing speed. */
const SOW_MS = { off: 0, fast: 60, normal: 140, slow: 300 };
/** pion accepts a draw when its own score is a proven draw or loss, or this many cp or worse. */
const DRAW_ACCEPT_CP = -50;

let epoch = 0;
let frame = 0;

const redraw = () => render(onBoardClick, show);

// ---------------------------------------------------------------- failures --------------------

function onFailure(engine, failure) {
  // A closed connection is said once, by the bridge's close handler.
  if (failure.message === "stopped" || failure.message === "restarted" || failure.closed) return;
  const label = { rules: "the rules engine", an: "the analysis engine", p1: "player 1", p2: "player 2" }[engine.id];
  message(`${failure.message} (${label})`, failure.stderr, "Restart", async () => {
    await restart(engine);
  });
  if (engine.id === "p1" || engine.id === "p2") setPaused(true);
}

async function restart(engine) {
  clearMessages();
  try {
    if (engine.id === "rules") {
      await engine.start(engine.name);
      await rules.setGame(state.game, state.variant);
    } else if (engine.id === "an") {
      await engine.start(engine.name);
    } else {
      const k = Number(engine.id[1]) - 1;
      await startPlayer(k, state.players[k].kind, redraw);
    }
    await refresh();
  } catch (e) {
    message(e.message, e.stderr);
  }
}

for (const id of ["rules", "p1", "p2", "an"]) {
  const engine = bridge.engine(id);
  engine.onFailure = onFailure;
  engine.onStray = (e, line) => {
    if (line.startsWith("error")) message(`${e.name}: ${line}`);
    if (line.startsWith("info string ")) note(`${e.name}: ${line.slice(12)}`);
  };
}

const quiet = (e, engine) => e.message === "stopped" || e.message === "restarted" || e === engine.failure;

// ---------------------------------------------------------------- the position ----------------

/** Shows the position after `ply` moves of the current line, then lets engines play or analyse. */
async function show(ply) {
  const my = ++epoch;
  const from = state.ply;
  state.target = ply;
  state.selected = null;
  state.hint = null;
  state.hintText = "";
  // No move is taken on the old position while the new one loads.
  state.busy = true;
  drawPosition(onBoardClick);
  await stopSearches();
  let view;
  try {
    view = await rules.load(state.start, state.moves.slice(0, ply));
  } catch (e) {
    if (my === epoch) {
      state.busy = false;
      drawPosition(onBoardClick);
      message(`The position cannot be shown: ${e.message}`, e.stderr);
    }
    return;
  }
  if (my !== epoch) return;
  const pos = parsePosition(state.game, view.position);
  state.positions.set(keyAt(ply), pos);
  let before = ply > 0 ? state.positions.get(keyAt(ply - 1)) : null;
  if (!before && ply > 0 && state.game === "awale") {
    // A jump: the position before is asked for, to mark what the move captured.
    try {
      before = parsePosition("awale", (await rules.load(state.start, state.moves.slice(0, ply - 1))).position);
      state.positions.set(keyAt(ply - 1), before);
    } catch { before = null; }
    if (my !== epoch) return;
  }
  const pit = ply > 0 ? moveParts("awale", state.moves[ply - 1])?.pit : undefined;
  state.captured = state.game === "awale" && before && pit !== undefined ? capturedPits(before, pit, pos) : [];
  // A move just played forward is sown seed by seed (not a jump, not a step back).
  if (state.game === "awale" && before && pit !== undefined && ply === from + 1 && SOW_MS[state.sow]) {
    const current = () => my === epoch;
    const shown = await animateSowing(before, pit, SOW_MS[state.sow], (p, k) => drawPosition(onBoardClick, { ...p, game: "awale" }, k), current);
    if (!shown) return;
  }
  state.busy = false;
  state.ply = ply;
  state.view = { ...view, pos };
  store.writeGame({ game: state.game, variant: state.variant, start: state.start, moves: state.moves, ply });
  syncClock();
  redraw();
  analyse(my);
  playTurn(my);
}

/** Shows again the position being shown (or loaded: a move just played counts). */
function refresh() {
  return show(state.target ?? state.ply);
}

/** Plays `move` at the current ply: later moves of the line are replaced. */
function play(move, charged = false) {
  if (state.clock && !charged && state.ply === state.moves.length) chargeMove(turnAt(state.ply));
  state.keepFields = null;
  state.moves = state.moves.slice(0, state.ply).concat(move);
  state.clockAt = state.clockAt.slice(0, state.ply + 1);
  if (state.clock) state.clockAt[state.ply + 1] = state.clock.snapshot();
  show(state.ply + 1);
}

async function stopSearches() {
  await Promise.all([playerEngine(0), playerEngine(1), analyser].map((e) => e.stop()));
}

// ---------------------------------------------------------------- clocks ------------------------

/** The mover's time stops and gets its increment. */
function chargeMove(side) {
  state.clock.moved(side);
}

/** The clock runs for the side to move at the end of the line, while the game is played. */
function syncClock() {
  const c = state.clock;
  if (!c) return;
  const live = state.view && state.ply === state.moves.length && !state.view.status.over;
  if (live && !state.outcome && !state.paused && !state.replay) c.run(state.view.status.turn);
  else c.halt();
  renderClocks();
}

function tick() {
  const c = state.clock;
  if (!c) return;
  renderClocks();
  if (c.side && c.remaining(c.side) <= 0) {
    const side = c.side;
    c.halt();
    c.left[side - 1] = 0;
    finish({ winner: 3 - side, loser: side, reason: "time" });
  }
}

/** Ends the game at the board (resignation, a flag, an agreed draw): engines stop. */
function finish(outcome) {
  state.outcome = outcome;
  epoch++;
  stopSearches();
  if (state.clock) state.clock.halt();
  state.busy = false;
  redraw();
}

// ---------------------------------------------------------------- engines -----------------------

/** If an engine is to move at the end of the line, it plays. */
async function playTurn(my) {
  const v = state.view;
  if (gameOver() || state.ply < state.moves.length || state.replay) return;
  const k = v.status.turn - 1;
  if (!isEngine(k + 1)) return;
  if (state.paused && !state.step) return;
  state.step = false;
  const began = performance.now();
  try {
    const engine = await preparePlayer(k);
    if (my !== epoch) return;
    const { params, deadline } = goParams(k);
    const key = keyAt(state.ply);
    engine.send(positionCommand(state.moves.slice(0, state.ply)));
    const move = await engine.go(params, (info) => think(`${engine.name} · player ${k + 1}`, info, k + 1, key, k + 1), deadline);
    if (my !== epoch) return;
    if (!v.legal.includes(move)) {
      message(`${engine.name} (player ${k + 1}) played '${move}', which is not a legal move here; the game is paused`);
      setPaused(true);
      return;
    }
    if (state.clock) chargeMove(k + 1);
    const wait = MIN_PLY_MS - (performance.now() - began);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (my === epoch) play(move, true);
  } catch (e) {
    // An engine that died was reported by onFailure already; a hang is reported here.
    if (my === epoch && !quiet(e, playerEngine(k))) {
      message(e.message, e.stderr, "Restart", () => restart(playerEngine(k)));
      setPaused(true);
    }
  }
}

/** With analysis on, the analyser searches the position on the board until it changes. */
async function analyse(my) {
  if (!state.analysis || !state.view || state.view.status.over) return;
  try {
    await prepareAnalyser();
    if (my !== epoch) return;
    const key = keyAt(state.ply);
    analyser.send(positionCommand(state.moves.slice(0, state.ply)));
    await analyser.go("infinite", (info) => think(`${analyser.name} · analysis`, info, state.view.status.turn, key));
  } catch (e) {
    if (my === epoch && !quiet(e, analyser)) message(e.message, e.stderr, "Restart", () => restart(analyser));
  }
}

/** A move in words: which tower goes onto which, or which pit is sown. */
function inWords(move) {
  const pos = state.view.pos;
  if (state.game === "avalam") {
    const p = moveParts("avalam", move);
    if (!p) return move;
    const h = (i) => (pos.cells[i] ? pos.cells[i].h : 0);
    return `${move}: the tower of ${h(p.from)} on ${cellName(p.from)} onto the tower of ${h(p.to)} on ${cellName(p.to)}`;
  }
  const p = moveParts("awale", move);
  return p ? `${move}: sow pit ${move} (${pos.pits[p.pit]} seeds)` : move;
}

/** Shows the best move, in words and alone on the board: the analysis line's first move, or a search. */
async function hint() {
  if (!state.view || gameOver()) return;
  const key = keyAt(state.ply);
  const t = state.thinking;
  let move = t && t.key === key && t.info.pv && t.info.pv.length ? t.info.pv[0] : null;
  if (!move) {
    const my = epoch;
    try {
      await prepareAnalyser();
      analyser.send(positionCommand(state.moves.slice(0, state.ply)));
      move = await analyser.go("movetime 1000", (info) => think(`${analyser.name} · hint`, info, state.view.status.turn, key), 6000);
    } catch (e) {
      if (e.message !== "stopped") message(e.message, e.stderr);
      return;
    }
    if (my !== epoch) return;
  }
  state.hint = move;
  state.hintText = `Hint: ${inWords(move)}`;
  drawLine();
  renderThinking();
}

/** Keeps the latest info line; the panel and the board are redrawn once a frame at most. */
function think(label, info, side, key, seat = null) {
  const t = state.thinking;
  const prev = t && t.label === label && t.key === key ? t.info : {};
  state.thinking = { label, side, key, info: { ...prev, ...info } };
  if (seat) state.seatThought[seat] = { side, info: state.thinking.info };
  if (!frame) frame = requestAnimationFrame(() => { frame = 0; renderThinking(); drawLine(); });
}

// ---------------------------------------------------------------- the player's actions ---------

function onBoardClick(target) {
  const v = state.view;
  if (!humanToMove()) return;
  if (state.game === "awale") {
    const move = v.legal.find((m) => moveParts("awale", m).pit === target);
    if (move) play(move);
    return;
  }
  if (state.selected !== null) {
    const move = v.legal.find((m) => { const p = moveParts("avalam", m); return p.from === state.selected && p.to === target; });
    if (move) { state.selected = null; play(move); return; }
  }
  const movable = v.legal.some((m) => moveParts("avalam", m).from === target);
  state.selected = movable && state.selected !== target ? target : null;
  drawPosition(onBoardClick);
}

function setPaused(paused) {
  state.paused = paused;
  $("pause").textContent = paused ? "Resume" : "Pause";
  syncClock();
}

/** Takes back a move; against an engine, its reply and your move, so that it is your turn again. */
function undo() {
  if (state.ply === 0) return;
  let to = state.ply - 1;
  const mover = turnAt(to);
  if (isEngine(mover) && !isEngine(3 - mover) && to > 0) to -= 1;
  state.moves = state.moves.slice(0, state.ply);
  state.outcome = null;
  if (state.clock && state.clockAt[to]) state.clock.restore(state.clockAt[to]);
  // Engines against each other stop there; a person to move needs no pause.
  if (isEngine(turnAt(to))) setPaused(true);
  show(to);
}

/** The one person at the board resigns (with two, the side to move). */
function resign() {
  if (gameOver() || !state.view) return;
  const humans = [1, 2].filter((k) => !isEngine(k));
  if (!humans.length) return;
  const loser = humans.length === 1 ? humans[0] : state.view.status.turn;
  finish({ winner: 3 - loser, loser, reason: "resignation" });
}

/** A draw offered: agreed between two people; an engine accepts when its own score says so. */
async function offerDraw() {
  if (gameOver() || !state.view) return;
  const engines = [1, 2].filter(isEngine);
  if (engines.length === 0) { finish({ winner: 0, reason: "agreement" }); return; }
  if (engines.length === 2) return;
  const k = engines[0];
  if (state.view.status.turn === k || state.ply < state.moves.length) {
    message(`Offer the draw on your own turn, at the end of the game: ${state.players[k - 1].kind} is thinking or the board shows an earlier move.`);
    return;
  }
  const my = epoch;
  let score = null;
  try {
    const engine = await preparePlayer(k - 1);
    // Its judgement at its strongest (a weak level searches without a score); the seat's own
    // options are sent again before its next move.
    const level = engine.options.find((o) => o.name === "Level");
    if (level && level.vars.includes("max")) { await engine.sync(["setoption name Level value max"]); engine.prepared = null; }
    engine.send(positionCommand(state.moves.slice(0, state.ply)));
    await engine.go("movetime 500", (info) => { if (info.score) score = info.score; }, 5500);
  } catch (e) {
    if (!quiet(e, playerEngine(k - 1))) message(e.message, e.stderr);
    return;
  }
  if (my !== epoch) return;
  // The search was of your turn: its score is yours, the engine's is the opposite.
  const own = !score ? null : score.kind === "win" ? "loss" : score.kind === "loss" ? "win" : score.kind === "draw" ? "draw" : -score.value;
  const accepts = own === "loss" || own === "draw" || (typeof own === "number" && own <= DRAW_ACCEPT_CP);
  if (accepts) finish({ winner: 0, reason: "agreement" });
  else message(`${state.players[k - 1].kind} declines the draw: it plays on${typeof own === "number" ? ` (its score ${own > 0 ? "+" : ""}${(own / 100).toFixed(2)})` : ""}.`);
}

/** The same players, colours swapped, a new game. */
async function rematch() {
  state.players.reverse();
  const times = [$("time-2").value, $("time-1").value];
  for (const k of [0, 1]) { $(`kind-${k + 1}`).value = state.players[k].kind; $(`time-${k + 1}`).value = times[k]; }
  saveSeats();
  try {
    await Promise.all([0, 1].map((k) => startPlayer(k, state.players[k].kind, redraw)));
  } catch (e) { message(e.message, e.stderr); }
  await newGame();
}

// ---------------------------------------------------------------- setup -------------------------

/** One sentence for a refused set-up: the engine's words without the command's prefix. */
function cleanError(text) {
  let t = text.replace(/^(error\s+)?position:\s*/, "");
  t = t.replace(/^move (\d+) \((\S+)\): illegal move \S+: /, "move $1 ($2) is illegal: ");
  return /[.)]$/.test(t) ? t : `${t}.`;
}

/**
 * Starts a game of the selected game and variant from `start` with `moves` played. On a refusal
 * the game on the board stays, and so does the text that was typed.
 */
async function newGame(start = "startpos", moves = [], what = null) {
  clearMessages();
  const game = $("game").value;
  const variant = $("variant").value || "standard";
  epoch++;
  await stopSearches();
  try {
    await rules.setGame(game, variant);
    await rules.load(start, moves);
  } catch (e) {
    message(what ? `${what}: ${cleanError(e.message)}` : e.message, e.stderr);
    state.keepFields = { position: $("position").value, moves: $("move-text").value };
    $("game").value = state.game;
    fillVariants();
    $("variant").value = state.variant;
    await rules.setGame(state.game, state.variant).catch(() => {});
    if (state.view) await refresh();
    return false;
  }
  state.replay = null;
  $("replay-banner").hidden = true;
  state.keepFields = null;
  state.game = game;
  state.variant = variant;
  state.start = start;
  state.moves = moves;
  state.outcome = null;
  state.thinking = null;
  state.seatThought = { 1: null, 2: null };
  state.positions = new Map();
  state.ply = moves.length;
  // Playing the second player against an engine, your own row is at the bottom.
  state.flip = isEngine(1) && !isEngine(2);
  state.clock = state.tc ? new Clock(state.tc) : null;
  state.clockAt = [];
  if (state.clock) state.clockAt[moves.length] = state.clock.snapshot();
  await show(moves.length);
  return true;
}

function fillVariants() {
  const select = $("variant");
  select.replaceChildren(...(state.variants[$("game").value] || ["standard"]).map((v) => new Option(v, v)));
}

/** Whether a change that ends the game on the board may go ahead (asked mid-game only). */
function mayEndGame(what) {
  if (!state.moves.length || gameOver() || state.replay) return true;
  return window.confirm(`${what}? The game on the board ends (save it first if you want it).`);
}

async function onHello(hello) {
  $("connection").textContent = "connected";
  state.engines = hello.engines;
  for (const k of [1, 2]) {
    $(`kind-${k}`).replaceChildren(new Option("Human", "human"), ...hello.engines.map((n) => new Option(`Engine: ${n}`, n)));
  }
  $("analysis-engine").replaceChildren(...hello.engines.map((n) => new Option(n, n)));
  try {
    await rulesEngine.start(hello.rules);
    const variant = rulesEngine.options.find((o) => o.name === "Variant");
    state.games = rulesEngine.games;
    state.variants = await rules.variants(state.games, variant ? variant.vars : ["standard"]);
  } catch (e) {
    message(`The rules engine cannot start: ${e.message}`, e.stderr, "Reload", () => location.reload());
    return;
  }
  $("game").replaceChildren(...state.games.map((g) => new Option(g[0].toUpperCase() + g.slice(1), g)));
  fillVariants();
  // The seats as they were before a reload; at first, you against the first engine.
  const prefs = store.readPrefs();
  const seats = prefs.seats || [{ kind: "human", options: {} }, { kind: hello.engines[0], options: {} }];
  seats.forEach((s, k) => {
    if (s.kind !== "human" && !hello.engines.includes(s.kind)) return;
    state.players[k] = { kind: s.kind, options: s.options || {}, time: s.time || 1000 };
    $(`kind-${k + 1}`).value = s.kind;
    $(`time-${k + 1}`).value = state.players[k].time;
  });
  try { state.tc = parseTc(prefs.tc || ""); } catch { state.tc = null; }
  $("tc").value = prefs.tc || "";
  state.sow = prefs.sow in SOW_MS ? prefs.sow : "normal";
  $("sow").value = state.sow;
  for (const k of [0, 1]) {
    try { await startPlayer(k, state.players[k].kind, redraw); } catch (e) { message(e.message, e.stderr); }
  }
  // The game before the reload, or the one of a shared link.
  const saved = store.readGame();
  let loaded = false;
  if (saved && state.games.includes(saved.game)) {
    $("game").value = saved.game;
    fillVariants();
    $("variant").value = saved.variant;
    loaded = await newGame(saved.start, saved.moves, "The saved game was not restored");
    if (loaded && saved.ply < saved.moves.length) {
      state.clock && state.clock.halt();
      await show(saved.ply);
    }
  }
  if (!loaded) await newGame();
  initViewer(hello.records, replay);
}

/** Shows a recorded game of the match viewer on the board, at its start. */
async function replay(record) {
  document.querySelector('[data-tab="play"]').click();
  $("game").value = record.rules;
  fillVariants();
  $("variant").value = record.variant;
  if (!await newGame(record.start, [...record.opening, ...record.moves])) return;
  state.replay = record;
  state.clock = null;
  const banner = $("replay-banner");
  banner.hidden = false;
  const detail = record.detail ? ` — ${record.detail}` : "";
  banner.textContent = `Game ${record.game + 1}: ${record.first} (P1) vs ${record.second} (P2) · ${record.result} · ${record.reason}${detail}`;
  await show(record.opening.length);
}

/** What the saved-game buttons need of this page. */
const filesApi = {
  rules,
  open: async (g) => {
    if (!state.games.includes(g.game)) throw new Error(`this page plays ${state.games.join(" and ")}, not '${g.game}'`);
    if (!mayEndGame("Open this game")) return;
    $("game").value = g.game;
    fillVariants();
    const variants = state.variants[g.game] || ["standard"];
    if (g.variant && variants.includes(g.variant)) $("variant").value = g.variant;
    await newGame(g.start, g.moves, "The game was not opened");
  },
};

wireControls({
  mayEndGame, fillVariants, newGame, rematch, refresh, redraw, show, undo, resign, offerDraw,
  setPaused, hint, step: () => playTurn(epoch),
});
initFiles(filesApi);
setInterval(tick, 100);
bridge.onHello = onHello;
bridge.onError = (text) => message(text);
bridge.onClose = () => {
  $("connection").textContent = "disconnected";
  $("connection").classList.add("down");
  message("The connection to pion-web is closed (the server stopped, or the page was idle too long): its engines are gone.", [], "Reload", () => location.reload());
};
bridge.connect();
