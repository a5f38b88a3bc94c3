// The boards as SVG, built with createElementNS only (no markup from strings): Avalam's stacks
// and Awale's pits, with the legal moves, the last move and an engine's line drawn on them.
// Numbers (stack heights, seed counts) are drawn last, above the line, so arrows never hide them.

import { moveParts } from "./game.js";

const NS = "http://www.w3.org/2000/svg";
const COLOURS = { 1: "var(--p1)", 2: "var(--p2)" };

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, content, cls) {
  const t = el("text", { x, y, class: cls }, parent);
  t.textContent = content;
  return t;
}

// The cells of Avalam's board (those of the start position, and its empty centre e5), drawn
// as holes once emptied in play.
const AVALAM_START = "..yr...../.yryr..../.ryryry../.yryryryr/yryr.ryry/ryryryry./..yryryr./....ryry./.....ry..";
const SHAPE = new Set([40]);
AVALAM_START.split("/").forEach((row, i) => {
  [...row].forEach((ch, c) => { if (ch !== ".") SHAPE.add((8 - i) * 9 + c); });
});

// With the board flipped, player 2's side is at the bottom: Avalam turns half a turn.
let flipped = false;
const at = (i) => (flipped ? 80 - i : i);
const cx = (i) => 10 + (at(i) % 9) * 10;
const cy = (i) => 10 + (8 - Math.floor(at(i) / 9)) * 10;

function arrowDefs(svg) {
  const defs = el("defs", {}, svg);
  for (const [id, colour] of [["head-pv", "var(--pv)"], ["head-last", "var(--last)"], ["head-hint", "var(--hint)"]]) {
    const marker = el("marker", { id, viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: "auto-start-reverse" }, defs);
    el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: colour }, marker);
  }
}

function arrow(svg, from, to, cls, head, label) {
  const [x1, y1, x2, y2] = [cx(from), cy(from), cx(to), cy(to)];
  const len = Math.hypot(x2 - x1, y2 - y1);
  // From the stack's rim to short of the target's centre: the height numbers stay readable.
  const a = 2.4 / len, k = (len - 3.4) / len;
  el("line", { x1: x1 + (x2 - x1) * a, y1: y1 + (y2 - y1) * a, x2: x1 + (x2 - x1) * k, y2: y1 + (y2 - y1) * k, class: cls, "marker-end": `url(#${head})` }, svg);
  if (label) {
    // The number sits beside the moving stack, where arrows of one line rarely meet.
    const g = el("g", { class: "pv-label" }, svg);
    el("circle", { cx: x1 + 3.1, cy: y1 - 3.1, r: 1.8 }, g);
    text(g, x1 + 3.1, y1 - 2.35, label, "pv-number");
  }
}

/** Draws an Avalam position; `onCell(index)` is called for clicks on cells. */
function drawAvalam(svg, v, onCell, labels) {
  svg.setAttribute("viewBox", "0 0 100 100");
  arrowDefs(svg);
  el("rect", { x: 1, y: 1, width: 98, height: 98, rx: 4, class: "board-bg" }, svg);
  for (let c = 0; c < 9; c++) text(svg, cx(c), 98.6, String.fromCharCode(97 + c), "coord");
  for (let r = 0; r < 9; r++) text(svg, 2.6, cy(r * 9) + 1, String(r + 1), "coord");
  const last = moveParts("avalam", v.lastMove);
  const sources = new Set(v.legal.map((m) => moveParts("avalam", m)?.from));
  const targets = new Set(v.legal.filter((m) => moveParts("avalam", m)?.from === v.selected).map((m) => moveParts("avalam", m).to));
  // A tower that no legal move touches can never move again (in the standard rules both sides
  // have the same moves): it is dimmed while the game goes on.
  const live = new Set();
  for (const m of v.allLegal || []) { const p = moveParts("avalam", m); if (p) { live.add(p.from); live.add(p.to); } }
  for (let i = 0; i < 81; i++) {
    const g = el("g", { class: "cell", "data-cell": i }, svg);
    const x = cx(i), y = cy(i);
    if (SHAPE.has(i)) el("circle", { cx: x, cy: y, r: 4.2, class: "hole" }, g);
    if (last && (last.from === i || last.to === i)) el("circle", { cx: x, cy: y, r: 4.9, class: "last-ring" }, g);
    const cell = v.pos.cells[i];
    if (cell) {
      const r = 3.1 + cell.h * 0.3;
      const dead = v.playing && !live.has(i);
      const t = el("g", { class: `tower${dead ? " dead" : ""}` }, g);
      el("circle", { cx: x, cy: y + 0.35, r, class: "stack-shadow" }, t);
      el("circle", { cx: x, cy: y, r, fill: COLOURS[cell.top], class: `stack p${cell.top}${cell.h === 5 ? " full" : ""}` }, t);
      for (let k = 1; k < cell.h; k++) el("circle", { cx: x, cy: y, r: r - k * 0.55, class: "stack-ring" }, t);
      if (cell.h > 1) text(labels, x, y + 1.35, String(cell.h), `height p${cell.top}${dead ? " dead" : ""}`);
    }
    if (v.interactive && i === v.selected) el("circle", { cx: x, cy: y, r: 4.8, class: "selected" }, g);
    else if (v.interactive && targets.has(i)) el("circle", { cx: x, cy: y, r: 4.8, class: "target" }, g);
    el("rect", { x: x - 5, y: y - 5, width: 10, height: 10, rx: 5, class: `hit${v.interactive && sources.has(i) ? " movable" : ""}` }, g);
    g.addEventListener("click", () => onCell(i));
  }
  if (last) arrow(svg, last.from, last.to, "last-arrow", "head-last");
}

