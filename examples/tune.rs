//! Fits the evaluation weights of a game to self-play results:
//! `cargo run --release --features lab --example tune -- <avalam|awale> [games] [nodes] [seed] [egtb-dir]`
//! (defaults: 2000 games, 4000 nodes per move, seed 1, no databases).
//!
//! Method.
//! 1. Data: `games` self-play games of pion's alpha-beta (`Level max`, the weights in the eval
//!    file) at a fixed node budget per move, each from its own random opening of 4 to 9 (Avalam)
//!    or 4 to 11 (Awale) uniformly random plies, from a xoshiro generator seeded by the game's
//!    own seed; the games' seeds are drawn from `seed`, so a run is reproducible whatever the
//!    number of cores the games are shared out on. Every position after the opening that is
//!    not over and that the evaluation would really be asked about (Avalam positions with an `exact_value` are scored by
//!    the search without the evaluation, so they are left out) becomes a sample: its feature
//!    vector `features(pos)` (side to move's view, the same vector `evaluate` multiplies by
//!    `WEIGHTS`) and the game's final point margin for the side to move.
//!    With Awale endgame databases (`egtb-dir`), the players probe them too, and a position is
//!    labelled by their exact margin instead: its own where they hold it (these positions are
//!    kept as samples, since the evaluation is asked about them whenever the engine runs
//!    without databases), else that of the game's first later position they hold, which is
//!    what the game was worth when it came down to their seed count (the endgame's own mistakes
//!    then do not blur the middlegame's labels).
//!    Where the search plays out captures past its horizon (Awale), a sample is taken at the
//!    quiet position its captures lead to instead (a captures-only negamax with the current
//!    evaluation, where the side to move may always stand pat), with the label seen from that
//!    position's side to move: the evaluation is only ever asked about such positions. Awale's
//!    features also include the pit and pair tables' entries: one feature for each pit of each
//!    row and each seed count, and one for each two neighbouring pits and each pair of coarse
//!    counts, in each of the two phases, worth the share of that phase at this position (the
//!    seeds on the board out of 48 for the full board's, the rest for the empty board's).
//! 2. Least squares (the fit used): `evaluate` is defined as the expected final margin in
//!    hundredths of a point, so the weights are the ridge least-squares solution of
//!    `w . f ~= 100 * margin` (normal equations, lambda = 1e-3 per sample pulling each weight
//!    towards its current value, so a rarely seen feature keeps about its old weight), solved by
//!    Gaussian elimination. No intercept: `evaluate` has none.
//! 3. Texel cross-check: a logistic regression of the game result (1, 1/2, 0 for the side to
//!    move) on the same features, fitted by Newton's method (its ridge term pulls towards zero,
//!    not towards the current weights: those are on another scale), then scaled onto the
//!    centi-point axis by the one factor that best fits the margins. Its direction tells whether the
//!    least-squares weights are pulled by a few lopsided margins.
//! 4. Games are split by index: every fifth game is held out, and both fits and the current
//!    weights are scored there (margin RMSE in points, result log-loss at the best scale), so an
//!    over-fitted weight shows up as a worse held-out score.
//!
//! The weights it prints are rounded to integers for the `WEIGHTS` constant; a change is kept
//! only after a referee match between the old and new binaries shows a gain (see docs/engine.md).
//!
//! With `TUNE_DUMP=FILE` (Awale), it fits nothing: it writes the samples for the evaluation's
//! network instead (`scripts/train_network.py` says the format; the search's own value at each
//! sampled position is in it too). Run it with `MALLOC_MMAP_THRESHOLD_=1048576`: each game
//! allocates and frees two hash tables, and glibc's moving threshold otherwise takes them from a
//! heap the samples kept meanwhile fragment (8000 games grew past 20 GB before it was set).

// The small dense matrix code below reads best with explicit indices.
#![allow(clippy::needless_range_loop)]

use std::sync::atomic::AtomicBool;

