#!/usr/bin/env python3
"""Trains the Awale evaluation's network on the tuner's samples and writes its weights.

usage: scripts/train_network.py DUMP... [--hidden 64] [--epochs 16] [--blend 0] [--seed 1] [--out FILE]

Each DUMP is what `TUNE_DUMP=DUMP cargo run --release --features lab --example tune -- awale ...`
writes: a header `# inputs N pits P scalars S`, then one line a sample: held out (0 or 1), the
final margin in points, the search's value in centi-points, the P active one-hot input indices,
the S scalar inputs, and the evaluation's value without the network in centi-points. The
network (inputs -> rectified hidden layer -> one output) learns the residual, target -
evaluation / 100, by mean squared error with Adam on the samples not held out, where the target
is the margin, or with --blend B the mix B * search value / 100 + (1 - B) * margin; several
dumps (of the same inputs) are trained on together. The epoch with the lowest held-out error
against the margin is kept. The report gives that held-out root
mean squared error (points) of the evaluation alone and with the network.
With --out, the weights are written as the Rust file `src/eval/awale/network/weights.rs` reads.
Needs numpy.
"""
import argparse
import sys
import time

import numpy as np


def load(paths, blend):
    shape, parts = None, []
    for path in paths:
        try:
            with open(path) as f:
                head = f.readline().split()
                has_samples = f.readline().strip() != ""
        except (OSError, UnicodeDecodeError) as e:
            sys.exit(f"{path}: cannot be read ({e})")
        numbers = len(head) == 7 and all(h.isdigit() for h in head[2::2])
        if head[:2] != ["#", "inputs"] or not numbers:
            sys.exit(f"{path}: not a tuner dump (no '# inputs N pits P scalars S' header)")
        if shape is not None and head != shape:
            sys.exit(f"{path}: its inputs ({' '.join(head[1:])}) differ from {paths[0]}'s")
        shape = head
        if not has_samples:
            sys.exit(f"{path}: no samples after the header")
        try:
            parts.append(np.loadtxt(path, dtype=np.float64, comments="#", ndmin=2))
        except ValueError as e:
            sys.exit(f"{path}: not a table of numbers ({e})")
    inputs, pits, scalars = int(shape[2]), int(shape[4]), int(shape[6])
    path = " and ".join(paths)
    if any(p.shape[1] != parts[0].shape[1] for p in parts):
        sys.exit(f"{path}: the dumps' column counts differ")
    d = np.concatenate(parts)
    if d.shape[1] != 3 + pits + scalars + 1:
        sys.exit(f"{path}: {d.shape[1]} columns, expected {3 + pits + scalars + 1}")
    held = d[:, 0] > 0.5
    margin = d[:, 1]
    target = blend * d[:, 2] / 100.0 + (1.0 - blend) * margin
    active = d[:, 3 : 3 + pits].astype(np.int64)
    if active.min() < 0 or active.max() >= inputs - scalars:
        sys.exit(f"{path}: an input index out of range 0..{inputs - scalars}")
    sc = d[:, 3 + pits : 3 + pits + scalars].astype(np.float32)
    current = d[:, -1]
    x = np.zeros((len(d), inputs), dtype=np.float32)
    np.put_along_axis(x, active, 1.0, axis=1)
    x[:, inputs - scalars :] = sc
    y = (target - current / 100.0).astype(np.float32)
    truth = (margin - current / 100.0).astype(np.float32)
    return x, y, truth, held