/** An engine's line and the hint on an Avalam board, as arrows; a hint is drawn alone. */
function overlayAvalam(g, v) {
  const hint = moveParts("avalam", v.hint);
  if (hint) { arrow(g, hint.from, hint.to, "hint-arrow", "head-hint"); return; }
  (v.pv || []).slice(0, 4).forEach((m, k) => {
    const p = moveParts("avalam", m);
    if (p) arrow(g, p.from, p.to, `pv-arrow pv${Math.min(k, 3)}`, "head-pv", String(k + 1));
  });
}

// Awale: pit k (0..5 = A..F, 6..11 = a..f) at column and row; sowing runs counterclockwise.
// Flipped, player 2's row (a..f) is at the bottom, read left to right.
const place = (k) => (flipped ? (k + 6) % 12 : k);
const pitX = (k) => { const p = place(k); return p < 6 ? 32 + p * 19 : 32 + (11 - p) * 19; };
const pitY = (k) => (place(k) < 6 ? 44 : 21);
const low = (k) => place(k) < 6;

function seeds(g, x, y, n) {
  const shown = Math.min(n, 30);
  for (let s = 0; s < shown; s++) {
    const a = s * 2.4;
    const d = 1.3 * Math.sqrt(s);
    el("circle", { cx: x + d * Math.cos(a), cy: y + d * Math.sin(a), r: 1.05, class: "seed" }, g);
  }
}

/** Draws an Awale position; `onPit(k)` is called for clicks on pits. */
function drawAwale(svg, v, onPit, labels) {
  svg.setAttribute("viewBox", "0 0 160 70");
  el("rect", { x: 1, y: 2, width: 158, height: 60, rx: 16, class: "board-bg" }, svg);
  const last = moveParts("awale", v.lastMove);
  const legal = new Set(v.legal.map((m) => moveParts("awale", m)?.pit));
  const captured = new Set(v.captured || []);
  // Each player's store is on their right hand: player 1's at the right unless flipped.
  const stores = flipped ? [[1, 12, "P1"], [2, 148, "P2"]] : [[1, 148, "P1"], [2, 12, "P2"]];
  for (const [k, x, label] of stores) {
    const g = el("g", { class: "store", "data-store": k }, svg);
    el("rect", { x: x - 8, y: 9, width: 16, height: 46, rx: 8, class: "store-bg" }, g);
    seeds(g, x, 32, Math.min(v.pos.stores[k - 1], 30));
    text(g, x, 68, `${label} ${v.pos.stores[k - 1]}`, "store-count");
  }
  for (let k = 0; k < 12; k++) {
    const x = pitX(k), y = pitY(k);
    const g = el("g", { class: `pit${captured.has(k) ? " captured" : ""}${v.sowing === k ? " sowing" : ""}`, "data-pit": k }, svg);
    if (last && last.pit === k) el("circle", { cx: x, cy: y, r: 9.6, class: "last-ring" }, g);
    if (captured.has(k)) el("circle", { cx: x, cy: y, r: 9.6, class: "captured-ring" }, g);
    el("circle", { cx: x, cy: y, r: 8.6, class: `pit-bg${v.interactive && legal.has(k) ? " legal" : ""}` }, g);
    seeds(g, x, y, v.pos.pits[k]);
    text(g, x, low(k) ? 58.6 : 9.4, k < 6 ? "ABCDEF"[k] : "abcdef"[k - 6], "pit-name");
    const by = y + (low(k) ? 6.4 : -6.4);
    el("circle", { cx: x + 6.6, cy: by, r: 3, class: "count-bg" }, labels);
    text(labels, x + 6.6, by + 1.1, String(v.pos.pits[k]), "pit-count");
    el("circle", { cx: x, cy: y, r: 9.5, class: "hit" }, g);
    g.addEventListener("click", () => onPit(k));
  }
}

/** An engine's line (numbered marks) and the hint (a ring, alone) on an Awale board. */
function overlayAwale(g, v) {
  const hint = moveParts("awale", v.hint);
  if (hint) { el("circle", { cx: pitX(hint.pit), cy: pitY(hint.pit), r: 9.6, class: "hint-ring" }, g); return; }
  (v.pv || []).slice(0, 4).forEach((m, n) => {
    const k = moveParts("awale", m)?.pit;
    if (k === undefined || (v.pv || []).slice(0, n).includes(m)) return;
    // Opposite the seed count, so that the mark never hides it.
    const x = pitX(k) - 6.6, y = pitY(k) + (low(k) ? 6.4 : -6.4);
    const b = el("g", { class: `pv-mark pv${Math.min(n, 3)}` }, g);
    el("circle", { cx: x, cy: y, r: 2.8 }, b);
    text(b, x, y + 1, String(n + 1), "pv-number");
  });
}

/**
 * Draws `v` ({pos, legal, allLegal, playing, selected, lastMove, pv, hint, interactive, flip,
 * captured, sowing}) into `svg`, replacing what was there.
 */
export function drawBoard(svg, v, onClick) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  flipped = !!v.flip;
  svg.setAttribute("class", `board ${v.pos.game}${flipped ? " flipped" : ""}`);
  const labels = el("g", { class: "labels" });
  if (v.pos.game === "avalam") drawAvalam(svg, v, onClick, labels);
  else drawAwale(svg, v, onClick, labels);
  el("g", { class: "overlay" }, svg);
  svg.appendChild(labels);
  drawOverlay(svg, v);
}

/**
 * Redraws only the engine's line and the hint, over the board: the stacks and pits stay the
 * same elements, so a click that began on one is not lost to a redraw.
 */
export function drawOverlay(svg, v) {
  const g = svg.querySelector("g.overlay");
  if (!g) return;
  flipped = !!v.flip;
  g.replaceChildren();
  if (v.pos.game === "avalam") overlayAvalam(g, v);
  else overlayAwale(g, v);
}