use pion::search::{Evaluate, Limits, SearchGame, Searcher, Settings};
use pion_rules::avalam::Avalam;
use pion_rules::awale::Awale;
use pion_rules::game::History;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// What the tuner needs from a game: its feature vector and current weights.
trait Tunable: SearchGame + Evaluate {
    /// Feature names, in order.
    fn names() -> Vec<String>;
    /// The weights in the eval file, in the order of the names.
    fn current() -> Vec<f64>;
    /// The range of random opening plies.
    const OPENING: (usize, usize);
    /// The evaluation's feature vector.
    fn feature_vector(&self) -> Vec<f64>;
    /// The exact final margin for the side to move from an installed database, if any holds
    /// this position.
    fn database_margin(&self) -> Option<i32> {
        None
    }
    /// Whether the search plays out captures past its horizon: then samples are the quiet
    /// positions those lines end on.
    const QUIET: bool = false;
    /// The position as a line of numbers for `TUNE_DUMP` (the network's inputs and the
    /// evaluation without the network), empty when the game has none.
    fn raw(&self) -> String {
        String::new()
    }
    /// The first line of a `TUNE_DUMP` file: what its numbers are.
    fn raw_header() -> String {
        String::new()
    }
    /// The fitted weights as the eval file spells them.
    fn print_weights(w: &[f64]) {
        println!("WEIGHTS = [{}]", rounded(w));
    }
}

/// Weights rounded to integers, comma-separated, as the eval files spell them.
fn rounded(w: &[f64]) -> String {
    let ints: Vec<String> = w.iter().map(|x| (x.round() as i64).to_string()).collect();
    ints.join(", ")
}

impl Tunable for Avalam {
    fn names() -> Vec<String> {
        pion::eval::avalam::FEATURE_NAMES.map(String::from).to_vec()
    }
    fn current() -> Vec<f64> {
        pion::eval::avalam::WEIGHTS.map(f64::from).to_vec()
    }
    const OPENING: (usize, usize) = (4, 9);
    fn feature_vector(&self) -> Vec<f64> {
        pion::eval::avalam::features(self)
            .iter()
            .map(|&x| x as f64)
            .collect()
    }
}

impl Tunable for Awale {
    fn names() -> Vec<String> {
        use pion::eval::awale::{BUCKETS, FEATURE_NAMES, PAIR_BUCKETS};
        let mut names = FEATURE_NAMES.map(String::from).to_vec();
        for phase in ["full", "empty"] {
            for side in ["own", "their"] {
                for pit in 0..6 {
                    for b in 1..BUCKETS {
                        names.push(format!("{phase} {side} {} {b}", (b'A' + pit) as char));
                    }
                }
            }
        }
        for phase in ["full", "empty"] {
            for side in ["own", "their"] {
                for pit in 0..5 {
                    for c in 0..PAIR_BUCKETS * PAIR_BUCKETS {
                        let (a, b) = (c / PAIR_BUCKETS, c % PAIR_BUCKETS);
                        let (p, q) = ((b'A' + pit) as char, (b'B' + pit) as char);
                        names.push(format!("{phase} {side} {p}{q} {a}x{b}"));
                    }
                }
            }
        }
        names
    }
    fn current() -> Vec<f64> {
        use pion::eval::awale::{PAIR_TABLE, PIT_TABLE, WEIGHTS};
        let mut w = WEIGHTS.map(f64::from).to_vec();
        for phase in PIT_TABLE {
            for side in phase {
                for pit in side {
                    w.extend(pit[1..].iter().map(|&x| x as f64));
                }
            }
        }
        for phase in PAIR_TABLE {
            for side in phase {
                for pair in side {
                    w.extend(pair.iter().map(|&x| x as f64));
                }
            }
        }
        w
    }
    const OPENING: (usize, usize) = (4, 11);
    const QUIET: bool = true;
    fn feature_vector(&self) -> Vec<f64> {
        use pion::eval::awale::{
            FEATURES, PAIR_ENTRIES, TABLE_ENTRIES, features, on_board, pair_entries, table_entries,
        };
        let mut f: Vec<f64> = features(self).iter().map(|&x| x as f64).collect();
        f.resize(FEATURES + 2 * TABLE_ENTRIES + 2 * PAIR_ENTRIES, 0.0);
        // The tables of the two phases, mixed by the seeds on the board.
        let full = on_board(self) as f64 / pion_rules::awale::SEEDS as f64;
        for entry in table_entries(self) {
            f[FEATURES + entry] = full;
            f[FEATURES + TABLE_ENTRIES + entry] = 1.0 - full;
        }
        let pairs = FEATURES + 2 * TABLE_ENTRIES;
        for entry in pair_entries(self) {
            f[pairs + entry] = full;
            f[pairs + PAIR_ENTRIES + entry] = 1.0 - full;
        }
        f
    }
    fn database_margin(&self) -> Option<i32> {
        pion::egtb::probe(self).map(|p| p.margin)
    }
    fn raw(&self) -> String {
        let (active, scalars) = pion::eval::awale::network::inputs(self);
        let mut out: Vec<String> = active.iter().map(|a| a.to_string()).collect();
        out.extend(scalars.iter().map(|x| x.to_string()));
        // The evaluation without the network: what the network is trained to correct.
        out.push(pion::eval::awale::fitted(self).to_string());
        out.join(" ")
    }
    fn raw_header() -> String {
        use pion::eval::awale::network::{COUNTS, INPUTS, PIT_INPUTS, SCALARS};
        format!(
            "# inputs {INPUTS} pits {} scalars {SCALARS}",
            PIT_INPUTS / COUNTS
        )
    }
    fn print_weights(w: &[f64]) {
        use pion::eval::awale::{BUCKETS, FEATURES, PAIR_BUCKETS, TABLE_ENTRIES};
        println!("WEIGHTS = [{}]", rounded(&w[..FEATURES]));
        // The empty pit's entry, the reference, is 0.
        print_table("PIT_TABLE", &w[FEATURES..], 6, BUCKETS - 1, "0, ");
        let pairs = &w[FEATURES + 2 * TABLE_ENTRIES..];
        print_table("PAIR_TABLE", pairs, 5, PAIR_BUCKETS * PAIR_BUCKETS, "");
    }
}

