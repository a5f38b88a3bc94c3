"""Drives an engine process through the pion protocol, for the scripts in this directory.

Every failure (an engine that cannot start, exits, answers `error`, or goes silent) ends the
script with one line on stderr and status 1, rather than a traceback or a hang.
"""

import os
import select
import signal
import subprocess
import sys

# The engine the scripts use unless told otherwise: this checkout's release build, wherever the
# script is run from.
DEFAULT_ENGINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "pion")

# How long an engine may take to answer `isready` when it starts, and to finish one search.
START_TIMEOUT_S = 10
SEARCH_TIMEOUT_S = 600

# The score of a proven win, in centipoints: more than any game's margin.
PROVEN = 100_000


def fail(script, message):
    """Ends the script with `script: message` on stderr and status 1."""
    print(f"{script}: {message}", file=sys.stderr)
    sys.exit(1)


class Engine:
    """An engine process: lines out on its stdin, lines back from its stdout, with deadlines."""

    def __init__(self, script, command, game):
        self.script, self.command = script, command
        try:
            self.process = subprocess.Popen(
                command,
                shell=True,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as e:
            fail(script, f"cannot start the engine '{command}': {e}")
        self.buffer = b""
        self.send(f"setoption name Game value {game}")
        self.send("isready")
        self.read_until("readyok", START_TIMEOUT_S)

    def fail(self, message):
        """Fails with `message` and the engine's first line on stderr, if it wrote one."""
        # The whole process group: `sh -c` may have children holding stderr open.
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except OSError:
            pass
        err = b""
        fd = self.process.stderr.fileno()
        while select.select([fd], [], [], 1)[0]:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            err += chunk
        err = err.decode(errors="replace").strip().splitlines()
        detail = f" (its stderr: {err[0]})" if err else ""
        fail(self.script, f"the engine '{self.command}' {message}{detail}")

    def send(self, line):
        try:
            self.process.stdin.write((line + "\n").encode())
            self.process.stdin.flush()
        except OSError:
            self.fail(f"exited before reading '{line}'")

    def read_line(self, timeout):
        fd = self.process.stdout.fileno()
        while b"\n" not in self.buffer:
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                self.fail(f"sent no line within {timeout} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                self.fail("exited")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode(errors="replace").strip()

    def read_until(self, prefix, timeout=SEARCH_TIMEOUT_S):
        """The lines up to the first that starts with `prefix`, that one last."""
        lines = []
        while True:
            line = self.read_line(timeout)
            if line.startswith("error"):
                self.fail(f"answered '{line}'")
            lines.append(line)
            if line.split(" ", 1)[0] == prefix:
                return lines

    def score(self, position, depth):
        """The last score of `go depth <depth>` from a fresh table after the `position`
        command: centipoints for the side to move, with a proven draw as 0 and a proven win or
        loss as +/- PROVEN."""
        self.send("newgame")
        self.send(position)
        self.send(f"go depth {depth}")
        scored = [line for line in self.read_until("bestmove") if " score " in line]
        if not scored:
            self.fail(f"reported no score for '{position}'")
        words = scored[-1].split(" score ")[1].split()
        if words[0] == "cp":
            return int(words[1])
        return {"draw": 0, "win": PROVEN, "loss": -PROVEN}[words[0]]

    def close(self):
        self.send("quit")
        self.process.wait()
