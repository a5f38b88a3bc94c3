//! A small network on top of the fitted evaluation: one hidden layer of rectified units that
//! reads the twelve pits' seed counts and four phase scalars, and adds what the linear features
//! and the tables miss (how the two rows meet). It is trained on what the evaluation gets wrong
//! (a mix of the search's value and the game's final margin, less the evaluation, in points) by
//! `scripts/train_network.py` from the tuner's samples (`TUNE_DUMP`, `examples/tune.rs`), which
//! writes `weights.rs`. docs/experiments.md has the commands and the measurements.

use pion_rules::awale::{Awale, SEEDS};
use pion_rules::game::Game;
use std::sync::LazyLock;

use super::{on_board, rows};

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
    let me = pos.side_to_move();
    let cap = pos.captured();
    (cap[me.index()] as f32 - cap[me.other().index()] as f32) / (SEEDS as f32 / 2.0)
}

/// The pit rows with the scalars that are sums of pit counts folded in: seeds on the board and
/// in each row are the pits' counts added up, so each count's share of them (exact below the
/// last count, which stands for 15 seeds here and is topped up at a leaf holding more) joins
/// its one-hot row. Only the capture difference stays a scalar.
static FOLDED: LazyLock<Box<[[f32; HIDDEN]; PIT_INPUTS]>> = LazyLock::new(|| {
    let mut rows = Box::new([[0f32; HIDDEN]; PIT_INPUTS]);
    for (input, row) in rows.iter_mut().enumerate() {
        let (pit, count) = (input / COUNTS, input % COUNTS);
        let share = count as f32 / SEEDS as f32;
        let sum = &INPUT_WEIGHTS[ROW_SEEDS + pit / 6];
        for j in 0..HIDDEN {
            row[j] = INPUT_WEIGHTS[input][j] + share * (INPUT_WEIGHTS[ON_BOARD][j] + sum[j]);
        }
    }
    rows
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

/// The forward pass: the active pit rows (scalars folded in), the capture row, the rectified
/// hidden layer's dot product with the output weights.
#[inline(always)]
fn forward(pos: &Awale) -> i32 {
    let folded = &**FOLDED;
    let mut hidden = HIDDEN_BIAS;
    for (k, r) in rows(pos).into_iter().enumerate() {
        for (i, &s) in r.iter().enumerate() {
            let w = &folded[pit_input(k * 6 + i, s)];
            for j in 0..HIDDEN {
                hidden[j] += w[j];
            }
            if s as usize >= COUNTS {
                // The seeds above the last count's 15, in the sums the pit rows fold in.
                let extra = (s as usize - (COUNTS - 1)) as f32 / SEEDS as f32;
                let sum = &INPUT_WEIGHTS[ROW_SEEDS + k];
                for j in 0..HIDDEN {
                    hidden[j] += extra * (INPUT_WEIGHTS[ON_BOARD][j] + sum[j]);
                }
            }
        }
    }
    let capture = capture_input(pos);
    let w = &INPUT_WEIGHTS[CAPTURES];
    for j in 0..HIDDEN {
        hidden[j] += capture * w[j];
    }
    // Eight running sums, not one: a single chain of additions cannot be spread over lanes.
    let mut sums = [0f32; 8];
    for j in 0..HIDDEN {
        sums[j % 8] += hidden[j].max(0.0) * OUTPUT_WEIGHTS[j];
    }
    let out = OUTPUT_BIAS + sums.iter().sum::<f32>();
    (out * 100.0).round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use pion_rules::awale::{PITS, Variant};
    use pion_rules::game::Player;

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
        // scalars) by the weights; the engine adds the active rows. Both must agree.
        let positions = [
            ([4u8; PITS], [0, 0], Player::One),
            ([0, 1, 2, 5, 17, 3, 7, 0, 0, 0, 0, 4], [6, 3], Player::Two),
            ([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0], [20, 25], Player::One),
        ];
        let mut values = Vec::new();
        for (pits, captured, side) in positions {
            let p = Awale::from_parts(pits, captured, side, Variant::Standard);
            let (active, scalars) = inputs(&p);
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
            let engine = correction(&p);
            // The baseline pass and the one chosen at run time agree to the bit.
            assert_eq!(forward(&p), engine);
            assert!(
                (engine as f64 - 100.0 * out).abs() <= 1.0,
                "{engine} against {}",
                100.0 * out
            );
            values.push(engine);
        }
        assert!(values.iter().any(|&v| v != 0), "the network is trained");
    }
}