def train(x, y, truth, held, hidden, epochs, seed):
    rng = np.random.default_rng(seed)
    xt, yt, xh, yh = x[~held], y[~held], x[held], truth[held]
    print(f"{len(y)} samples, {len(yt)} trained on, {len(yh)} held out")
    print(f"evaluation alone: held-out rmse {np.sqrt((yh ** 2).mean()):.4f} points")
    n_in = x.shape[1]
    w1 = (rng.standard_normal((n_in, hidden)) * np.sqrt(2.0 / 16)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = np.zeros(hidden, np.float32)
    b2 = np.zeros(1, np.float32)
    params = [w1, b1, w2, b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    lr, batch, step, decay = 1e-3, 512, 0, 1e-5

    def predict(a):
        return np.maximum(a @ w1 + b1, 0) @ w2 + b2[0]

    best = (float("inf"), None, -1)
    for epoch in range(epochs):
        if epoch in (int(epochs * 0.6), int(epochs * 0.85)):
            lr *= 0.3
        start = time.time()
        order = rng.permutation(len(yt))
        for s in range(0, len(order), batch):
            i = order[s : s + batch]
            xb, yb = xt[i], yt[i]
            z = xb @ w1 + b1
            h = np.maximum(z, 0)
            g = (h @ w2 + b2[0] - yb) * (2.0 / len(i))
            gh = np.outer(g, w2) * (z > 0)
            grads = [xb.T @ gh + decay * w1, gh.sum(0), h.T @ g, np.array([g.sum()], np.float32)]
            step += 1
            for k, (p, gr) in enumerate(zip(params, grads)):
                m[k] = 0.9 * m[k] + 0.1 * gr
                v[k] = 0.999 * v[k] + 0.001 * gr * gr
                mh = m[k] / (1 - 0.9 ** step)
                vh = v[k] / (1 - 0.999 ** step)
                p -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        err = float(np.sqrt(((predict(xh) - yh) ** 2).mean()))
        print(f"epoch {epoch}: held-out rmse {err:.4f} points ({time.time() - start:.0f} s)", flush=True)
        if err < best[0]:
            best = (err, [p.copy() for p in params], epoch)
    print(f"kept epoch {best[2]}: held-out rmse {best[0]:.4f} points")
    return best[1]


def rust(params, inputs_note):
    w1, b1, w2, b2 = params
    hidden = len(b1)

    def number(x):
        # The shortest digits that read back as the same f32.
        text = np.format_float_scientific(np.float32(x), unique=True, exp_digits=2)
        return text.replace(".e", ".0e")

    def row(values):
        return "[" + ", ".join(number(x) for x in values) + "]"

    lines = [
        "//! The Awale network's weights, written by `scripts/train_network.py` (data, not code;",
        "//! the command and the fit: docs/experiments.md, \"an Awale network on top of the tables\").",
        "",
        "/// Hidden units.",
        f"pub const HIDDEN: usize = {hidden};",
        "",
        f"/// Input to hidden weights, one row an input ({inputs_note}).",
        f"pub static INPUT_WEIGHTS: [[f32; HIDDEN]; {len(w1)}] = [",
    ]
    lines += [f"    {row(r)}," for r in w1]
    lines += [
        "];",
        "",
        "/// Hidden biases.",
        f"pub const HIDDEN_BIAS: [f32; HIDDEN] = {row(b1)};",
        "",
        "/// Hidden to output weights, in points.",
        f"pub const OUTPUT_WEIGHTS: [f32; HIDDEN] = {row(w2)};",
        "",
        "/// Output bias, in points.",
        f"pub const OUTPUT_BIAS: f32 = {number(b2[0])};",
    ]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dump", nargs="+")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=16)
    ap.add_argument("--blend", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out")
    a = ap.parse_args()
    if a.hidden < 1 or a.epochs < 1:
        sys.exit("--hidden and --epochs must be at least 1")
    if not 0.0 <= a.blend <= 1.0:
        sys.exit("--blend must be between 0 and 1")
    x, y, truth, held = load(a.dump, a.blend)
    if held.all() or not held.any():
        sys.exit(f"{' and '.join(a.dump)}: needs samples both held out and not")
    params = train(x, y, truth, held, a.hidden, a.epochs, a.seed)
    if a.out:
        with open(a.out, "w") as f:
            f.write(rust(params, "see network/mod.rs"))
        print(f"weights written to {a.out}")


if __name__ == "__main__":
    main()
