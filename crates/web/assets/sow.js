// Awale's sowing shown seed by seed, and the pits a move captured, both read from the positions
// before and after the move that the rules engine gave: the page decides no rule here.

/** The pits that receive the seeds of `pit`, in order (a lap skips the pit sown from). */
export function sowingPath(pits, pit) {
  const path = [];
  for (let k = pit; path.length < pits[pit];) {
    k = (k + 1) % 12;
    if (k !== pit) path.push(k);
  }
  return path;
}

/**
 * The pits emptied by the capture of the move `pit` from `before` to `after` (positions as
 * parsePosition reads them): sown into, empty afterwards, and their seeds are what the mover's
 * store gained. Empty when the move captured nothing (or the game ended and the seeds went home).
 */
export function capturedPits(before, pit, after) {
  const counts = before.pits.slice();
  counts[pit] = 0;
  for (const k of sowingPath(before.pits, pit)) counts[k] += 1;
  const mover = pit < 6 ? 0 : 1;
  const taken = [...counts.keys()].filter((k) => k !== pit && (k < 6) !== (mover === 0) && counts[k] > 0 && after.pits[k] === 0);
  const gained = after.stores[mover] - before.stores[mover];
  return gained > 0 && taken.reduce((n, k) => n + counts[k], 0) === gained ? taken : [];
}

/**
 * Draws the sowing of `pit` from `before`: `draw(pos, sowing)` for each seed, `stepMs` apart (a
 * long sowing goes faster, so that none takes over two seconds). Stops early when `current()`
 * turns false (another position was asked for).
 */
export async function animateSowing(before, pit, stepMs, draw, current) {
  const pits = before.pits.slice();
  const path = sowingPath(before.pits, pit);
  const step = Math.min(stepMs, 2000 / Math.max(1, path.length));
  pits[pit] = 0;
  draw({ ...before, pits: pits.slice() }, pit);
  for (const k of path) {
    await new Promise((r) => setTimeout(r, step));
    if (!current()) return false;
    pits[k] += 1;
    draw({ ...before, pits: pits.slice() }, k);
  }
  await new Promise((r) => setTimeout(r, step));
  return current();
}
