// The play and analysis page: the game on the board, whose turn it is and who plays it, engines
// thinking, the move list. The rules come from a pion process ("rules"); the players and the
// analyser are engine processes of their own ("p1", "p2", "an").

import { Bridge } from "./engine.js";
import { Rules, parsePosition, moveParts } from "./game.js";
import { drawBoard, drawOverlay } from "./board.js";
import { initViewer } from "./viewer.js";
import { $, message, clearMessages, scoreText, formatCount, optionControl } from "./ui.js";

// Engines' moves are paced so that a fast game can be followed (`?pace=MS` to change it). A
// ply costs the page about eight messages, so 50 ms at least keeps two engines under the
// server's default limit of 200 messages a second.
const MIN_PLY_MS = Math.max(50, Number(new URLSearchParams(location.search).get("pace") ?? 200) || 0);

const state = {
  games: [], variants: {}, engines: [],
  game: "avalam", variant: "standard", start: "startpos", moves: [], ply: 0,
  view: null, selected: null, paused: false, step: false,
  analysis: false, hint: null, replay: null,
  players: [{ kind: "human", options: {} }, { kind: "human", options: {} }],
};
let epoch = 0;
let thinking = null; // {label, info, side}
let frame = 0;

const bridge = new Bridge(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
const rulesEngine = bridge.engine("rules");
const rules = new Rules(rulesEngine);
const playerEngine = (k) => bridge.engine(`p${k + 1}`);
const analyser = bridge.engine("an");

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
      await startPlayer(k, state.players[k].kind);
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
  };
}

// ---------------------------------------------------------------- the position ----------------

/** Shows the position after `ply` moves of the current line, then lets engines play or analyse. */
async function show(ply) {
  const my = ++epoch;
  state.target = ply;
  state.selected = null;
  state.hint = null;
  // No move is taken on the old position while the new one loads.
  state.busy = true;
  drawPosition();
  await stopSearches();
  let view;
  try {
    view = await rules.load(state.start, state.moves.slice(0, ply));
  } catch (e) {
    if (my === epoch) {
      state.busy = false;
      drawPosition();
      message(`The position cannot be shown: ${e.message}`, e.stderr);
    }
    return;
  }
  if (my !== epoch) return;
  state.busy = false;
  state.ply = ply;
  state.view = { ...view, pos: parsePosition(state.game, view.position) };
  thinking = null;
  render();
  analyse(my);
  playTurn(my);
}

/** Shows again the position being shown (or loaded: a move just played counts). */
function refresh() {
  return show(state.target ?? state.ply);
}

/** Plays `move` at the current ply: later moves of the line are replaced. */
function play(move) {
  state.moves = state.moves.slice(0, state.ply).concat(move);
  show(state.ply + 1);
}

async function stopSearches() {
  await Promise.all([playerEngine(0), playerEngine(1), analyser].map((e) => e.stop()));
}

function humanToMove() {
  const v = state.view;
  if (!v || v.status.over || state.busy) return false;
  return state.ply < state.moves.length || state.replay || state.players[v.status.turn - 1].kind === "human";
}

// ---------------------------------------------------------------- engines -----------------------

