//! A small network on top of the fitted evaluation: one hidden layer of rectified units that
//! reads the twelve pits' seed counts and four phase scalars, and adds what the linear features
//! and the tables miss (how the two rows meet). It is trained on what the evaluation gets wrong
//! (a mix of the search's value and the game's final margin, less the evaluation, in points) by
//! `scripts/train_network.py` from the tuner's samples (`TUNE_DUMP`, `examples/tune.rs`), which
//! writes `weights.rs`. docs/experiments.md has the commands and the measurements.

use pion_rules::awale::{Awale, SEEDS};
use pion_rules::game::Game;
use std::sync::LazyLock;

use super::{capture_difference, on_board, rows};

// One row of weights a line, as the trainer writes them.
#[rustfmt::skip]
mod weights;

pub use weights::HIDDEN;
use weights::{HIDDEN_BIAS, INPUT_WEIGHTS, OUTPUT_BIAS, OUTPUT_WEIGHTS};

/// Seed counts told apart by the pit inputs; larger counts share the last.
pub const COUNTS: usize = 16;
/// One-hot pit inputs: the mover's row then the opponent's, each from its first pit, each
/// with one input per seed count.
pub const PIT_INPUTS: usize = 12 * COUNTS;
/// Scalar inputs after the pits: seeds on the board, capture difference, seeds in the mover's
/// row, seeds in the opponent's, each scaled to about one.
pub const SCALARS: usize = 4;
/// All inputs.
pub const INPUTS: usize = PIT_INPUTS + SCALARS;
/// The scalars' inputs, in the order above: seeds on the board, the capture difference, and
/// the seeds of the mover's row (the opponent's follows).
const ON_BOARD: usize = PIT_INPUTS;
const CAPTURES: usize = PIT_INPUTS + 1;
const ROW_SEEDS: usize = PIT_INPUTS + 2;

/// The network's inputs at `pos` for its side to move: the index of the one pit input set for
/// each pit, and the scalars.
#[inline]
pub fn inputs(pos: &Awale) -> ([usize; 12], [f32; SCALARS]) {
    let mut active = [0; 12];
    let mut sums = [0u32; 2];
    for (k, r) in rows(pos).into_iter().enumerate() {
        for (i, &s) in r.iter().enumerate() {
            let pit = k * 6 + i;
            active[pit] = pit_input(pit, s);
            sums[k] += s as u32;
        }
    }
    let total = SEEDS as f32;
    let scalars = [
        on_board(pos) as f32 / total,
        capture_input(pos),
        sums[0] as f32 / total,
        sums[1] as f32 / total,
    ];
    (active, scalars)
}

/// The one-hot input of the `pit`-th pit (from the mover's first) holding `seeds`.
#[inline]
pub fn pit_input(pit: usize, seeds: u8) -> usize {
    pit * COUNTS + (seeds as usize).min(COUNTS - 1)
}

/// The capture difference for the side to move, scaled by half the seeds.
#[inline]
fn capture_input(pos: &Awale) -> f32 {
    capture_difference(pos, pos.side_to_move()) as f32 / (SEEDS as f32 / 2.0)
}

/// The largest sum a hidden unit of the integer pass may reach, with room below `i16::MAX` for
/// the rounding of each of its terms.
const I16_REACH: f32 = 32_000.0;

/// The network as the engine's pass reads it: 16-bit integers, each hidden unit on its own
/// scale (the largest that keeps the unit's sum within `I16_REACH` at any position), so that
/// sixteen units fit a 256-bit register and the pit rows take half the cache they took in
/// `f32` (48 KB for 128 units).
///
/// The scalars that are sums of pit counts (seeds on the board and in each row) are folded into
/// the one-hot pit rows: each count's share of them joins its row, exact below the last count,
/// which stands for 15 seeds here and is topped up by `extra` per seed at a pit holding more.
/// The capture difference is a row per seed of difference, the bias the starting sum.
struct Quantized {
    pits: [[i16; HIDDEN]; PIT_INPUTS],
    bias: [i16; HIDDEN],
    /// Per seed of capture difference (the mover's less the opponent's).
    capture: [i16; HIDDEN],
    /// Per seed beyond `COUNTS - 1` in a pit of the mover's row, then of the opponent's.
    extra: [[i16; HIDDEN]; 2],
    /// The output weights divided by each unit's scale.
    output: [f32; HIDDEN],
}

