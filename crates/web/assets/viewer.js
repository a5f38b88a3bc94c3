// The match viewer: a referee --out file (uploaded, or given to pion-web with --records) read
// by the server with the referee's own types and statistics, shown as a summary and a list of
// games, any of which is replayed on the board.

import { $, message, clearMessages } from "./ui.js";

let onReplay = null;

function cell(row, content, cls) {
  const td = document.createElement("td");
  td.textContent = content;
  if (cls) td.className = cls;
  row.appendChild(td);
  return td;
}

function fact(grid, label, value, cls) {
  const box = document.createElement("div");
  box.className = `fact ${cls || ""}`;
  const v = document.createElement("div");
  v.className = "value";
  v.textContent = value;
  const l = document.createElement("div");
  l.className = "label";
  l.textContent = label;
  box.append(v, l);
  grid.appendChild(box);
}

const signed = (x, digits = 1) => `${x > 0 ? "+" : ""}${x.toFixed(digits)}`;

/** The facts of a tournament: its leader and its forfeits; the standings, ratings and
 * crosstable are the referee's own text, below. */
function showTournament(grid, t) {
  fact(grid, `${t.format}`, `${t.games} of ${t.planned} games`, "wide");
  const leader = t.standings.rows[0];
  if (leader) fact(grid, "leader", `${leader.name} ${leader.points}/${leader.games}`);
  const forfeits = Object.entries(t.forfeits);
  fact(grid, "forfeits", forfeits.length ? forfeits.map(([r, n]) => `${r} ${n}`).join(", ") : "none", forfeits.length ? "bad" : "");
  const adjudicated = Object.entries(t.adjudications);
  if (adjudicated.length) fact(grid, "adjudicated", adjudicated.map(([r, n]) => `${r} ${n}`).join(", "));
}

function show(view) {
  clearMessages("viewer-messages");
  for (const w of view.warnings) message(w, [], null, null, "viewer-messages");
  const s = view.report;
  $("records-source").textContent = `${view.source}: ${view.games.length} games`;
  const grid = $("summary-grid");
  grid.replaceChildren();
  if (view.kind === "tournament") {
    showTournament(grid, s);
  } else {
    showMatch(grid, s);
  }
  $("summary-table").textContent = view.table;
  $("summary").hidden = false;
  showGames(view.games);
}

/** The facts of a two-engine match, from the referee's summary. */
function showMatch(grid, s) {
  const wdl = s.engines[s.elo_for];
  fact(grid, `${s.elo_for} vs ${s.elo_against}`, `+${wdl.wins} =${wdl.draws} −${wdl.losses}`, "wide");
  let elo = "n/a";
  if (s.elo !== null && s.elo !== undefined) {
    elo = `${signed(s.elo)} ± ${s.elo_error !== null ? s.elo_error.toFixed(1) : "?"}`;
  } else if (s.elo_bound !== null && s.elo_bound !== undefined) {
    // Every game went one way: a one-sided bound, from below when they were all won.
    elo = `${s.score > 0.5 ? "≥" : "≤"} ${signed(s.elo_bound)}`;
  }
  fact(grid, `Elo of ${s.elo_for} (95%)`, elo, "elo");
  if (s.elo_interval) fact(grid, "interval", `[${signed(s.elo_interval[0])}, ${signed(s.elo_interval[1])}]`);
  if (s.score !== null) fact(grid, "score", `${(s.score * 100).toFixed(1)}%`);
  if (s.los !== null && s.los !== undefined) fact(grid, "LOS", `${(s.los * 100).toFixed(1)}%`);
  if (s.draw_ratio !== null) fact(grid, "draws", `${(s.draw_ratio * 100).toFixed(1)}%`);
  const forfeits = Object.entries(s.forfeits);
  fact(grid, "forfeits", forfeits.length ? forfeits.map(([r, n]) => `${r} ${n}`).join(", ") : "none", forfeits.length ? "bad" : "");
  for (const [engine, reasons] of Object.entries(s.forfeits_by_engine)) {
    fact(grid, `forfeits of ${engine}`, Object.entries(reasons).map(([r, n]) => `${r} ${n}`).join(", "), "bad");
  }
  if (s.adjudications) fact(grid, "adjudicated", String(s.adjudications));
}

/** The list of games, each replayed on the board when chosen. */
function showGames(games) {
  const body = $("games");
  body.replaceChildren();
  for (const g of games) {
    const row = document.createElement("tr");
    row.tabIndex = 0;
    row.dataset.game = g.game;
    cell(row, String(g.game + 1));
    cell(row, g.first, g.loser === g.first ? "loser" : "");
    cell(row, g.second, g.loser === g.second ? "loser" : "");
    cell(row, g.result);
    const reason = cell(row, g.reason, g.reason === "normal" ? "" : "bad");
    if (g.detail) reason.title = g.detail;
    cell(row, `${g.score[0]}–${g.score[1]}`);
    cell(row, String(g.opening.length + g.moves.length));
    const open = () => onReplay(g);
    row.addEventListener("click", open);
    row.addEventListener("keydown", (e) => { if (e.key === "Enter") open(); });
    body.appendChild(row);
  }
  $("games-panel").hidden = false;
}

/** A refused file: the old match goes too, so that nobody reads it as this file's. */
function refuse(text) {
  clearMessages("viewer-messages");
  $("summary").hidden = true;
  $("games-panel").hidden = true;
  $("games").replaceChildren();
  $("records-source").textContent = "";
  // The server's sentence, without the JSON parser's detail in brackets at its end.
  message(text.replace(/ \([^()]*\bat line \d+ column \d+\)$/, ""), [], null, null, "viewer-messages");
}

async function load(request) {
  try {
    const response = await request;
    const body = await response.json();
    if (!response.ok) {
      refuse(body.error || `the server answered ${response.status}`);
      return;
    }
    show(body);
  } catch (e) {
    refuse(`The records could not be read: ${e.message}`);
  }
}

/** Wires the viewer; `given` is whether the server has a --records file to show. */
export function initViewer(given, replay) {
  onReplay = replay;
  $("records-file").addEventListener("change", (e) => {
    const file = e.target.files[0];
    if (file) load(fetch("api/records", { method: "POST", body: file }));
  });
  $("records-reload").hidden = !given;
  $("records-reload").addEventListener("click", () => load(fetch("api/records")));
  if (given) load(fetch("api/records"));
}