/// Prints tables of weights `w` (phase, then row, then `cells` cells of `len` entries each) as
/// the eval file spells them, each cell's list starting with `lead`.
fn print_table(name: &str, w: &[f64], cells: usize, len: usize, lead: &str) {
    println!("{name} = [");
    for phase in 0..2 {
        println!("    [");
        for side in 0..2 {
            println!("        [");
            for cell in 0..cells {
                let at = ((phase * 2 + side) * cells + cell) * len;
                println!("            [{lead}{}],", rounded(&w[at..at + len]));
            }
            println!("        ],");
        }
        println!("    ],");
    }
    println!("];");
}

/// Where the captures from `pos` settle: a captures-only negamax in which the side to move may
/// always stand on its static value, as the engine's quiescence search does. Returns the value
/// for the side to move and the last position of the principal line (`None` when that line
/// ends the game).
fn quiet_leaf<G: Evaluate>(pos: &G, mut alpha: i32, beta: i32, depth: u32) -> (i32, Option<G>) {
    if let Some(outcome) = pos.outcome() {
        return (100 * outcome.margin_for(pos.side_to_move()), None);
    }
    let stand = pos.evaluate();
    let mut best = (stand, Some(*pos));
    if stand >= beta || depth == 0 {
        return best;
    }
    alpha = alpha.max(stand);
    let mut moves = G::Moves::default();
    pos.legal_moves(&mut moves);
    for &mv in moves.as_ref() {
        if pos.order_score(mv) <= 0 {
            continue;
        }
        let mut child = *pos;
        child.play(mv);
        let (v, leaf) = quiet_leaf(&child, -beta, -alpha, depth - 1);
        if -v > best.0 {
            best = (-v, leaf);
            alpha = alpha.max(-v);
            if -v >= beta {
                break;
            }
        }
    }
    best
}

/// A reported score in centi-points (a proven result by its margin).
fn centi(score: pion_protocol::Score) -> f64 {
    use pion_protocol::Score;
    match score {
        Score::Centi(c) => c as f64,
        Score::Win(n) => 100.0 * n as f64,
        Score::Draw => 0.0,
        Score::Loss(n) => -100.0 * n as f64,
        // Only other engines say mate; pion's own search never does.
        Score::Mate(n) => 2500.0 * (n as f64).signum(),
    }
}

