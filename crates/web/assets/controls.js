// The page's controls: which tab, button, menu and key does what. The actions are app.js's,
// passed in, so that this file only says what each control is for.

import { $, message } from "./ui.js";
import { state, isEngine } from "./state.js";
import { parseTc } from "./clock.js";
import * as store from "./store.js";
import { analyser, saveSeats, startPlayer } from "./seats.js";

/** Connects every control of the play tab to `act`, app.js's actions. */
export function wireControls(act) {
  document.querySelectorAll(".tab").forEach((tab) => tab.addEventListener("click", () => {
    document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t === tab));
    $("play").hidden = tab.dataset.tab !== "play";
    $("viewer").hidden = tab.dataset.tab !== "viewer";
  }));
  $("game").addEventListener("change", () => {
    if (!act.mayEndGame("Change the game")) { $("game").value = state.game; return; }
    act.fillVariants();
    act.newGame();
  });
  $("variant").addEventListener("change", () => {
    if (!act.mayEndGame("Change the variant")) { $("variant").value = state.variant; return; }
    act.newGame();
  });
  for (const id of ["new-game", "new-game-end"]) $(id).addEventListener("click", () => act.mayEndGame("Start a new game") && act.newGame());
  $("rematch").addEventListener("click", act.rematch);
  for (const k of [0, 1]) {
    $(`kind-${k + 1}`).addEventListener("change", async (e) => {
      state.players[k].kind = e.target.value;
      state.players[k].options = {};
      state.flip = isEngine(1) && !isEngine(2);
      saveSeats();
      try { await startPlayer(k, e.target.value, act.redraw); } catch (err) { message(err.message, err.stderr); }
      act.refresh();
    });
    $(`time-${k + 1}`).addEventListener("change", (e) => { state.players[k].time = Number(e.target.value) || 1000; saveSeats(); });
  }
  $("tc").addEventListener("change", () => {
    try {
      state.tc = parseTc($("tc").value);
    } catch (e) { message(e.message); return; }
    store.writePrefs({ tc: $("tc").value.trim() });
    for (const k of [1, 2]) $(`time-${k}`).closest("label").hidden = !isEngine(k) || !!state.tc;
    if (act.mayEndGame("Start a new game with this clock")) act.newGame(state.start, []);
  });
  $("sow").addEventListener("change", (e) => { state.sow = e.target.value; store.writePrefs({ sow: state.sow }); });
  $("first").addEventListener("click", () => act.show(0));
  $("back").addEventListener("click", () => state.ply > 0 && act.show(state.ply - 1));
  $("forward").addEventListener("click", () => state.ply < state.moves.length && act.show(state.ply + 1));
  $("last").addEventListener("click", () => act.show(state.moves.length));
  $("undo").addEventListener("click", act.undo);
  $("flip").addEventListener("click", () => { state.flip = !state.flip; act.redraw(); });
  $("resign").addEventListener("click", act.resign);
  $("offer-draw").addEventListener("click", act.offerDraw);
  $("pause").addEventListener("click", () => { act.setPaused(!state.paused); if (!state.paused) act.refresh(); });
  $("step").addEventListener("click", () => { act.setPaused(true); state.step = true; act.step(); });
  $("analysis").addEventListener("change", (e) => {
    state.analysis = e.target.checked;
    if (!state.analysis) { analyser.stop(); state.thinking = null; act.redraw(); } else act.refresh();
  });
  $("analysis-engine").addEventListener("change", () => state.analysis && act.refresh());
  $("hint").addEventListener("click", act.hint);
  $("copy-position").addEventListener("click", () => copy("position"));
  $("copy-moves").addEventListener("click", () => copy("move-text"));
  $("set-position").addEventListener("click", () => {
    const text = $("position").value.trim().replace(/^position\s+/, "");
    act.newGame(text === "" || text === "startpos" ? "startpos" : text, [], "The position was not set up");
  });
  $("set-moves").addEventListener("click", () => {
    const moves = $("move-text").value.trim().split(/\s+/).filter(Boolean);
    act.newGame(state.start, moves, "The moves were not loaded");
  });
  document.addEventListener("keydown", (e) => {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName)) return;
    const to = { ArrowLeft: state.ply - 1, ArrowRight: state.ply + 1, Home: 0, End: state.moves.length }[e.key];
    if (to === undefined || to < 0 || to > state.moves.length) return;
    e.preventDefault();
    act.show(to);
  });
}

async function copy(id) {
  const input = $(id);
  try { await navigator.clipboard.writeText(input.value); } catch { input.select(); document.execCommand("copy"); }
}
