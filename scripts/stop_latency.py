#!/usr/bin/env python3
"""Measures how fast pion answers `stop`: the time from sending `stop` to reading `bestmove`.

Usage: scripts/stop_latency.py [path/to/pion] [rounds]
Prints the median and the worst latency in milliseconds over the rounds, for both games.
"""
import statistics
import subprocess
import sys
import time

PION = sys.argv[1] if len(sys.argv) > 1 else "target/release/pion"
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 20


def main():
    engine = subprocess.Popen([PION], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def read_until(prefix):
        while True:
            line = engine.stdout.readline()
            if not line:
                raise SystemExit("pion exited")
            if line.startswith(prefix):
                return line

    for game in ("avalam", "awale"):
        latencies = []
        for _ in range(ROUNDS):
            send(f"newgame {game}")
            send("go infinite")
            time.sleep(0.2)
            start = time.perf_counter()
            send("stop")
            read_until("bestmove")
            latencies.append((time.perf_counter() - start) * 1000)
        print(f"{game}: stop -> bestmove median {statistics.median(latencies):.2f} ms, "
              f"max {max(latencies):.2f} ms over {ROUNDS} rounds")
    send("quit")
    engine.wait()


if __name__ == "__main__":
    main()