/// One labelled position.
struct Sample {
    /// The non-zero features, by index (most of the tables' indicators are zero).
    features: Vec<(usize, f64)>,
    /// Final margin in points for the side to move.
    margin: f64,
    /// 1, 0.5 or 0 for the side to move.
    result: f64,
    /// Held out of the fit.
    held_out: bool,
    /// The search's value where the sample was taken, in centi-points for the side to move.
    score: f64,
    /// The position as numbers, for `TUNE_DUMP`.
    raw: String,
}

/// Plays `games` self-play games on every core (each game from its own seed drawn from `seed`,
/// so the samples do not depend on the number of threads) and returns their samples in game
/// order.
fn self_play<G: Tunable>(games: usize, nodes: u64, seed: u64) -> Vec<Sample> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let seeds: Vec<u64> = (0..games).map(|_| rng.random()).collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let dumping = std::env::var_os("TUNE_DUMP").is_some();
    let mut played: Vec<(usize, Vec<Sample>, usize)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let g = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if g >= games {
                            return mine;
                        }
                        let (samples, plies) = play_game::<G>(g, seeds[g], nodes, dumping);
                        if (g + 1).is_multiple_of(500) {
                            eprintln!("{} games", g + 1);
                        }
                        mine.push((g, samples, plies));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a self-play thread"))
            .collect()
    });
    played.sort_by_key(|&(g, _, _)| g);
    let plies_total: usize = played.iter().map(|p| p.2).sum();
    let samples: Vec<Sample> = played.into_iter().flat_map(|p| p.1).collect();
    eprintln!(
        "{games} games, {:.1} plies per game, {} samples",
        plies_total as f64 / games as f64,
        samples.len()
    );
    samples
}