/** Starts the engine `name` for seat `k` and builds its option controls from its `option` lines. */
async function startPlayer(k, name) {
  const engine = playerEngine(k);
  const box = $(`options-${k + 1}`);
  box.replaceChildren();
  if (name === "human") { engine.kill(); return; }
  await engine.start(name);
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
    });
    (option.name === "Level" ? box : more).appendChild(control);
  }
  if (more.children.length > 1) box.appendChild(more);
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
async function preparePlayer(k) {
  const engine = playerEngine(k);
  const key = JSON.stringify([state.game, state.variant, state.players[k].options]);
  // A start under way (the seat was just changed) is waited for, not started again.
  if (engine.starting) await engine.starting.catch(() => {});
  if (engine.prepared === key && engine.alive) return engine;
  if (!engine.alive) await startPlayer(k, state.players[k].kind);
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

function positionCommand(moves) {
  const head = state.start === "startpos" ? "position startpos" : `position ${state.start}`;
  return moves.length ? `${head} moves ${moves.join(" ")}` : head;
}

/** If an engine is to move at the end of the line, it plays. */
async function playTurn(my) {
  const v = state.view;
  if (v.status.over || state.ply < state.moves.length || state.replay) return;
  const k = v.status.turn - 1;
  const player = state.players[k];
  if (player.kind === "human") return;
  if (state.paused && !state.step) return;
  state.step = false;
  const began = performance.now();
  try {
    const engine = await preparePlayer(k);
    if (my !== epoch) return;
    const ms = Math.max(10, Number($(`time-${k + 1}`).value) || 1000);
    engine.send(positionCommand(state.moves.slice(0, state.ply)));
    const move = await engine.go(`movetime ${ms}`, (info) => think(`${engine.name} · player ${k + 1}`, info, k + 1), ms + 5000);
    if (my !== epoch) return;
    if (!v.legal.includes(move)) {
      message(`${engine.name} (player ${k + 1}) played '${move}', which is not a legal move here; the game is paused`);
      setPaused(true);
      return;
    }
    const wait = MIN_PLY_MS - (performance.now() - began);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (my === epoch) play(move);
  } catch (e) {
    // An engine that died was reported by onFailure already; a hang is reported here.
    if (my === epoch && e.message !== "stopped" && e.message !== "restarted" && e !== playerEngine(k).failure) {
      message(e.message, e.stderr, "Restart", () => restart(playerEngine(k)));
      setPaused(true);
    }
  }
}

/** With analysis on, the analyser searches the position on the board until it changes. */
async function analyse(my) {
  if (!state.analysis || !state.view || state.view.status.over) return;
  try {
    if (!analyser.alive || analyser.name !== $("analysis-engine").value) {
      await analyser.start($("analysis-engine").value);
    }
    const errors = await analyser.sync([`newgame ${state.game}`, ...variantLines(analyser)]);
    for (const error of errors) message(`${analyser.name} (analysis): ${error}`);
    if (my !== epoch) return;
    analyser.send(positionCommand(state.moves.slice(0, state.ply)));
    await analyser.go("infinite", (info) => think(`${analyser.name} · analysis`, info, state.view.status.turn));
  } catch (e) {
    if (my === epoch && e.message !== "stopped" && e.message !== "restarted" && e !== analyser.failure) message(e.message, e.stderr, "Restart", () => restart(analyser));
  }
}

/** Shows the best move: the analysis line's first move, or a short search of its own. */
async function hint() {
  if (!state.view || state.view.status.over) return;
  if (thinking && thinking.info.pv && thinking.info.pv.length) {
    state.hint = thinking.info.pv[0];
    drawLine();
    return;
  }
  const my = epoch;
  try {
    if (!analyser.alive) await analyser.start($("analysis-engine").value);
    await analyser.sync([`newgame ${state.game}`, ...variantLines(analyser)]);
    analyser.send(positionCommand(state.moves.slice(0, state.ply)));
    const move = await analyser.go("movetime 1000", (info) => think(`${analyser.name} · hint`, info, state.view.status.turn), 6000);
    if (my === epoch) { state.hint = move; drawLine(); }
  } catch (e) {
    if (e.message !== "stopped") message(e.message, e.stderr);
  }
}

/** Keeps the latest info line; the panel and the board are redrawn once a frame at most. */
function think(label, info, side) {
  const prev = thinking && thinking.label === label ? thinking.info : {};
  thinking = { label, side, info: { ...prev, ...info } };
  if (!frame) frame = requestAnimationFrame(() => { frame = 0; renderThinking(); drawLine(); });
}

// ---------------------------------------------------------------- drawing -----------------------

function renderThinking() {
  const t = thinking;
  $("eval").textContent = t && t.info.score ? scoreText(t.info.score, t.side) : "–";
  $("eval").className = `eval ${t && t.info.score ? t.info.score.kind : ""}`;
  const i = t ? t.info : {};
  $("stats").textContent = t ? `depth ${i.depth ?? "–"}${i.seldepth ? "/" + i.seldepth : ""} · ${formatCount(i.nodes)} nodes · ${formatCount(i.nps)} nps` : "";
  $("pv").textContent = t && i.pv ? i.pv.join(" ") : "";
  $("think-source").textContent = t ? t.label : (state.analysis ? "" : "Turn on Analyse, or ask for a hint.");
}

function boardView() {
  const v = state.view;
  return {
    pos: v.pos,
    legal: humanToMove() ? v.legal : [],
    interactive: humanToMove(),
    selected: state.selected,
    lastMove: state.ply > 0 ? state.moves[state.ply - 1] : null,
    pv: thinking && thinking.info.pv ? thinking.info.pv : [],
    hint: state.hint,
  };
}

function drawPosition() {
  if (state.view) drawBoard($("board"), boardView(), onBoardClick);
}

function drawLine() {
  if (state.view) drawOverlay($("board"), boardView());
}

function render() {
  const v = state.view;
  drawPosition();
  renderThinking();
  const name = (k) => (state.players[k].kind === "human" ? "Human" : state.players[k].kind);
  const colours = state.game === "avalam" ? ["yellow", "red"] : ["A–F", "a–f"];
  for (const k of [0, 1]) {
    $(`who-${k + 1}`).textContent = `Player ${k + 1} (${colours[k]}) · ${name(k)}`;
    $(`bar-${k + 1}`).classList.toggle("to-move", !v.status.over && v.status.turn === k + 1);
  }
  $("turn").textContent = v.status.over ? "Game over" : `Player ${v.status.turn} to move`;
  $("score").textContent = `Score ${v.status.score[0]} – ${v.status.score[1]}`;
  const result = $("result");
  result.hidden = !v.status.over;
  if (v.status.over) {
    const [a, b] = v.status.score;
    const reason = { nomoves: "no move left", captures: "more than half the seeds captured", repetition: "a position repeated" }[v.status.reason] || v.status.reason;
    result.textContent = v.status.draw ? `Draw ${a} – ${b}` : `Player ${v.status.winner} wins ${a} – ${b}, by ${Math.abs(a - b)}`;
    result.title = reason;
    result.dataset.reason = reason;
  }
  // A field being edited is left alone: an engine's move must not undo the typing.
  if (document.activeElement !== $("position")) $("position").value = v.position;
  if (document.activeElement !== $("move-text")) $("move-text").value = state.moves.join(" ");
  $("ply").textContent = `ply ${state.ply} of ${state.moves.length}`;
  renderMoves();
  $("pause").textContent = state.paused ? "Resume" : "Pause";
}

function renderMoves() {
  const list = $("moves");
  list.replaceChildren();
  for (let i = 0; i < state.moves.length; i += 2) {
    const li = document.createElement("li");
    const number = document.createElement("span");
    number.className = "number";
    number.textContent = `${i / 2 + 1}.`;
    li.appendChild(number);
    for (const j of [i, i + 1]) {
      if (j >= state.moves.length) break;
      const b = document.createElement("button");
      b.className = `move${j + 1 === state.ply ? " current" : ""}`;
      b.textContent = state.moves[j];
      b.dataset.ply = j + 1;
      b.addEventListener("click", () => show(j + 1));
      li.appendChild(b);
    }
    list.appendChild(li);
  }
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

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
  drawPosition();
}

function setPaused(paused) {
  state.paused = paused;
  $("pause").textContent = paused ? "Resume" : "Pause";
}

// ---------------------------------------------------------------- setup -------------------------

async function newGame(start = "startpos", moves = []) {
  state.replay = null;
  $("replay-banner").hidden = true;
  clearMessages();
  state.game = $("game").value;
  state.variant = $("variant").value || "standard";
  epoch++;
  await stopSearches();
  try {
    await rules.setGame(state.game, state.variant);
  } catch (e) {
    message(e.message, e.stderr);
    return;
  }
  try {
    await rules.load(start, moves);
  } catch (e) {
    // The engine's own words on what is wrong; the game on the board stays as it was.
    message(`Cannot set up this position: ${e.message}`, e.stderr);
    await refresh();
    return;
  }
  state.start = start;
  state.moves = moves;
  await show(moves.length);
}

function fillVariants() {
  const select = $("variant");
  select.replaceChildren(...(state.variants[$("game").value] || ["standard"]).map((v) => new Option(v, v)));
}

async function onHello(hello) {
  $("connection").textContent = "connected";
  state.engines = hello.engines;
  for (const k of [1, 2]) {
    $(`kind-${k}`).replaceChildren(new Option("Human", "human"), ...hello.engines.map((n) => new Option(`Engine: ${n}`, n)));
  }
  $("analysis-engine").replaceChildren(...hello.engines.map((n) => new Option(n, n)));
  $("kind-2").value = hello.engines[0];
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
  state.players[1].kind = $("kind-2").value;
  try { await startPlayer(1, state.players[1].kind); } catch (e) { message(e.message, e.stderr); }
  setLevel(1, "basic");
  await newGame();
  initViewer(hello.records, replay);
}

function setLevel(k, level) {
  const select = document.querySelector(`#options-${k + 1} select[data-option="Level"]`);
  if (select && [...select.options].some((o) => o.value === level)) {
    select.value = level;
    select.dispatchEvent(new Event("change"));
  }
}

/** Shows a recorded game of the match viewer on the board, at its start. */
async function replay(record) {
  document.querySelector('[data-tab="play"]').click();
  $("game").value = record.rules;
  fillVariants();
  $("variant").value = record.variant;
  await newGame(record.start, [...record.opening, ...record.moves]);
  state.replay = record;
  const banner = $("replay-banner");
  banner.hidden = false;
  const detail = record.detail ? ` — ${record.detail}` : "";
  banner.textContent = `Game ${record.game + 1}: ${record.first} (P1) vs ${record.second} (P2) · ${record.result} · ${record.reason}${detail}`;
  await show(record.opening.length);
}

function wire() {
  document.querySelectorAll(".tab").forEach((tab) => tab.addEventListener("click", () => {
    document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t === tab));
    $("play").hidden = tab.dataset.tab !== "play";
    $("viewer").hidden = tab.dataset.tab !== "viewer";
  }));
  $("game").addEventListener("change", () => { fillVariants(); newGame(); });
  $("variant").addEventListener("change", () => newGame());
  $("new-game").addEventListener("click", () => newGame());
  for (const k of [0, 1]) {
    $(`kind-${k + 1}`).addEventListener("change", async (e) => {
      state.players[k].kind = e.target.value;
      state.players[k].options = {};
      try { await startPlayer(k, e.target.value); } catch (err) { message(err.message, err.stderr); }
      refresh();
    });
  }
  $("first").addEventListener("click", () => show(0));
  $("back").addEventListener("click", () => state.ply > 0 && show(state.ply - 1));
  $("forward").addEventListener("click", () => state.ply < state.moves.length && show(state.ply + 1));
  $("last").addEventListener("click", () => show(state.moves.length));
  $("undo").addEventListener("click", () => {
    if (state.ply === 0) return;
    state.moves = state.moves.slice(0, state.ply);
    setPaused(true);
    show(state.ply - 1);
  });
  $("pause").addEventListener("click", () => { setPaused(!state.paused); if (!state.paused) refresh(); });
  $("step").addEventListener("click", () => { setPaused(true); state.step = true; playTurn(epoch); });
  $("analysis").addEventListener("change", (e) => {
    state.analysis = e.target.checked;
    if (!state.analysis) { analyser.stop(); thinking = null; render(); } else refresh();
  });
  $("analysis-engine").addEventListener("change", () => state.analysis && refresh());
  $("hint").addEventListener("click", hint);
  $("copy-position").addEventListener("click", () => copy("position"));
  $("copy-moves").addEventListener("click", () => copy("move-text"));
  $("set-position").addEventListener("click", () => {
    const text = $("position").value.trim().replace(/^position\s+/, "");
    newGame(text === "" || text === "startpos" ? "startpos" : text, []);
  });
  $("set-moves").addEventListener("click", () => {
    const moves = $("move-text").value.trim().split(/\s+/).filter(Boolean);
    newGame(state.start, moves);
  });
  document.addEventListener("keydown", (e) => {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName)) return;
    const to = { ArrowLeft: state.ply - 1, ArrowRight: state.ply + 1, Home: 0, End: state.moves.length }[e.key];
    if (to === undefined || to < 0 || to > state.moves.length) return;
    e.preventDefault();
    show(to);
  });
}

async function copy(id) {
  const input = $(id);
  try { await navigator.clipboard.writeText(input.value); } catch { input.select(); document.execCommand("copy"); }
}

wire();
bridge.onHello = onHello;
bridge.onError = (text) => message(text);
bridge.onClose = () => {
  $("connection").textContent = "disconnected";
  $("connection").classList.add("down");
  message("The connection to pion-web is closed (the server stopped, or the page was idle too long): its engines are gone.", [], "Reload", () => location.reload());
};
bridge.connect();