/// The exact (f32) rows `Quantized` rounds: the folded pit rows, the capture row per seed, and
/// the two rows per extra seed.
fn folded() -> (Vec<[f32; HIDDEN]>, [f32; HIDDEN], [[f32; HIDDEN]; 2]) {
    let total = SEEDS as f32;
    let mut pits = vec![[0f32; HIDDEN]; PIT_INPUTS];
    let mut extra = [[0f32; HIDDEN]; 2];
    for (input, row) in pits.iter_mut().enumerate() {
        let (pit, count) = (input / COUNTS, input % COUNTS);
        let sum = &INPUT_WEIGHTS[ROW_SEEDS + pit / 6];
        for j in 0..HIDDEN {
            let per_seed = (INPUT_WEIGHTS[ON_BOARD][j] + sum[j]) / total;
            row[j] = INPUT_WEIGHTS[input][j] + count as f32 * per_seed;
            extra[pit / 6][j] = per_seed;
        }
    }
    let capture = INPUT_WEIGHTS[CAPTURES].map(|w| w / (total / 2.0));
    (pits, capture, extra)
}

static QUANTIZED: LazyLock<Box<Quantized>> = LazyLock::new(|| {
    let (pits, capture, extra) = folded();
    let total = SEEDS as f32;
    // How far each unit's sum can reach: its bias, the largest row of each pit, the capture
    // difference (at most all the seeds) and the seeds beyond the last count (at most all the
    // seeds less one full pit's count).
    let mut scale = [0f32; HIDDEN];
    for j in 0..HIDDEN {
        let rows: f32 = pits
            .chunks(COUNTS)
            .map(|pit| pit.iter().map(|row| row[j].abs()).fold(0.0, f32::max))
            .sum();
        let beyond = total - (COUNTS - 1) as f32;
        let reach = HIDDEN_BIAS[j].abs()
            + rows
            + total * capture[j].abs()
            + beyond * extra[0][j].abs().max(extra[1][j].abs());
        scale[j] = I16_REACH / reach.max(1e-3);
    }
    let round = |row: &[f32; HIDDEN]| -> [i16; HIDDEN] {
        std::array::from_fn(|j| (row[j] * scale[j]).round() as i16)
    };
    let mut q = Box::new(Quantized {
        pits: [[0; HIDDEN]; PIT_INPUTS],
        bias: round(&HIDDEN_BIAS),
        capture: round(&capture),
        extra: [round(&extra[0]), round(&extra[1])],
        output: std::array::from_fn(|j| OUTPUT_WEIGHTS[j] / scale[j]),
    });
    for (row, exact) in q.pits.iter_mut().zip(&pits) {
        *row = round(exact);
    }
    q
});

/// The network's correction to the evaluation at `pos`, in centi-points for the side to move.
#[inline]
pub fn correction(pos: &Awale) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has just been found to have AVX2.
        return unsafe { correction_avx2(pos) };
    }
    forward(pos)
}

/// The same pass, compiled for AVX2 (twice the lanes of the baseline's SSE2).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn correction_avx2(pos: &Awale) -> i32 {
    forward(pos)
}