/// One self-play game (number `g`, drawn from `seed`): its samples and its length in plies.
/// With `dumping`, a sample keeps its numbers for the dump and not the fit's features.
fn play_game<G: Tunable>(g: usize, seed: u64, nodes: u64, dumping: bool) -> (Vec<Sample>, usize) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut samples = Vec::new();
    let settings = Settings {
        seed: rng.random(),
        hash_mib: 4,
        ..Settings::default()
    };
    let mut players = [Searcher::<G>::new(settings), Searcher::<G>::new(settings)];
    let mut game = History::new(G::start(G::Variant::default()));
    let opening = rng.random_range(G::OPENING.0..=G::OPENING.1);
    let mut positions = Vec::new();
    // The search's own value of each position, for the side to move, in centi-points.
    let mut scores = Vec::new();
    while game.outcome().is_none() {
        let ply = game.moves().len();
        let mv = if ply < opening {
            let mut moves = G::Moves::default();
            game.legal_moves(&mut moves);
            let list = moves.as_ref();
            list[rng.random_range(0..list.len())]
        } else {
            let pos = *game.position();
            let sampled = pos.exact_value().is_none() || pos.database_margin().is_some();
            if sampled {
                positions.push(pos);
            }
            let side = pos.side_to_move().index();
            let mut score = 0.0;
            let mv = players[side]
                .search(&game, &limits, &stop, &mut |info| {
                    if let Some(s) = &info.score {
                        score = centi(s.value);
                    }
                })
                .expect("a move while the game is on");
            if sampled {
                scores.push(score);
            }
            mv
        };
        game.play(mv);
    }
    let outcome = game.outcome().expect("over");
    // Walking back from the end, the label is the nearest database value at or after each
    // position (from its side to move's view), or the final margin before any.
    let mut later: Option<(G, i32)> = None;
    let mut labels = Vec::with_capacity(positions.len());
    for pos in positions.iter().rev() {
        if let Some(m) = pos.database_margin() {
            later = Some((*pos, m));
            labels.push(m as f64);
        } else if let Some((at, m)) = later {
            let same = at.side_to_move() == pos.side_to_move();
            labels.push(if same { m } else { -m } as f64);
        } else {
            labels.push(outcome.margin_for(pos.side_to_move()) as f64);
        }
    }
    labels.reverse();
    for ((pos, margin), score) in positions.into_iter().zip(labels).zip(scores) {
        let (leaf, margin, score) = if G::QUIET {
            match quiet_leaf(&pos, -i32::MAX, i32::MAX, 12).1 {
                Some(leaf) if leaf.side_to_move() == pos.side_to_move() => (leaf, margin, score),
                Some(leaf) => (leaf, -margin, -score),
                None => continue,
            }
        } else {
            (pos, margin, score)
        };
        samples.push(Sample {
            features: if dumping {
                Vec::new()
            } else {
                nonzero(&leaf.feature_vector())
            },
            margin,
            result: 0.5 + 0.5 * margin.signum(),
            held_out: g % 5 == 4,
            score,
            raw: if dumping { leaf.raw() } else { String::new() },
        });
    }
    (samples, game.moves().len())
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for c in 0..n {
        let p = (c..n)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .expect("non-empty");
        a.swap(c, p);
        b.swap(c, p);
        for r in c + 1..n {
            let k = a[r][c] / a[c][c];
            for j in c..n {
                a[r][j] -= k * a[c][j];
            }
            b[r] -= k * b[c];
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|j| a[r][j] * x[j]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    x
}

/// The non-zero entries of a feature vector, by index.
fn nonzero(f: &[f64]) -> Vec<(usize, f64)> {
    f.iter()
        .enumerate()
        .filter(|&(_, &x)| x != 0.0)
        .map(|(i, &x)| (i, x))
        .collect()
}

fn dot(w: &[f64], f: &[(usize, f64)]) -> f64 {
    f.iter().map(|&(i, x)| w[i] * x).sum()
}

/// Ridge least squares of `100 * margin` on the features, pulled towards `prior` (the current
/// weights), so that a rarely seen feature keeps about its old weight rather than drifting to 0.
fn least_squares(train: &[&Sample], n: usize, prior: &[f64]) -> Vec<f64> {
    let mut a = vec![vec![0.0; n]; n];
    let mut b = vec![0.0; n];
    for s in train {
        let nz = &s.features;
        for &(i, x) in nz {
            b[i] += x * 100.0 * s.margin;
            for &(j, y) in nz {
                a[i][j] += x * y;
            }
        }
    }
    let lambda = 1e-3 * train.len() as f64;
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += lambda;
        b[i] += lambda * prior[i];
    }
    solve(a, b)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Logistic regression of the result on the features (weights in logits per unit), by Newton.
fn logistic(train: &[&Sample], n: usize) -> Vec<f64> {
    let mut w = vec![0.0; n];
    for _ in 0..25 {
        let mut h = vec![vec![0.0; n]; n];
        let mut g = vec![0.0; n];
        for s in train {
            let p = sigmoid(dot(&w, &s.features));
            let nz = &s.features;
            for &(i, x) in nz {
                g[i] += (s.result - p) * x;
                for &(j, y) in nz {
                    h[i][j] += p * (1.0 - p) * x * y;
                }
            }
        }
        for (i, row) in h.iter_mut().enumerate() {
            row[i] += 1e-3 * train.len() as f64;
            g[i] -= 1e-3 * train.len() as f64 * w[i];
        }
        let step = solve(h, g);
        let size: f64 = step.iter().map(|x| x.abs()).sum();
        for i in 0..n {
            w[i] += step[i];
        }
        if size < 1e-9 {
            break;
        }
    }
    w
}

/// The factor `k` that best fits `100 * margin ~= k * (w . f)`.
fn margin_scale(samples: &[&Sample], w: &[f64]) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for s in samples {
        let e = dot(w, &s.features);
        num += e * 100.0 * s.margin;
        den += e * e;
    }
    num / den.max(1e-12)
}

/// Held-out margin RMSE in points.
fn rmse(samples: &[&Sample], w: &[f64]) -> f64 {
    let sse: f64 = samples
        .iter()
        .map(|s| (dot(w, &s.features) / 100.0 - s.margin).powi(2))
        .sum();
    (sse / samples.len() as f64).sqrt()
}

