// The page's side of the bridge: one WebSocket to the server, and engine processes behind it
// that this file talks to in the protocol of protocol.md. Nothing here knows a game's rules.

/** The counts an `info` line may give, each followed by a whole number. */
const COUNTS = ["depth", "seldepth", "nodes", "nps", "time", "hashfull", "playouts", "tbhits"];

/** A whole number of the protocol (an optional `+`, digits), or null. */
function count(word) {
  return word !== undefined && /^\+?\d+$/.test(word) ? Number(word) : null;
}

/** A score from `words[i]` on (`cp 30 lowerbound`, `mate -3`, `draw`...): it and the words it took. */
function readScore(words, i) {
  const kind = words[i];
  const number = words[i + 1] !== undefined && /^[+-]?\d+$/.test(words[i + 1]) ? Number(words[i + 1]) : null;
  let score;
  let used;
  if (kind === "draw") {
    score = { kind };
    used = 1;
  } else if (["cp", "mate"].includes(kind) && number !== null) {
    score = { kind, value: number };
    used = 2;
  } else if (["win", "loss"].includes(kind) && number !== null && number >= 0) {
    score = { kind, value: number };
    used = 2;
  } else {
    return null;
  }
  if (words[i + used] === "lowerbound" || words[i + used] === "upperbound") {
    score.bound = words[i + used];
    used += 1;
  }
  return { score, used };
}

/**
 * Parses an `info` line into its fields (depth, seldepth, score, nodes, nps, time, hashfull,
 * playouts, tbhits, pv, string), as the protocol crate's `InfoFields` reads it: a value that
 * does not read is skipped, `pv` and `string` take the rest of the line. Both are checked
 * against one fixture of lines (crates/protocol/tests/protocol/fixtures/info_lines.json).
 */
export function parseInfo(line) {
  const words = line.trim().split(/\s+/);
  const info = {};
  if (words[0] !== "info") return info;
  let i = 1;
  while (i < words.length) {
    const w = words[i];
    if (COUNTS.includes(w)) {
      const n = count(words[i + 1]);
      if (n !== null) info[w] = n;
      i += n !== null ? 2 : 1;
    } else if (w === "score") {
      const read = readScore(words, i + 1);
      if (read) info.score = read.score;
      i += 1 + (read ? read.used : 0);
    } else if (w === "pv") {
      info.pv = words.slice(i + 1);
      break;
    } else if (w === "string") {
      info.string = line.slice(line.indexOf(" string") + " string".length).trim();
      break;
    } else {
      i += 1;
    }
  }
  return info;
}

/** Parses the `option name N type T default D [min m max M] [var v]...` line. */
export function parseOption(line) {
  const m = /^option name (\S+) type (\S+)(?: default ?(.*?))?(?: min (-?\d+) max (-?\d+))?((?: var \S+)*)\s*$/.exec(line);
  if (!m) return null;
  const vars = m[6] ? m[6].trim().split(/\s*var\s+/).filter(Boolean) : [];
  return { name: m[1], type: m[2], def: (m[3] || "").trim(), min: m[4], max: m[5], vars };
}

/** Why an engine stopped being usable: what happened, and the tail of its stderr. */
export class EngineFailure extends Error {
  constructor(message, stderr = []) {
    super(message);
    this.stderr = stderr;
  }
}

/** One engine process behind the bridge, under the page's name `id`. */
export class Engine {
  constructor(bridge, id) {
    this.bridge = bridge;
    this.id = id;
    this.name = null;
    this.options = [];
    this.games = [];
    this.waiters = [];
    this.search = null;
    this.alive = false;
    this.failure = null;
    this.onFailure = null;
    this.onStray = null;
  }

  /**
   * Starts the configured engine `name` and does the handshake; resolves to this engine. The
   * promise is kept in `starting` so that a caller can wait for a start already under way.
   */
  start(name, timeoutMs = 10000) {
    this.starting = this.launch(name, timeoutMs);
    return this.starting;
  }

  async launch(name, timeoutMs) {
    this.rejectAll(new EngineFailure("restarted"));
    this.alive = false;
    this.prepared = null;
    this.name = name;
    this.failure = null;
    this.search = null;
    const started = new Promise((resolve, reject) => { this.startWaiter = { resolve, reject }; });
    this.bridge.send({ t: "start", id: this.id, engine: name });
    const info = await started;
    this.alive = true;
    const lines = await this.request(["pion"], (l) => l === "pionok", timeoutMs);
    this.options = lines.map(parseOption).filter(Boolean);
    this.games = lines.filter((l) => l.startsWith("game ")).map((l) => l.slice(5).trim());
    this.ident = (lines.find((l) => l.startsWith("id name ")) || "").slice(8);
    const stray = lines.filter((l) => !/^(id |game |option |pionok$)/.test(l));
    if (stray.length && this.onStray) this.onStray(this, stray[0]);
    for (const [key, value] of info.options || []) this.send(`setoption name ${key} value ${value}`);
    return this;
  }

  /** Kills the process (its lines still in flight are dropped by the server). */
  kill() {
    this.rejectAll(new EngineFailure("stopped"));
    this.alive = false;
    this.search = null;
    this.bridge.send({ t: "kill", id: this.id });
  }

  send(line) { this.bridge.send({ t: "send", id: this.id, line }); }

