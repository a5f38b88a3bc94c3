// Drawing the state: the board, the player bars (names, clocks, each engine's last thought), the
// score said plainly, the result and what to do next, the analysis panel with its bar, the moves.

import { state, isEngine, pointOfView, keyAt, gameOver } from "./state.js";
import { drawBoard, drawOverlay } from "./board.js";
import { $, scoreText, scoreShare, formatCount } from "./ui.js";
import { clockText } from "./clock.js";

const REASONS = { nomoves: "no move left", captures: "more than half the seeds captured", repetition: "a position repeated" };

/** Whether a person may move on the board now. */
export function humanToMove() {
  const v = state.view;
  if (!v || gameOver() || state.busy || state.replay) return false;
  return state.ply < state.moves.length || !isEngine(v.status.turn);
}

/** The engine's line drawn on the board: only the one searched on the position shown. */
function boardLine() {
  const t = state.thinking;
  return t && t.key === keyAt(state.ply) && t.info.pv ? t.info.pv : [];
}

function boardView(pos = null, sowing = null) {
  const v = state.view;
  return {
    pos: pos || v.pos,
    legal: humanToMove() ? v.legal : [],
    allLegal: v.legal,
    playing: !v.status.over,
    interactive: humanToMove() && !pos,
    selected: state.selected,
    lastMove: state.ply > 0 ? state.moves[state.ply - 1] : null,
    pv: pos ? [] : boardLine(),
    hint: pos ? null : state.hint,
    flip: state.flip,
    captured: pos ? [] : state.captured,
    sowing,
  };
}

/** Draws the board of the state; `pos` and `sowing` draw a step of a sowing instead. */
export function drawPosition(onClick, pos = null, sowing = null) {
  if (state.view) drawBoard($("board"), boardView(pos, sowing), onClick);
}

/** Redraws the engine's line and the hint only. */
export function drawLine() {
  if (state.view) drawOverlay($("board"), boardView());
}

const seatName = (k) => {
  if (state.replay) return [state.replay.first, state.replay.second][k - 1];
  const p = state.players[k - 1];
  if (p.kind === "human") return isEngine(3 - k) ? "You" : "Human";
  return p.options.Level ? `${p.kind} (${p.options.Level})` : p.kind;
};

/** The analysis panel: the latest line, kept after the move it led to, and the bar. */
export function renderThinking() {
  const t = state.thinking;
  const pov = pointOfView();
  const i = t ? t.info : {};
  $("eval").textContent = t && i.score ? scoreText(i.score, t.side, pov) : "–";
  $("eval").className = `eval ${t && i.score ? i.score.kind : ""}`;
  $("eval-fill").style.width = `${(t && i.score ? scoreShare(i.score, t.side, pov) : 0.5) * 100}%`;
  $("eval-bar").title = `player ${pov}'s share`;
  $("eval-side").textContent = t && i.score ? `for player ${pov}${isEngine(3 - pov) && !isEngine(pov) ? " (you)" : ""}` : "";
  $("stats").textContent = t ? `depth ${i.depth ?? "–"}${i.seldepth ? "/" + i.seldepth : ""} · ${formatCount(i.nodes)} nodes · ${formatCount(i.nps)} nps` : "";
  $("pv").textContent = t && i.pv ? i.pv.join(" ") : "";
  const stale = t && t.key !== keyAt(state.ply) ? " · its last search, before the move" : "";
  $("think-source").textContent = t ? t.label + stale : (state.analysis ? "" : "Turn on Analyse, or ask for a hint.");
  $("hint-text").textContent = state.hintText;
  for (const k of [1, 2]) {
    const s = state.seatThought[k];
    $(`think-${k}`).textContent = isEngine(k) && !state.replay && s
      ? `${s.info.score ? `${scoreText(s.info.score, s.side, pov)} · ` : ""}depth ${s.info.depth ?? "–"}` : "";
  }
}

/** The clock faces; the running one marked. */
export function renderClocks() {
  for (const k of [1, 2]) {
    const face = $(`clock-${k}`);
    face.hidden = !state.clock || !!state.replay;
    if (face.hidden) continue;
    const ms = state.clock.remaining(k);
    face.textContent = clockText(ms);
    face.className = `clock${state.clock.side === k ? " running" : ""}${ms < 10000 ? " low" : ""}${ms <= 0 ? " flag" : ""}`;
  }
}

/** The score said plainly: Awale's captures, and the result if the game ended now. */
function scoreLine(v) {
  const [a, b] = v.status.score;
  if (state.game === "awale") {
    const [c1, c2] = v.pos.stores;
    return v.status.over ? `Captured ${c1} – ${c2}` : `Captured ${c1} – ${c2} · with the seeds on each side: ${a} – ${b}`;
  }
  return v.status.over ? `Towers ${a} – ${b}` : `Towers on top ${a} – ${b} (the result if the game ended now)`;
}

function resultText(v) {
  const o = state.outcome;
  if (o) {
    const why = { resignation: `player ${o.loser} resigned`, time: `player ${o.loser} ran out of time`, agreement: "agreed" }[o.reason];
    return [o.winner ? `Player ${o.winner} wins` : "Draw", why];
  }
  const [a, b] = v.status.score;
  const reason = REASONS[v.status.reason] || v.status.reason;
  return [v.status.draw ? `Draw ${a} – ${b}` : `Player ${v.status.winner} wins ${a} – ${b}, by ${Math.abs(a - b)}`, reason];
}

/** Everything but the board's line: bars, turn, score, result, fields, moves. */
export function render(onClick, onJump) {
  const v = state.view;
  drawPosition(onClick);
  renderThinking();
  renderClocks();
  const colours = state.game === "avalam" ? ["yellow", "red"] : ["A–F", "a–f"];
  for (const k of [1, 2]) {
    $(`who-${k}`).textContent = `Player ${k} (${colours[k - 1]}) · ${seatName(k)}`;
    $(`bar-${k}`).classList.toggle("to-move", !gameOver() && v.status.turn === k);
    // Your own side at the bottom: flipped, player 2's bar is under the board.
    $(`bar-${k}`).style.order = (k === 1) !== state.flip ? 2 : 0;
  }
  const over = gameOver();
  $("turn").textContent = over ? "Game over" : `Player ${v.status.turn} to move`;
  $("score").textContent = scoreLine(v);
  const result = $("result");
  result.hidden = !over;
  $("end-actions").hidden = !over || !!state.replay;
  $("save-ogn-end").hidden = state.game !== "awale";
  if (over) {
    const [text, reason] = resultText(v);
    result.textContent = text;
    result.title = reason;
    result.dataset.reason = reason;
  }
  // A field being edited, or holding text that failed to load, is left alone.
  const keep = state.keepFields || {};
  if (document.activeElement !== $("position") && keep.position === undefined) $("position").value = v.position;
  if (document.activeElement !== $("move-text") && keep.moves === undefined) $("move-text").value = state.moves.join(" ");
  $("ply").textContent = `ply ${state.ply} of ${state.moves.length}`;
  renderMoves(onJump);
  $("pause").textContent = state.paused ? "Resume" : "Pause";
  $("save-ogn").hidden = state.game !== "awale";
  const humans = [1, 2].filter((k) => !isEngine(k)).length;
  $("resign").disabled = over || humans === 0 || !!state.replay;
  $("offer-draw").disabled = over || humans === 0 || !!state.replay;
}

function renderMoves(onJump) {
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
      b.addEventListener("click", () => onJump(j + 1));
      li.appendChild(b);
    }
    list.appendChild(li);
  }
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}
