// Small page helpers: elements by id, messages with an engine's stderr, scores and counts as
// text, option controls built from an engine's `option` lines. Text goes in with textContent.

export const $ = (id) => document.getElementById(id);

/** Shows a message box (with the tail of an engine's stderr, and an action button if given). */
export function message(text, stderr = [], action = null, onAction = null, where = "messages") {
  const box = document.createElement("div");
  box.className = "message";
  const p = document.createElement("p");
  p.textContent = text;
  box.appendChild(p);
  if (stderr && stderr.length) {
    const pre = document.createElement("pre");
    pre.textContent = stderr.join("\n");
    box.appendChild(pre);
  }
  const close = document.createElement("button");
  close.className = "close";
  close.textContent = "×";
  close.title = "Dismiss";
  close.addEventListener("click", () => box.remove());
  box.appendChild(close);
  if (action) {
    const b = document.createElement("button");
    b.className = "action";
    b.textContent = action;
    b.addEventListener("click", () => { box.remove(); onAction(); });
    box.appendChild(b);
  }
  $(where).appendChild(box);
  while ($(where).children.length > 4) $(where).firstChild.remove();
  return box;
}

const notesShown = new Set();

/** A note from an engine (an `info string` outside a search), shown once per page. */
export function note(text) {
  if (notesShown.has(text)) return;
  notesShown.add(text);
  message(text, [], null, null, "notes").classList.add("note");
}

export function clearMessages(where = "messages") {
  $(where).replaceChildren();
}

/** A score for the side to move (`side`), told from player `pov`'s point of view. */
export function scoreText(score, side, pov = 1) {
  const bound = score.bound === "lowerbound" ? "≥" : score.bound === "upperbound" ? "≤" : "";
  if (score.kind === "cp") {
    const v = (side === pov ? score.value : -score.value) / 100;
    // A bound on the mover's score is the other bound from the other side.
    const b = side === pov ? bound : bound === "≥" ? "≤" : bound === "≤" ? "≥" : "";
    return `${b}${v > 0 ? "+" : ""}${v.toFixed(2)}`;
  }
  if (score.kind === "draw") return "draw (proven)";
  if (score.kind === "mate") {
    // UGI's mate: moves to a win, negative when the side to move loses.
    return `P${score.value > 0 ? side : 3 - side} mates in ${Math.abs(score.value)}`;
  }
  const winner = score.kind === "win" ? side : 3 - side;
  const margin = score.bound ? ` by ≥${score.value}` : ` by ${score.value}`;
  return `P${winner} wins${margin}`;
}

/** How good a score is for player `pov`, from 0 (lost) to 1 (won), for the evaluation bar. */
export function scoreShare(score, side, pov = 1) {
  if (score.kind === "draw") return 0.5;
  if (score.kind === "cp") {
    const v = side === pov ? score.value : -score.value;
    return 1 / (1 + Math.exp(-v / 250));
  }
  const winner = score.kind === "win" ? side : 3 - side;
  return winner === pov ? 1 : 0;
}

export function formatCount(n) {
  if (n === undefined || n === null || Number.isNaN(n)) return "–";
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(0)}k`;
  return String(n);
}

/** A labelled control for one engine option; `onChange(value)` when the user changes it. */
export function optionControl(option, value, onChange) {
  const label = document.createElement("label");
  label.className = "option";
  label.append(`${option.name} `);
  let input;
  if (option.type === "combo") {
    input = document.createElement("select");
    for (const v of option.vars) input.appendChild(new Option(v, v));
    input.value = value;
  } else if (option.type === "check") {
    input = document.createElement("input");
    input.type = "checkbox";
    input.checked = value === "true";
  } else {
    input = document.createElement("input");
    input.type = option.type === "spin" ? "number" : "text";
    if (option.min !== undefined) { input.min = option.min; input.max = option.max; }
    input.value = value;
  }
  input.dataset.option = option.name;
  input.addEventListener("change", () => onChange(option.type === "check" ? String(input.checked) : input.value));
  label.appendChild(input);
  return label;
}