  /**
   * Sends `lines`, then collects the replies up to the one for which `done` is true; rejects
   * with an EngineFailure when none comes within `timeoutMs` or the engine dies.
   */
  request(lines, done, timeoutMs = 5000) {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const waiter = { done, lines: [], resolve, reject };
      waiter.timer = setTimeout(async () => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        const stderr = await this.bridge.stderr(this.id);
        reject(new EngineFailure(`engine '${this.name}' did not answer '${lines[lines.length - 1]}' within ${timeoutMs / 1000} s (it may hang)`, stderr));
      }, timeoutMs);
      this.waiters.push(waiter);
      for (const line of lines) this.send(line);
    });
  }

  /** `isready` after `lines`: resolves to the `error` lines they caused. */
  async sync(lines, timeoutMs = 5000) {
    const got = await this.request([...lines, "isready"], (l) => l === "readyok", timeoutMs);
    return got.filter((l) => l.startsWith("error"));
  }

  /**
   * Starts a search: `onInfo(info, line)` for each info line, resolves to the bestmove's move.
   * `deadlineMs` (none for infinite) bounds the wait for `bestmove`.
   */
  go(params, onInfo, deadlineMs = null) {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const search = { onInfo, resolve, reject, timer: null };
      if (deadlineMs !== null) {
        search.timer = setTimeout(async () => {
          if (this.search !== search) return;
          this.search = null;
          const stderr = await this.bridge.stderr(this.id);
          reject(new EngineFailure(`engine '${this.name}' did not answer 'go ${params}' in time (it may hang)`, stderr));
        }, deadlineMs);
      }
      this.search = search;
      this.send(`go ${params}`);
    });
  }

  /** Stops a running search; resolves when its bestmove has come (or at once with none). */
  async stop(timeoutMs = 3000) {
    const search = this.search;
    if (!search) return;
    const ended = new Promise((resolve) => {
      const { resolve: done, reject } = search;
      search.resolve = (m) => { done(m); resolve(); };
      search.reject = (e) => { reject(e); resolve(); };
      setTimeout(resolve, timeoutMs);
    });
    search.onInfo = () => {};
    this.send("stop");
    await ended;
  }

  /** A line from the engine. */
  line(line) {
    const search = this.search;
    if (search && (line.startsWith("info") || line.startsWith("bestmove"))) {
      if (line.startsWith("info")) {
        search.onInfo(parseInfo(line), line);
      } else {
        clearTimeout(search.timer);
        this.search = null;
        search.resolve(line.split(/\s+/)[1] || "");
      }
      return;
    }
    const waiter = this.waiters[0];
    if (waiter) {
      waiter.lines.push(line);
      if (waiter.done(line)) {
        clearTimeout(waiter.timer);
        this.waiters.shift();
        waiter.resolve(waiter.lines);
      }
      return;
    }
    if (search) {
      // One report, with the engine's stderr: the search is over for the page.
      clearTimeout(search.timer);
      this.search = null;
      const text = `engine '${this.name}' printed a line that is not the protocol while thinking: ${line.slice(0, 200)}`;
      this.bridge.stderr(this.id).then((tail) => {
        const failure = new EngineFailure(text, tail);
        search.reject(failure);
        this.fail(failure);
      });
      return;
    }
    // An `info string` outside a search is a note for people (pion's hint about its databases).
    if (line.startsWith("info") && !line.startsWith("info string ")) return;
    if (this.onStray) this.onStray(this, line);
  }

  /** The engine ended or broke the protocol: every wait fails, and the page is told. */
  fail(failure) {
    this.failure = failure;
    this.alive = false;
    this.rejectAll(failure);
    if (this.onFailure) this.onFailure(this, failure);
  }

  rejectAll(failure) {
    for (const w of this.waiters) { clearTimeout(w.timer); w.reject(failure); }
    this.waiters = [];
    if (this.search) { clearTimeout(this.search.timer); this.search.reject(failure); this.search = null; }
    if (this.startWaiter) { this.startWaiter.reject(failure); this.startWaiter = null; }
  }
}

/** The WebSocket to the server, dispatching its messages to the engines by id. */
export class Bridge {
  constructor(url) {
    this.url = url;
    this.engines = new Map();
    this.stderrWaiters = new Map();
    this.onHello = null;
    this.onError = null;
    this.onClose = null;
  }

  connect() {
    this.ws = new WebSocket(this.url);
    this.ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    this.ws.onclose = () => {
      this.closed = true;
      const failure = new EngineFailure("the connection to pion-web is closed");
      failure.closed = true;
      for (const engine of this.engines.values()) engine.fail(failure);
      if (this.onClose) this.onClose();
    };
  }

  engine(id) {
    if (!this.engines.has(id)) this.engines.set(id, new Engine(this, id));
    return this.engines.get(id);
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  /** The tail of an engine's stderr, asked of the server. */
  stderr(id) {
    return new Promise((resolve) => {
      this.stderrWaiters.set(id, resolve);
      this.send({ t: "stderr", id });
      setTimeout(() => resolve([]), 2000);
    });
  }

  receive(m) {
    const engine = m.id !== undefined ? this.engines.get(m.id) : null;
    switch (m.t) {
      case "hello": if (this.onHello) this.onHello(m); break;
      case "started": if (engine && engine.startWaiter) { engine.startWaiter.resolve(m); engine.startWaiter = null; } break;
      case "line": if (engine) engine.line(m.line); break;
      case "exit": if (engine) engine.fail(new EngineFailure(m.message, m.stderr)); break;
      case "stderr": {
        const waiter = this.stderrWaiters.get(m.id);
        this.stderrWaiters.delete(m.id);
        if (waiter) waiter(m.lines);
        break;
      }
      case "error":
        if (engine && engine.startWaiter) { engine.fail(new EngineFailure(m.message)); break; }
        if (this.onError) this.onError(m.message);
        break;
    }
  }
}
