#!/usr/bin/env python3
"""pion and the INF8215 Avalam course framework (game.py, agents served over XML-RPC), both ways.

    python3 scripts/inf8215_agent.py [serve] --port 8001 [--level max] [--pion PATH]
        serves pion as a course agent on 127.0.0.1: the course's game.py calls its
        play(percepts, player, step, time_left) and gets an action (i1, j1, i2, j2).

    python3 scripts/inf8215_agent.py engine --url http://127.0.0.1:8002
    python3 scripts/inf8215_agent.py engine --module my_player.py
        makes a course agent (already served, or an agent file loaded here) an engine of pion's
        protocol (protocol.md), for `referee` matches and tournaments and for pion-web.

Standard library only (Python 3.11). The course's conventions, read from its avalam.py and
game.py: the board is a 9x9 matrix `m` of signed heights, row 0 first (pion's row 9) and column 0
first (pion's column a); a positive height is a tower topped by yellow, player 1 (who moves
first), a negative one red, player -1. The percepts are the Board object as XML-RPC sends it, a
dict holding `m` (older versions of the framework send the bare matrix). `step` counts the plies
from 1, and `time_left` is the seconds left of the agent's credit for the whole game (None when
the game is untimed). A game is scored as Board.get_score does: towers, and on equal towers the
towers five high: pion's Avalam variant `tiebreak5`, which both directions use by default.
"""

import argparse
import importlib.util
import os
import queue
import socket
import subprocess
import sys
import threading
import time
import xmlrpc.client
from xmlrpc.server import SimpleXMLRPCServer

COLUMNS = "abcdefghi"
START_TOWERS = 48
VARIANTS = ["tiebreak5", "standard"]  # the course's moves are the standard ones under both
HERE = os.path.dirname(os.path.abspath(__file__))


class BadInput(Exception):
    """Percepts, a position or an action that is not what the framework or pion allows."""


# ------------------------------------------------------------------------ the board, both ways ---

def read_percepts(percepts):
    """The 9x9 matrix of signed heights in the percepts (a dict with `m`, or a bare matrix)."""
    if isinstance(percepts, dict):
        if "m" not in percepts:
            raise BadInput(f"percepts: a dict without the board 'm' (keys: {sorted(percepts)[:6]})")
        if percepts.get("max_height", 5) != 5:
            raise BadInput(f"percepts: max_height {percepts['max_height']!r}, Avalam's is 5")
        matrix = percepts["m"]
    else:
        matrix = percepts
    if not isinstance(matrix, (list, tuple)) or len(matrix) != 9:
        size = len(matrix) if isinstance(matrix, (list, tuple)) else type(matrix).__name__
        raise BadInput(f"percepts: the board must be 9 rows of 9 heights, got {size} rows")
    for i, row in enumerate(matrix):
        if not isinstance(row, (list, tuple)) or len(row) != 9:
            size = len(row) if isinstance(row, (list, tuple)) else type(row).__name__
            raise BadInput(f"percepts: row {i} must have 9 heights, got {size}")
        for j, h in enumerate(row):
            if type(h) is not int or not -5 <= h <= 5:
                raise BadInput(f"percepts: m[{i}][{j}] is {h!r}, not a height from -5 to 5")
    return [list(row) for row in matrix]


def matrix_to_board(matrix):
    """pion's board token of a course matrix: the same rows in the same order (row 0 is row 9)."""
    rows = []
    for row in matrix:
        cells = ""
        for h in row:
            cells += "." if h == 0 else ("y" if h > 0 else "r") + (str(abs(h)) if abs(h) > 1 else "")
        rows.append(cells)
    return "/".join(rows)


def board_to_matrix(board):
    """The course matrix of pion's board token; raises BadInput naming the fault."""
    rows = board.split("/")
    if len(rows) != 9:
        raise BadInput(f"bad Avalam board: {len(rows)} rows, expected 9")
    matrix = []
    for i, text in enumerate(rows):
        row, k = [], 0
        while k < len(text):
            ch, k = text[k], k + 1
            if ch == ".":
                row.append(0)
            elif ch in "yr":
                h = 1
                if k < len(text) and text[k].isdigit():
                    h, k = int(text[k]), k + 1
                if not 1 <= h <= 5:
                    raise BadInput(f"bad Avalam board: row {9 - i}: height {h}")
                row.append(h if ch == "y" else -h)
            else:
                raise BadInput(f"bad Avalam board: row {9 - i}: unknown character {ch!r}")
        if len(row) != 9:
            raise BadInput(f"bad Avalam board: row {9 - i} has {len(row)} cells, expected 9")
        matrix.append(row)
    return matrix


