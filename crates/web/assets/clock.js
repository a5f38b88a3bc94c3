// Game clocks: a base time and an increment per side, written as the referee's `tc` (seconds:
// "300+5", "10+0.1"). The side to move's time runs; a move adds the increment to the mover.

/** Reads "BASE+INC" or "BASE" (seconds) into {base, inc} in ms; null for ""; throws on bad text. */
export function parseTc(text) {
  const t = (text || "").trim();
  if (t === "") return null;
  const m = /^(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$/.exec(t);
  if (!m || Number(m[1]) <= 0) throw new Error(`'${t}' is not a clock: write seconds and an increment, as 300+5 or 10+0.1`);
  return { base: Math.round(Number(m[1]) * 1000), inc: Math.round(Number(m[2] || 0) * 1000) };
}

/** Both players' times; `side` (1 or 2) is the one running, null when stopped. */
export class Clock {
  constructor(tc) {
    this.inc = tc.inc;
    this.left = [tc.base, tc.base];
    this.side = null;
    this.since = 0;
  }

  /** Runs `side`'s time (stopping the other's). */
  run(side) {
    if (this.side === side) return;
    this.halt();
    this.side = side;
    this.since = performance.now();
  }

  /** Stops the clock, keeping the time used. */
  halt() {
    if (this.side) this.left[this.side - 1] -= performance.now() - this.since;
    this.side = null;
  }

  /** `side` has moved: its time stops and it gets the increment. */
  moved(side) {
    if (this.side === side) this.halt();
    this.left[side - 1] += this.inc;
  }

  /** What `side` has left now, in ms (below zero once its flag fell). */
  remaining(side) {
    return this.left[side - 1] - (this.side === side ? performance.now() - this.since : 0);
  }

  /** Both times now, to be restored on undo. */
  snapshot() {
    return [this.remaining(1), this.remaining(2)];
  }

  /** Sets both times, stopped. */
  restore(left) {
    this.side = null;
    this.left = left.slice();
  }
}

/** A time for a clock face: 4:05, or 9.3 under ten seconds. */
export function clockText(ms) {
  const t = Math.max(0, ms);
  if (t < 10000) return (Math.floor(t / 100) / 10).toFixed(1);
  const s = Math.floor(t / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}
