#!/usr/bin/env python3
"""An engine for pion-web's bridge tests that speaks just enough of the protocol to start, then
breaks in one way when it is sent `go`.

Usage: broken_engine.py MODE, where MODE is
  crash      write two lines on stderr and exit with status 3
  hang       never answer (isready is still answered)
  garbage    print a line that is not the protocol, and bytes that are not UTF-8
  long       print one line of 200,000 bytes
  child      (at start) start a `sleep` grandchild and say its pid in `info string child PID`
"""

import subprocess
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "crash"
out = sys.stdout

if mode == "child":
    child = subprocess.Popen(["sleep", "300"])

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "pion":
        out.write("id name broken\ngame avalam\ngame awale\npionok\n")
        if mode == "child":
            out.write(f"info string child {child.pid}\n")
    elif words[0] == "isready":
        out.write("readyok\n")
    elif words[0] == "quit":
        break
    elif words[0] == "go":
        if mode == "crash":
            sys.stderr.write("thinking hard\npanic: out of cheese at move 1\n")
            sys.stderr.flush()
            sys.exit(3)
        elif mode == "garbage":
            out.write("hello there, I am not an engine\n")
            out.flush()
            sys.stdout.buffer.write(b"\xff\xfe bytes\n")
        elif mode == "long":
            out.write("info string " + "x" * 200_000 + "\n")
    out.flush()