/// Held-out result log-loss of `sigmoid(k * eval / 100)` at the best `k` on the training set.
fn log_loss(train: &[&Sample], test: &[&Sample], w: &[f64]) -> (f64, f64) {
    let loss = |set: &[&Sample], k: f64| {
        set.iter()
            .map(|s| {
                let p = sigmoid(k * dot(w, &s.features) / 100.0).clamp(1e-9, 1.0 - 1e-9);
                -(s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln())
            })
            .sum::<f64>()
            / set.len() as f64
    };
    // Golden-section search for the scale on the training set.
    let (mut lo, mut hi) = (1e-4f64, 10.0f64);
    for _ in 0..60 {
        let m1 = hi - (hi - lo) / 1.618;
        let m2 = lo + (hi - lo) / 1.618;
        if loss(train, m1) < loss(train, m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let k = (lo + hi) / 2.0;
    (loss(test, k), k)
}

fn run<G: Tunable>(games: usize, nodes: u64, seed: u64) {
    let samples = self_play::<G>(games, nodes, seed);
    if let Ok(path) = std::env::var("TUNE_DUMP") {
        // One line a sample: held out (0/1), the final margin, the search's value, then the
        // position's numbers.
        let lines: Vec<String> = std::iter::once(G::raw_header())
            .chain(samples.iter().map(|s| {
                let held = u8::from(s.held_out);
                format!("{held} {} {} {}", s.margin, s.score, s.raw)
            }))
            .collect();
        std::fs::write(&path, lines.join("\n") + "\n").expect("TUNE_DUMP written");
        eprintln!("{} samples written to {path}; no fit", lines.len() - 1);
        return;
    }
    let names = G::names();
    let n = names.len();
    let train: Vec<&Sample> = samples.iter().filter(|s| !s.held_out).collect();
    let test: Vec<&Sample> = samples.iter().filter(|s| s.held_out).collect();
    let current = G::current();
    let lsq = least_squares(&train, n, &current);
    let logit = logistic(&train, n);
    let texel: Vec<f64> = {
        let k = margin_scale(&train, &logit);
        logit.iter().map(|w| w * k).collect()
    };
    println!(
        "{}: {} train and {} held-out samples, {games} games at {nodes} nodes, seed {seed}",
        G::NAME,
        train.len(),
        test.len()
    );
    println!(
        "{:<18}{:>10}{:>10}{:>10}",
        "feature", "current", "lsq", "texel"
    );
    for i in 0..n {
        println!(
            "{:<18}{:>10}{:>10.0}{:>10.0}",
            names[i], current[i], lsq[i], texel[i]
        );
    }
    for (name, w) in [("current", &current), ("lsq", &lsq), ("texel", &texel)] {
        let rounded: Vec<f64> = w.iter().map(|x| x.round()).collect();
        let (ll, k) = log_loss(&train, &test, &rounded);
        println!(
            "{name:<8} held-out margin rmse {:.3} points, result log-loss {ll:.4} (scale {k:.3})",
            rmse(&test, &rounded)
        );
    }
    println!("least squares:");
    G::print_weights(&lsq);
    println!("texel:");
    G::print_weights(&texel);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: tune <avalam|awale> [games] [nodes] [seed] [egtb-dir]";
    let number = |i: usize, default: u64| -> u64 {
        match args.get(i) {
            None => default,
            Some(a) => a.parse().unwrap_or_else(|_| {
                eprintln!("{usage}: {a:?} is not a number");
                std::process::exit(2);
            }),
        }
    };
    let games = number(2, 2000) as usize;
    let nodes = number(3, 4000);
    let seed = number(4, 1);
    if let Some(dir) = args.get(5) {
        match pion::egtb::install(Some(std::path::Path::new(dir))) {
            Ok(found) => eprintln!("databases: {found:?}"),
            Err(e) => {
                eprintln!("{usage}: {e}");
                std::process::exit(2);
            }
        }
    }
    if games < 5 {
        eprintln!("{usage}: at least 5 games (every fifth one is held out)");
        std::process::exit(2);
    }
    match args.get(1).map(String::as_str) {
        Some("avalam") => run::<Avalam>(games, nodes, seed),
        Some("awale") => run::<Awale>(games, nodes, seed),
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    }
}