def cell_name(i, j):
    """pion's name of the course's cell (row i, column j): row 0 is row 9."""
    return f"{COLUMNS[j]}{9 - i}"


def action_to_move(action):
    """pion's move text of a course action (i1, j1, i2, j2); raises BadInput when malformed."""
    if not isinstance(action, (list, tuple)) or len(action) != 4 or \
            any(type(x) is not int for x in action):
        raise BadInput(f"the action {shorten(repr(action))} is not four whole numbers "
                       "(i1, j1, i2, j2)")
    if any(not 0 <= x <= 8 for x in action):
        raise BadInput(f"the action {shorten(action)} leaves the 9x9 board")
    i1, j1, i2, j2 = action
    return cell_name(i1, j1) + cell_name(i2, j2)


def move_to_action(move):
    """The course action (i1, j1, i2, j2) of pion's move text `a1b2`."""
    if len(move) != 4 or move[0] not in COLUMNS or move[2] not in COLUMNS or \
            not move[1].isdigit() or not move[3].isdigit():
        raise BadInput(f"pion answered {move!r}, not a move")
    return [9 - int(move[1]), COLUMNS.index(move[0]), 9 - int(move[3]), COLUMNS.index(move[2])]


def legal_actions(matrix):
    """Every legal action of the course's rules: a tower onto a neighbour, at most 5 high."""
    actions = []
    for i in range(9):
        for j in range(9):
            h1 = abs(matrix[i][j])
            if not 0 < h1 < 5:
                continue
            for di in (-1, 0, 1):
                for dj in (-1, 0, 1):
                    i2, j2 = i + di, j + dj
                    if (di or dj) and 0 <= i2 < 9 and 0 <= j2 < 9:
                        h2 = abs(matrix[i2][j2])
                        if h2 and h1 + h2 <= 5:
                            actions.append((i, j, i2, j2))
    return actions


def play_action(matrix, action):
    """Plays a legal action on the matrix: the moved tower keeps its top on the destination."""
    i1, j1, i2, j2 = action
    h = abs(matrix[i1][j1]) + abs(matrix[i2][j2])
    matrix[i2][j2] = h if matrix[i1][j1] > 0 else -h
    matrix[i1][j1] = 0