/// The forward pass in integers: the bias, the capture row times the difference, the active pit
/// rows (topped up past the last count), then the rectified units' dot product with the
/// output weights in floating point.
#[inline(always)]
fn forward(pos: &Awale) -> i32 {
    let q = &**QUANTIZED;
    // At most all the seeds either way: within i16.
    let diff = capture_difference(pos, pos.side_to_move()) as i16;
    let mut hidden = q.bias;
    for (h, w) in hidden.iter_mut().zip(&q.capture) {
        *h += diff * w;
    }
    for (k, r) in rows(pos).into_iter().enumerate() {
        for (i, &s) in r.iter().enumerate() {
            let w = &q.pits[pit_input(k * 6 + i, s)];
            for j in 0..HIDDEN {
                hidden[j] += w[j];
            }
            if s as usize >= COUNTS {
                let beyond = (s as usize - (COUNTS - 1)) as i16;
                for (h, w) in hidden.iter_mut().zip(&q.extra[k]) {
                    *h += beyond * w;
                }
            }
        }
    }
    // Eight running sums, not one: a single chain of additions cannot be spread over lanes.
    let mut sums = [0f32; 8];
    for j in 0..HIDDEN {
        sums[j % 8] += f32::from(hidden[j].max(0)) * q.output[j];
    }
    let out = OUTPUT_BIAS + sums.iter().sum::<f32>();
    (out * 100.0).round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use pion_rules::awale::{PITS, Variant};
    use pion_rules::game::Player;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn inputs_name_each_pit_by_its_count_from_the_movers_row() {
        // South to move: A..F = 0 1 2 5 17 3, North a..f = 7 0 0 0 0 4; captured 6 and 3.
        let pits: [u8; PITS] = [0, 1, 2, 5, 17, 3, 7, 0, 0, 0, 0, 4];
        let p = Awale::from_parts(pits, [6, 3], Player::One, Variant::Standard);
        let (active, scalars) = inputs(&p);
        let counts = [0, 1, 2, 5, 15, 3, 7, 0, 0, 0, 0, 4];
        let expected: Vec<usize> = (0..12).map(|i| i * COUNTS + counts[i]).collect();
        assert_eq!(active.to_vec(), expected);
        assert_eq!(scalars, [39.0 / 48.0, 3.0 / 24.0, 28.0 / 48.0, 11.0 / 48.0]);
        // North to move: its row first, the capture difference turned round.
        let q = p.with_side_to_move(Player::Two);
        let (active, scalars) = inputs(&q);
        let turned: Vec<usize> = (0..12).map(|i| i * COUNTS + counts[(i + 6) % 12]).collect();
        assert_eq!(active.to_vec(), turned);
        assert_eq!(
            scalars,
            [39.0 / 48.0, -3.0 / 24.0, 11.0 / 48.0, 28.0 / 48.0]
        );
    }

    #[test]
    fn the_correction_is_the_dense_forward_pass_the_trainer_fits() {
        // The trainer multiplies a dense input vector (ones at the active pit inputs, then the
        // scalars) by the weights in floating point; the engine adds the active rows rounded to
        // integers. They may differ by the rounding alone: half a unit of each term of a unit's
        // sum, through the unit's output weight, and half a centi-point at the end.
        let cases: [([u8; PITS], [u8; 2], Player); 7] = [
            ([4; PITS], [0, 0], Player::One),
            ([0, 1, 2, 5, 17, 3, 7, 0, 0, 0, 0, 4], [6, 3], Player::Two),
            ([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0], [20, 25], Player::One),
            // The extremes of the inputs: every seed in one pit, the largest capture difference.
            ([0, 0, 0, 0, 0, 48, 0, 0, 0, 0, 0, 0], [0, 0], Player::Two),
            ([0; PITS], [48, 0], Player::One),
            ([0; PITS], [48, 0], Player::Two),
            ([24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 24], [0, 0], Player::One),
        ];
        let mut positions: Vec<Awale> = cases
            .iter()
            .map(|&(pits, captured, side)| {
                Awale::from_parts(pits, captured, side, Variant::Standard)
            })
            .collect();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        for _ in 0..200 {
            // Random play can go round a cycle for ever: 300 plies at most.
            let mut p = Awale::start(Variant::Standard);
            for _ in 0..300 {
                if p.outcome().is_some() {
                    break;
                }
                positions.push(p);
                let mut moves = <Awale as Game>::Moves::default();
                p.legal_moves(&mut moves);
                p.play(moves.as_ref()[rng.random_range(0..moves.len())]);
            }
        }
        let q = &**QUANTIZED;
        let mut values = Vec::new();
        for p in &positions {
            let (active, scalars) = inputs(p);
            let mut x = [0f32; INPUTS];
            for a in active {
                x[a] = 1.0;
            }
            x[PIT_INPUTS..].copy_from_slice(&scalars);
            let mut out = OUTPUT_BIAS as f64;
            for j in 0..HIDDEN {
                let z: f64 = HIDDEN_BIAS[j] as f64
                    + (0..INPUTS)
                        .map(|i| x[i] as f64 * INPUT_WEIGHTS[i][j] as f64)
                        .sum::<f64>();
                out += z.max(0.0) * OUTPUT_WEIGHTS[j] as f64;
            }
            let engine = correction(p);
            // The baseline pass and the one chosen at run time agree to the bit.
            assert_eq!(forward(p), engine);
            let diff = capture_difference(p, p.side_to_move()).abs();
            let last = COUNTS as i32 - 1;
            let beyond: i32 = p.pits().iter().map(|&s| (s as i32 - last).max(0)).sum();
            let terms = (1 + diff + 12 + beyond) as f64;
            let rounding: f64 = q.output.iter().map(|w| w.abs() as f64 * 0.5 * terms).sum();
            assert!(
                (engine as f64 - 100.0 * out).abs() <= 100.0 * rounding + 0.51,
                "{engine} against {} at {}",
                100.0 * out,
                p.format_position()
            );
            values.push(engine);
        }
        assert!(values.iter().any(|&v| v != 0), "the network is trained");
    }

    #[test]
    fn no_unit_of_the_integer_pass_can_overflow() {
        // The largest sum each unit can reach, in 32 bits: its bias, the capture row times the
        // largest difference, the largest row of each pit, and the extra seeds' rows times the
        // most seeds a pit can hold beyond the last count.
        let q = &**QUANTIZED;
        let beyond = SEEDS as i32 - (COUNTS as i32 - 1);
        for j in 0..HIDDEN {
            let rows: i32 = q
                .pits
                .chunks(COUNTS)
                .map(|pit| pit.iter().map(|row| (row[j] as i32).abs()).max().unwrap())
                .sum();
            let reach = (q.bias[j] as i32).abs()
                + SEEDS as i32 * (q.capture[j] as i32).abs()
                + rows
                + beyond
                    * (q.extra[0][j] as i32)
                        .abs()
                        .max((q.extra[1][j] as i32).abs());
            assert!(reach <= i16::MAX as i32, "unit {j} reaches {reach}");
        }
    }
}