def shorten(value, limit=60):
    """A value on one line (text as it is, anything else as Python writes it), cut to `limit`."""
    text = " ".join((value if isinstance(value, str) else repr(value)).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


# -------------------------------------------------------------------------- pion as an agent ---

def find_pion(path):
    """The pion binary: --pion, $PION, the repository's release build, or `pion` on PATH."""
    for candidate in (path, os.environ.get("PION"),
                      os.path.normpath(os.path.join(HERE, "..", "target", "release", "pion"))):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return "pion"


class Pion:
    """A pion child process, spoken to line by line with a deadline on every wait."""

    def __init__(self, path, options):
        self.path, self.options = path, options
        self.process = None

    def start(self):
        try:
            self.process = subprocess.Popen(
                [self.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=sys.stderr, text=True, bufsize=1)
        except OSError as e:
            raise SystemExit(f"inf8215_agent: cannot start pion '{self.path}': {e} "
                             "(build it with cargo build --release, or give --pion PATH)")
        self.lines = queue.Queue()
        threading.Thread(target=self._read, args=(self.process.stdout, self.lines),
                         daemon=True).start()
        self.send("pion")
        self.wait_for("pionok", 10)
        for name, value in self.options:
            self.send(f"setoption name {name} value {value}")
        errors = self.sync(10)
        if errors:
            raise SystemExit(f"inf8215_agent: pion refused the options: {errors[0]}")

    @staticmethod
    def _read(stream, lines):
        for line in stream:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    def send(self, line):
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise RuntimeError("pion has exited")

    def next_line(self, deadline):
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise RuntimeError("pion did not answer in time")
        if line is None:
            raise RuntimeError("pion has exited")
        return line

    def wait_for(self, word, seconds):
        """Lines until one starting with `word`; the others, in order."""
        deadline, seen = time.monotonic() + seconds, []
        while True:
            line = self.next_line(deadline)
            if line.split()[:1] == [word]:
                return line, seen
            seen.append(line)

    def sync(self, seconds):
        """`isready`, and the `error` lines pion wrote before its `readyok`."""
        self.send("isready")
        _, seen = self.wait_for("readyok", seconds)
        return [line for line in seen if line.startswith("error")]

    def stop(self):
        if self.process and self.process.poll() is None:
            try:
                self.send("quit")
                self.process.wait(2)
            except (RuntimeError, subprocess.TimeoutExpired):
                self.process.kill()


class PionAgent:
    """The course's Agent interface, answered by pion."""

    def __init__(self, pion, level, untimed_ms):
        self.pion, self.level, self.untimed_ms = pion, level, untimed_ms

    def get_agent_id(self):
        return f"pion ({self.level})"

    def initialize(self, percepts, players, time_left):
        return None

    def finished(self, *args):
        return None

    def pool_ended(self, *args):
        return None

    def play(self, percepts, player, step, time_left, *ignored):
        """An action (i1, j1, i2, j2) for `player` (1 or -1) on the percepts' board."""
        try:
            return self._play(percepts, player, time_left)
        except BadInput as e:
            print(f"inf8215_agent: refused: {e}", file=sys.stderr, flush=True)
            raise
        except RuntimeError as e:
            # A pion that died or hung is started again for the next call.
            print(f"inf8215_agent: {e}; starting pion again", file=sys.stderr, flush=True)
            self.pion.stop()
            self.pion.start()
            raise

    def _play(self, percepts, player, time_left):
        matrix = read_percepts(percepts)
        if type(player) is not int or player not in (1, -1):
            raise BadInput(f"player must be 1 (yellow, positive heights) or -1, not {shorten(player)}")
        if not legal_actions(matrix):
            raise BadInput("percepts: the game is over on this board (no action is left)")
        side = 1 if player == 1 else 2
        self.pion.send(f"position {matrix_to_board(matrix)} {side}")
        errors = self.pion.sync(10)
        if errors:
            raise BadInput(f"percepts: not an Avalam board: {errors[0]}")
        if time_left is None:
            go, wait = f"go movetime {self.untimed_ms}", self.untimed_ms / 1000 + 10
        else:
            # pion shares the credit among the moves it expects the game to last.
            ms = max(1, int(float(time_left) * 1000))
            go, wait = f"go p{side}time {ms}", ms / 1000 + 10
        self.pion.send(go)
        line, _ = self.pion.wait_for("bestmove", wait)
        move = line.split()[1] if len(line.split()) > 1 else "none"
        if move == "none":
            raise BadInput("the game is over on this board")
        return move_to_action(move)


def serve(args):
    options = [("Variant", args.variant), ("Level", args.level),
               ("MoveOverhead", args.overhead)]
    pion = Pion(find_pion(args.pion), options)
    pion.start()
    try:
        server = SimpleXMLRPCServer((args.bind, args.port), allow_none=True, logRequests=False)
    except OSError as e:
        pion.stop()
        raise SystemExit(f"inf8215_agent: cannot listen on {args.bind}:{args.port}: {e}")
    server.register_instance(PionAgent(pion, args.level, args.untimed_ms))
    print(f"pion ({args.level}, {args.variant}) listening on http://{args.bind}:{args.port}",
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        pion.stop()


# ------------------------------------------------------------------- a course agent as engine ---

def load_module_agent(path, class_name):
    """An instance of the agent class defined in the file `path` (the one named, or the only
    class there with a `play` method, preferring subclasses of the course's Agent)."""
    if not os.path.isfile(path):
        raise SystemExit(f"inf8215_agent: no agent file {path}")
    folder = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, folder)  # its `from avalam import *` finds the course files beside it
    name = "inf8215_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except BaseException as e:
        raise SystemExit(f"inf8215_agent: loading {path} failed: {type(e).__name__}: {e}")
    classes = [c for c in vars(module).values()
               if isinstance(c, type) and c.__module__ == name and callable(getattr(c, "play", None))]
    if class_name:
        classes = [c for c in classes if c.__name__ == class_name]
    agents = [c for c in classes if any(b.__name__ == "Agent" for b in c.__mro__[1:])] or classes
    if len(agents) != 1:
        found = ", ".join(c.__name__ for c in agents) or "none"
        raise SystemExit(f"inf8215_agent: {path}: expected one agent class with a play method, "
                         f"found {found} (choose with --class NAME)")
    try:
        return agents[0](), agents[0].__name__
    except BaseException as e:
        raise SystemExit(f"inf8215_agent: {agents[0].__name__}() failed: {type(e).__name__}: {e}")


class Seat:
    """Calls the agent's play on a worker thread, so that a slow or stuck agent never blocks
    the protocol: the answer is awaited until the deadline, then reported late."""

    def __init__(self, call):
        self.call = call

    def ask(self, args, seconds):
        box = queue.Queue()

        def run():
            try:
                box.put(("ok", self.call(*args)))
            except BaseException as e:  # the agent's own exception, reported as its forfeit
                box.put(("raised", describe(e)))
        threading.Thread(target=run, daemon=True).start()
        try:
            return box.get(timeout=seconds)
        except queue.Empty:
            return ("late", None)


def describe(error):
    """An agent's exception in one line, the XML-RPC fault text or socket error included."""
    if isinstance(error, xmlrpc.client.Fault):
        return f"the agent's server raised {shorten(error.faultString, 200)}"
    if isinstance(error, (ConnectionRefusedError, socket.gaierror)):
        return f"nobody answers at the agent's URL ({error})"
    if isinstance(error, (OSError, xmlrpc.client.ProtocolError)):
        return f"the agent's URL failed ({shorten(str(error), 200)})"
    return f"the agent raised {type(error).__name__}: {shorten(str(error), 200)}"


class Wrapper:
    """pion's protocol (the subset referee and pion-web use) for a course agent."""

    def __init__(self, name, call, out):
        self.name, self.seat, self.out = name, Seat(call), out
        self.variant = VARIANTS[0]
        self.board, self.side, self.moves = None, 1, []

    def say(self, line):
        self.out.write(line + "\n")
        self.out.flush()

    def handle(self, line):
        words = line.split()
        if not words:
            return True
        command, rest = words[0], words[1:]
        if command in ("pion", "ugi"):
            self.say(f"id name {self.name}")
            self.say("id author a student of INF8215, served by pion's inf8215_agent.py")
            if command == "pion":
                self.say("game avalam")
            vars_ = " ".join(f"var {v}" for v in VARIANTS)
            self.say(f"option name Variant type combo default {VARIANTS[0]} {vars_}")
            self.say("pionok" if command == "pion" else "ugiok")
        elif command == "isready":
            self.say("readyok")
        elif command in ("newgame", "uginewgame"):
            if rest and rest[0].lower() != "avalam":
                self.say(f"error newgame: a course agent plays avalam only, not '{rest[0]}'")
        elif command == "setoption":
            self.setoption(rest)
        elif command == "position":
            try:
                self.position(rest)
            except BadInput as e:
                self.say(f"error position: {e}")
        elif command == "go":
            self.go(rest)
        elif command == "quit":
            return False
        elif command == "stop":
            pass
        else:
            self.say(f"error unknown command '{shorten(command, 40)}' (a course agent answers "
                     "pion, ugi, isready, newgame, setoption, position, go, quit)")
        return True

    def setoption(self, rest):
        text = " ".join(rest)
        if not text.startswith("name ") or " value " not in text:
            self.say("error setoption: usage: setoption name <Name> value <v>")
            return
        name, value = text[5:].split(" value ", 1)
        if name.strip().lower() == "game" and value.strip().lower() == "avalam":
            return
        if name.strip().lower() != "variant":
            self.say(f"error setoption: a course agent has no option {name.strip()}")
        elif value.strip().lower() not in VARIANTS:
            self.say(f"error setoption: a course agent plays the standard moves "
                     f"({', '.join(VARIANTS)}), not '{value.strip()}'")
        else:
            self.variant = value.strip().lower()

    def position(self, rest):
        if rest[:1] == ["startpos"]:
            board, side, rest = "..yr...../.yryr..../.ryryry../.yryryryr/yryr.ryry/" \
                                "ryryryry./..yryryr./....ryry./.....ry..", "1", rest[1:]
        else:
            if rest[:1] == ["fen"]:
                rest = rest[1:]
            if len(rest) < 2:
                raise BadInput("expected startpos or <board> <side>")
            board, side, rest = rest[0], rest[1], rest[2:]
        if side not in ("1", "2"):
            raise BadInput(f"the side to move is 1 or 2, not '{shorten(side, 20)}'")
        matrix = board_to_matrix(board)
        side = int(side)
        if rest and rest[0] != "moves":
            raise BadInput(f"unexpected '{shorten(rest[0], 20)}' (expected moves)")
        for move in rest[1:]:
            action = move_to_action(move)
            if tuple(action) not in legal_actions(matrix):
                raise BadInput(f"illegal move {shorten(move, 20)}")
            play_action(matrix, action)
            side = 3 - side
        self.board, self.side = matrix, side

    def go(self, rest):
        """Asks the agent for an action within the time `go` gives, and answers `bestmove`, or
        `error <reason>` (the referee records it as the agent's forfeit) when it fails."""
        if self.board is None:
            self.say("error go: no position was given")
            return
        params = {}
        for key, value in zip(rest, rest[1:]):
            if value.lstrip("-").isdigit():
                params[key] = int(value)
        own = params.get(f"p{self.side}time")
        if own is not None:
            time_left = max(0, own) / 1000  # the agent's whole credit, as game.py gives it
        elif "movetime" in params:
            time_left = params["movetime"] / 1000
        else:
            time_left = None  # untimed, as game.py says
        if not legal_actions(self.board):
            self.say("bestmove none")
            return
        towers = sum(1 for row in self.board for h in row if h)
        step = max(1, START_TOWERS - towers + 1)
        player = 1 if self.side == 1 else -1
        percepts = {"m": [row[:] for row in self.board], "rows": 9, "columns": 9, "max_height": 5}
        # The referee forfeits a late answer itself; this wait only keeps the wrapper alive.
        wait = (time_left + 2) if time_left is not None else 3600
        outcome, value = self.seat.ask((percepts, player, step, time_left), wait)
        if outcome == "raised":
            self.say(f"error {value}")
        elif outcome == "late":
            self.say(f"error the agent answered no action within {wait:.1f} s")
        else:
            try:
                move = action_to_move(value)
            except BadInput as e:
                self.say(f"error the agent returned a malformed action: {e}")
                return
            # A well-formed but illegal action goes to the referee, which judges it by the rules.
            self.say(f"bestmove {move}")


def engine(args):
    if bool(args.url) == bool(args.module):
        raise SystemExit("inf8215_agent engine: give one of --url URL or --module FILE")
    # The protocol owns stdout: whatever the agent prints goes to stderr (the referee's log).
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    if args.url:
        if not args.url.startswith(("http://", "https://")):
            raise SystemExit(f"inf8215_agent: --url {args.url}: expected http://HOST:PORT")
        def call(percepts, player, step, time_left):
            # A fresh proxy each call: a late answer to an abandoned call is never read as the
            # next one's. The socket waits no longer than the move may take.
            timeout = (time_left + 1) if time_left is not None else None
            transport = TimeoutTransport(timeout)
            proxy = xmlrpc.client.ServerProxy(args.url, allow_none=True, transport=transport)
            return proxy.play(percepts, player, step, time_left)
        name = args.name or "agent@" + args.url.split("//", 1)[1].rstrip("/")
    else:
        agent, class_name = load_module_agent(args.module, args.agent_class)
        call = agent.play
        name = args.name or class_name
    wrapper = Wrapper(name.replace(" ", "_"), call, out)
    for line in sys.stdin:
        if not wrapper.handle(line.strip()):
            break
    out.flush()
    os._exit(0)  # an agent thread still thinking must not keep the process alive


class TimeoutTransport(xmlrpc.client.Transport):
    """An XML-RPC transport whose socket gives up after `timeout` seconds."""

    def __init__(self, timeout):
        super().__init__()
        self.timeout = timeout

    def make_connection(self, host):
        connection = super().make_connection(host)
        connection.timeout = self.timeout
        return connection


def main(argv):
    parser = argparse.ArgumentParser(
        prog="inf8215_agent.py",
        description="pion as an INF8215 course agent (serve, the default), or a course agent "
                    "as an engine of pion's protocol (engine).")
    sub = parser.add_subparsers(dest="mode")
    s = sub.add_parser("serve", help="serve pion as a course agent over XML-RPC")
    s.add_argument("-p", "--port", type=int, default=8000, help="port (default 8000)")
    s.add_argument("-b", "--bind", default="127.0.0.1", help="address (default 127.0.0.1)")
    s.add_argument("--level", default="max", help="pion's Level: random, greedy, basic, divine, max")
    s.add_argument("--variant", default="tiebreak5", help="pion's Variant (default tiebreak5)")
    s.add_argument("--pion", help="the pion binary (default: target/release/pion, then PATH)")
    s.add_argument("--overhead", type=int, default=100,
                   help="ms kept per move for XML-RPC and game.py (pion's MoveOverhead)")
    s.add_argument("--untimed-ms", type=int, default=2000,
                   help="ms a move in an untimed game (time_left None), default 2000")
    e = sub.add_parser("engine", help="a course agent as an engine of pion's protocol")
    e.add_argument("--url", help="an agent already served, e.g. http://127.0.0.1:8002")
    e.add_argument("--module", help="an agent file (my_player.py), loaded here")
    e.add_argument("--class", dest="agent_class", help="the agent class in --module")
    e.add_argument("--name", help="the engine's name (default: the class or the URL)")
    if not argv or argv[0] not in ("serve", "engine", "-h", "--help"):
        argv = ["serve"] + argv
    args = parser.parse_args(argv)
    if args.mode == "engine":
        engine(args)
    else:
        if not 1 <= args.port <= 65535:
            parser.error(f"--port {args.port} is not a port number (1..65535)")
        serve(args)


if __name__ == "__main__":
    main(sys.argv[1:])
