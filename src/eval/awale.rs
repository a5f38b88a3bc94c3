//! Awale evaluation: captured seeds, seeds on each side, pits the opponent can capture,
//! mobility, the best capture available now and the strategy terms (houses, tempo, threats),
//! combined linearly, plus a table of what each pit is worth for each seed count and one of
//! what each two neighbouring pits are worth together.

use crate::search::levels::LevelEval;
use crate::search::{Evaluate, Horizon, MoveCodes, Profile};
use pion_rules::awale::{Awale, Move, PITS, SEEDS, landing, row};
use pion_rules::game::{Game, Player};

/// The number of evaluation features.
pub const FEATURES: usize = 9;

/// Feature names, in order, for the tuning tool's report.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "captured",
    "seeds_on_side",
    "weak_pits",
    "mobility",
    "best_capture",
    "kroo",
    "tempo",
    "threat",
    "hittable_weak",
];

/// Weights in centi-points per unit of each feature, fitted together with [`PIT_TABLE`] and
/// [`PAIR_TABLE`] by least squares on the final margin of self-play games (`examples/tune.rs`),
/// each position labelled by the endgame databases' exact margin where the game reached them
/// and replaced by the quiet position its captures lead to, as the quiescence search would
/// evaluate it. The command and the fit: docs/experiments.md, "Awale pair tables".
pub const WEIGHTS: [i32; FEATURES] = [107, -23, -174, 275, 68, 422, 164, -64, -49];

/// Pit tables tell seed counts apart up to `BUCKETS - 1`; larger counts share the last bucket.
pub const BUCKETS: usize = 16;

/// Entries of one phase's pit tables, flattened for the tuner: for the mover's row then the
/// opponent's, for each pit from the row's first, one entry per bucket from one seed up (an
/// empty pit is the reference, worth nothing).
pub const TABLE_ENTRIES: usize = 2 * 6 * (BUCKETS - 1);

/// The pit tables in centi-points: `PIT_TABLE[phase][k][i][b]` is what the `i`-th pit of the
/// mover's row (`k = 0`) or the opponent's (`k = 1`) is worth holding `b` seeds (`BUCKETS - 1`
/// or more for the last), on top of the linear features, with all 48 seeds on the board
/// (`phase = 0`) and with none (`phase = 1`); in between the two are mixed in proportion to the
/// seeds on the board (a tapered evaluation). Fitted with the weights (see `WEIGHTS`).
pub static PIT_TABLE: [[[[i16; BUCKETS]; 6]; 2]; 2] = [
    [
        [
            [
                0, 43, 258, 241, 238, 240, 317, 304, 214, 188, 193, 250, -73, -65, 81, 215,
            ],
            [
                0, -21, 165, 51, 60, 141, 123, 75, 25, -2, -3, 111, -155, -88, 18, 142,
            ],
            [
                0, -15, 95, -29, 58, -5, -55, -88, -102, -117, 17, 109, -160, -70, 42, 82,
            ],
            [
                0, -63, 30, -23, -73, -149, -133, -174, -194, -79, 11, 121, -133, 0, -59, -238,
            ],
            [
                0, -85, 50, -114, -163, -135, -130, -119, -70, -1, 127, 192, -23, -78, -42, -297,
            ],
            [
                0, -6, 50, -143, -85, -50, -60, 1, 76, 159, 210, 311, -45, -30, -77, -410,
            ],
        ],
        [
            [
                0, -33, -265, -227, -205, -200, -306, -297, -257, -251, -228, -259, 69, 67, -102,
                -280,
            ],
            [
                0, 16, -165, -83, -51, -172, -157, -109, -87, -69, -55, -157, 126, 44, -59, -240,
            ],
            [
                0, 18, -90, 24, -96, -42, -1, 58, 64, 51, -6, -174, 141, 44, -76, -154,
            ],
            [
                0, 50, -16, -4, 30, 89, 109, 154, 101, 70, -35, -154, 99, -23, -44, 99,
            ],
            [
                0, 86, -86, 90, 96, 116, 119, 100, 23, -28, -182, -226, -13, -48, -72, 203,
            ],
            [
                0, -42, -82, 104, 74, 8, 28, -57, -116, -190, -248, -352, -55, -77, -34, 342,
            ],
        ],
    ],
    [
        [
            [
                0, -142, 24, -60, -14, 23, 197, 196, 189, 57, 22, 12, -224, -52, 4, 126,
            ],
            [
                0, -51, 34, -107, -83, 81, 71, 22, 31, -83, -116, -88, -255, -158, -63, 50,
            ],
            [
                0, -102, -2, -143, 34, 83, 20, -40, -149, -193, -127, -66, -213, -144, 2, 105,
            ],
            [
                0, -134, -110, -78, 1, -74, -157, -225, -272, -180, -115, -2, -192, -26, -93, -59,
            ],
            [
                0, -136, 46, -120, -173, -277, -341, -363, -234, -93, 69, 253, 46, 120, 201, 98,
            ],
            [
                0, -25, -22, -218, -384, -405, -321, -246, -64, 148, 395, 645, 273, 318, 466, 165,
            ],
        ],
        [
            [
                0, 101, 17, 83, 27, 13, -204, -236, -231, -102, -58, -51, 244, 89, 16, -191,
            ],
            [
                0, 44, -12, 114, 85, -107, -93, -83, -72, 85, 86, 90, 253, 154, 48, -101,
            ],
            [
                0, 120, 33, 151, -20, -87, -43, 6, 118, 201, 132, 66, 224, 122, -1, -152,
            ],
            [
                0, 155, 110, 59, -21, 32, 104, 187, 239, 233, 133, 13, 176, 50, 40, -84,
            ],
            [
                0, 143, -69, 67, 125, 222, 259, 305, 252, 116, -42, -210, -33, -133, -218, -288,
            ],
            [
                0, 15, -15, 201, 304, 349, 286, 281, 105, -121, -344, -617, -266, -332, -483, -395,
            ],
        ],
    ],
];

/// Pair tables tell each pit's seed counts apart in this many coarse buckets (see
/// [`pair_bucket`]).
pub const PAIR_BUCKETS: usize = 8;

/// Entries of one phase's pair tables, flattened for the tuner: for the mover's row then the
/// opponent's, for each two neighbouring pits from the row's first, one entry for each pair of
/// buckets (the first pit's bucket major).
pub const PAIR_ENTRIES: usize = 2 * 5 * PAIR_BUCKETS * PAIR_BUCKETS;

/// The coarse bucket of a seed count for the pair tables: 0 to 4 seeds each their own, then 5-6,
/// 7-11 (sowings that reach the opponent's row from any pit but not lap) and 12 or more (a kroo).
#[inline]
pub fn pair_bucket(seeds: u8) -> usize {
    const BUCKET: [u8; 13] = [0, 1, 2, 3, 4, 5, 5, 6, 6, 6, 6, 6, 7];
    BUCKET[(seeds as usize).min(12)] as usize
}

/// The pair tables in centi-points: `PAIR_TABLE[phase][k][i][a * PAIR_BUCKETS + b]` is what
/// the `i`-th and `i + 1`-th pits of the mover's row (`k = 0`) or the opponent's (`k = 1`) are
/// worth together holding seed counts of buckets `a` and `b`, on top of the pit tables: the
/// shapes a pit table cannot see alone (two weak pits side by side are taken together, a house
/// behind an empty pit). Tapered like [`PIT_TABLE`], fitted with it (see `WEIGHTS`).
pub static PAIR_TABLE: [[[[i16; PAIR_BUCKETS * PAIR_BUCKETS]; 5]; 2]; 2] = [
    [
        [
            [
                -243, -99, -56, 15, 71, 37, 38, 34, 43, -2, 32, 29, -18, -49, -47, -20, 33, -49,
                -36, 19, 6, 25, -14, 26, 61, 34, -53, -66, -25, 13, 41, 31, 11, 37, 10, -52, -31,
                10, 23, -11, 63, -25, 53, -27, -89, 8, 89, -36, 9, 35, 54, 42, 74, -44, 15, 9, -29,
                31, -11, 7, -12, -5, -20, 9,
            ],
            [
                -97, -80, -60, 17, 47, 63, 70, -12, 46, -2, -23, -30, -38, 44, 25, -60, -46, -1,
                34, 5, -51, 38, -8, 22, -35, -34, -2, -5, -35, 6, 37, 35, 14, 6, -45, -72, -13, 1,
                34, 52, -2, 26, -34, 11, 22, -105, 67, 9, -21, 7, 81, 51, 47, -41, -4, 4, -8, 61,
                55, 13, -21, -15, -43, 0,
            ],
            [
                -96, -61, 13, -5, -5, -19, 56, -31, 31, 12, -1, -12, -13, -38, 18, -14, 1, 3, -37,
                25, -28, -11, 54, -2, 12, -1, 8, -23, -23, 2, 30, -15, -36, -4, -9, 1, 12, 23, 11,
                -42, -33, -41, 9, -24, 41, -12, 41, 8, 27, 22, 22, 33, 29, 38, -10, 17, 41, 70, 20,
                -28, -32, 7, -38, 9,
            ],
            [
                -95, -72, 10, 4, -3, 45, 42, 16, 18, -5, -24, 1, 14, -7, 26, -22, 25, 1, -6, -18,
                -36, 31, 65, -36, -39, 8, -54, -7, 19, 2, 54, -16, -14, -3, -4, -24, 18, -4, 28,
                -18, 18, -1, 17, 6, -9, 9, 12, -62, 47, 23, 60, 13, -1, 17, -56, 57, 3, 60, -24,
                -5, -36, -49, -23, 3,
            ],
            [
                -71, -90, -1, 13, 22, 65, 73, -48, -40, -18, 9, -5, 39, 40, 97, -110, -4, -32, -40,
                7, 3, 7, 109, -75, 5, -33, -8, 1, -6, 12, 20, -20, 27, 26, -3, -34, -13, -34, 49,
                -51, 36, 50, 20, -44, -10, -31, -5, 27, 137, 110, 44, -7, -70, -48, -72, 55, -135,
                -32, -30, 38, -1, 26, -81, 137,
            ],
        ],
        [
            [
                185, 84, 62, 12, -50, -16, -11, -49, -16, -8, -18, -28, -41, 50, 63, 19, -27, 53,
                2, -24, 5, -22, -18, 7, -63, -14, 50, 59, 28, -23, -71, -26, 0, -30, -18, 60, 58,
                -22, -37, -7, -77, -13, -30, 6, 70, 34, -42, 12, 2, -33, -60, -24, -54, 59, -38,
                -1, 49, -8, 1, -23, 12, 7, -1, -3,
            ],
            [
                59, 69, 64, -12, -51, -49, -11, -16, -34, -23, -3, 11, 26, -8, 15, 47, 45, 14, -15,
                8, 18, -7, -24, -49, 33, 39, -6, 8, 40, -5, -27, -45, -5, -1, 27, 41, 29, -15, -37,
                -12, 37, -14, 31, -1, -1, 109, -71, -24, 34, 1, -53, -48, -45, -28, -20, 3, 23,
                -59, -63, 7, 14, 4, 17, 8,
            ],
            [
                69, 76, -2, 36, 14, 18, -40, 22, -35, 1, -23, 32, 3, 33, -27, 42, 12, -17, 39, -7,
                15, 4, -47, -16, 12, 2, -2, 1, 30, -24, -44, 40, 40, 14, 3, -5, -7, -11, 13, -18,
                52, 18, 26, -8, -33, -1, -48, -6, 2, -26, -41, -29, -36, -23, 10, -15, -26, -67,
                -28, 11, 26, 0, 14, -17,
            ],
            [
                73, 60, 17, 25, 9, -33, -21, -4, -26, -11, 41, 19, 2, 0, -41, 18, -7, 10, 16, -22,
                25, -35, -64, 49, 35, 3, 48, 7, -48, 6, -35, 15, 22, 8, -23, 40, -1, -6, -39, 12,
                13, -19, 4, -24, 16, 18, 0, -13, -45, -23, -42, -29, -6, 13, 20, -55, 5, -38, -30,
                24, 12, 42, 23, -6,
            ],
            [
                48, 83, 10, 1, -12, -65, -68, 73, 55, 31, 8, 10, -44, -49, -113, 93, 6, 57, 37,
                -23, -17, -15, -93, 80, 29, -10, 47, -1, 10, -14, -47, 24, 6, -11, 11, 46, -12,
                -11, -45, 26, -23, -38, -50, 32, 46, 69, 0, -32, -132, -114, -61, -9, 81, 73, 70,
                -65, 130, 27, 13, -41, -30, -30, 64, -116,
            ],
        ],
    ],
    [
        [
            [
                72, 60, 69, 93, 62, 21, 33, -77, 140, 5, -38, -38, -10, 2, 3, -73, 97, 20, -8, -8,
                -33, 4, -32, -16, 1, 1, -9, -28, 1, 6, -6, 0, 25, -3, 7, -36, 1, -13, -4, -13, -30,
                -30, 23, -10, -31, -7, 16, -14, -44, -11, 12, 17, 14, -4, -47, 2, -81, -2, -7, 13,
                -2, -8, -16, 3,
            ],
            [
                5, 67, 73, 57, -4, 7, 31, -55, 87, 37, 33, 0, -17, -41, -22, -38, 75, 4, -15, -21,
                17, 0, -11, 1, 26, 26, -15, -15, -21, 7, -10, 5, 62, -14, -35, -28, 3, 0, 6, 7, -5,
                -25, -3, -4, 20, 27, 0, -9, -26, -24, -15, -17, -6, 24, 6, 6, -107, -54, -13, 4,
                -7, -3, -7, -1,
            ],
            [
                17, 39, 26, 39, 12, 15, -14, -17, 52, -2, 22, 6, -37, -21, -45, 42, 52, -17, 40,
                -34, -1, -13, -28, 11, 17, 11, -33, -16, 4, -10, -6, 8, 4, -5, -11, -6, 13, 8, -8,
                -8, -5, -5, -4, -10, 21, 23, 21, -20, -19, 8, -31, -5, 13, 19, 6, 2, -42, -2, -17,
                -14, -9, 4, -4, 0,
            ],
            [
                14, 4, 1, -32, 28, -4, -16, 79, 23, 11, 10, -38, -8, -38, -33, 100, 44, 19, -17, 8,
                -27, -52, -19, 34, 11, -2, 3, -11, -29, -7, -17, 11, -5, -18, 26, 8, 19, 4, 2, -19,
                14, -1, 11, 22, -3, 13, -11, -19, -3, -17, -26, -4, 3, -10, -35, 14, 17, 47, -9,
                -2, -26, -5, -6, 4,
            ],
            [
                -83, 31, 1, 45, -4, -41, 20, 145, -32, -34, -5, -23, -44, -58, 37, 202, 5, -31, 33,
                -34, 3, -36, 19, 39, 48, 6, -49, -34, 15, -12, -5, -18, 10, 6, 12, -25, 0, -3, -6,
                -38, 27, -36, -44, -13, -9, 16, -10, -30, -46, -26, 5, -1, 0, -10, -78, 22, 29, 51,
                19, 22, 7, 26, 11, 40,
            ],
        ],
        [
            [
                -96, -24, -44, -76, -49, -37, -25, 101, -78, -5, 0, 24, -1, 5, 15, 67, -83, -30,
                26, 31, 32, 11, 10, 25, -8, 12, 18, 27, -6, 3, 3, -5, -21, 0, 0, 29, 9, 5, -14, 1,
                30, 18, -5, 3, 26, -10, -1, 6, 28, -19, -8, -17, -4, 3, 14, 0, 95, 14, 2, -12, 2,
                8, 11, -1,
            ],
            [
                -29, -41, -62, -43, 9, 13, -26, 46, -40, -34, -16, -16, -12, 16, 21, 49, -91, -21,
                19, 32, 11, 19, 18, 3, -13, -15, 9, 4, 18, 8, 9, -12, -36, 10, 20, 13, 2, -2, -2,
                4, 22, 11, 20, 12, -2, -61, -17, 3, 33, 26, 2, 3, -3, -32, -12, -5, 99, 60, 19, 2,
                8, 1, 3, 0,
            ],
            [
                -23, -32, 6, -16, -3, -9, 25, -3, -30, -21, -10, -13, 28, 23, 30, -11, -52, 12,
                -46, 44, -1, 31, 45, -22, -18, -10, 24, 21, 10, -8, -2, -9, 6, 19, 28, -5, -11, -9,
                15, -14, 14, 17, -3, -17, -13, -26, -21, 13, 18, 14, 11, -6, -20, -31, 8, 0, 67,
                -2, 6, 10, 5, -2, 3, 1,
            ],
            [
                -23, -8, 23, 8, 15, -5, 36, -64, -15, -25, -9, 41, 10, 25, 33, -62, -50, -70, 12,
                -2, 26, 67, 54, -22, 8, 25, -3, 0, -3, -11, 5, -3, 26, 20, -30, 2, -12, -15, -5, 8,
                14, 15, -23, -17, 0, -29, 11, -1, 32, 34, 17, -11, -5, 6, 42, -12, -24, -25, -9,
                12, 7, 8, -11, -3,
            ],
            [
                -7, -27, 16, -14, 42, 53, 8, -104, 14, 15, 16, 36, 29, 49, -23, -170, 18, 42, -52,
                13, -10, 26, -29, -32, -19, -14, -1, 22, -7, 15, 13, 23, 3, -19, 4, 28, 4, -14, 6,
                26, -16, 44, 13, -4, 7, -18, 9, 11, 53, 13, 11, 15, 14, 15, 65, -20, -18, -27, 8,
                -9, -20, -39, -16, -38,
            ],
        ],
    ],
];

/// The mover's row, then the opponent's, each from its first pit.
#[inline]
fn rows(pos: &Awale) -> [&[u8]; 2] {
    let me = pos.side_to_move();
    [&pos.pits()[row(me)], &pos.pits()[row(me.other())]]
}

/// Each two neighbouring pits as the pair tables see them: the row (0 for the mover's, 1 for
/// the opponent's), the first pit's place from the row's first, and the pair's entry.
#[inline]
fn pairs(pos: &Awale) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    rows(pos).into_iter().enumerate().flat_map(|(k, r)| {
        r.windows(2)
            .enumerate()
            .map(move |(i, w)| (k, i, pair_bucket(w[0]) * PAIR_BUCKETS + pair_bucket(w[1])))
    })
}

/// The flattened entry (see [`PAIR_ENTRIES`]) of each two neighbouring pits, for the tuner.
pub fn pair_entries(pos: &Awale) -> Vec<usize> {
    pairs(pos)
        .map(|(k, i, c)| (k * 5 + i) * PAIR_BUCKETS * PAIR_BUCKETS + c)
        .collect()
}

/// Each pit as the tables see it: the row (0 for the mover's, 1 for the opponent's), the pit's
/// place from the row's first, and its bucket.
#[inline]
fn cells(pos: &Awale) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    rows(pos).into_iter().enumerate().flat_map(|(k, r)| {
        r.iter()
            .enumerate()
            .map(move |(i, &s)| (k, i, (s as usize).min(BUCKETS - 1)))
    })
}

/// The flattened entry (see [`TABLE_ENTRIES`]) of each non-empty pit, for the tuner.
pub fn table_entries(pos: &Awale) -> Vec<usize> {
    cells(pos)
        .filter(|&(_, _, b)| b > 0)
        .map(|(k, i, b)| (k * 6 + i) * (BUCKETS - 1) + b - 1)
        .collect()
}

/// Seeds on the board: 48 at the start, the weight of the tables' first phase.
pub fn on_board(pos: &Awale) -> i32 {
    let cap = pos.captured();
    SEEDS as i32 - cap[0] as i32 - cap[1] as i32
}

/// What the pit and pair tables add to the value, for the side to move.
#[inline]
fn pit_tables(pos: &Awale) -> i32 {
    let (mut full, mut empty) = (0, 0);
    for (k, i, b) in cells(pos) {
        full += PIT_TABLE[0][k][i][b] as i32;
        empty += PIT_TABLE[1][k][i][b] as i32;
    }
    for (k, i, c) in pairs(pos) {
        full += PAIR_TABLE[0][k][i][c] as i32;
        empty += PAIR_TABLE[1][k][i][c] as i32;
    }
    let on = on_board(pos);
    (full * on + empty * (SEEDS as i32 - on)) / SEEDS as i32
}

/// A pit holding this many seeds sows a full lap and more: a "kroo", whose second lap can turn
/// several opponent pits into captures at once.
const KROO: u8 = 12;

/// Seeds a move would capture.
fn captures(pos: &Awale, mv: Move) -> i32 {
    pos.capture(mv) as i32
}

/// The most seeds one move of the side to move captures.
fn best_capture(pos: &Awale) -> i32 {
    pos.best_capture() as i32
}

/// Pits of `player` holding one or two seeds: one more seed makes them capturable.
fn weak_pits(pos: &Awale, player: Player) -> i32 {
    pos.pits()[row(player)]
        .iter()
        .filter(|&&s| s == 1 || s == 2)
        .count() as i32
}

fn non_empty(pos: &Awale, player: Player) -> i32 {
    pos.pits()[row(player)].iter().filter(|&&s| s > 0).count() as i32
}

/// Pits of `player` holding a kroo.
fn kroos(pos: &Awale, player: Player) -> i32 {
    pos.pits()[row(player)]
        .iter()
        .filter(|&&s| s >= KROO)
        .count() as i32
}

/// Moves `player` holds in reserve: non-empty pits whose seeds stay in its own row, so that
/// playing them gives the opponent nothing and waits for the opponent to weaken first.
fn tempo(pos: &Awale, player: Player) -> i32 {
    pos.pits()[row(player)]
        .iter()
        .enumerate()
        .filter(|&(i, &s)| s > 0 && (s as usize) < 6 - i)
        .count() as i32
}

/// Pits of `victim` holding one or two seeds on which a sowing of the other player ends: the
/// targets of a capture next move, if the seeds sown on the way do not change them.
fn hittable_weak(pos: &Awale, victim: Player) -> i32 {
    let pits = pos.pits();
    let mut hit = [false; PITS];
    for pit in row(victim.other()) {
        if pits[pit] > 0 {
            hit[landing(pit, pits[pit])] = true;
        }
    }
    row(victim)
        .filter(|&p| hit[p] && (pits[p] == 1 || pits[p] == 2))
        .count() as i32
}

/// The feature vector for the side to move.
pub fn features(pos: &Awale) -> [i32; FEATURES] {
    let me = pos.side_to_move();
    let them = me.other();
    let cap = pos.captured();
    // What the opponent could take if it were to move now: the danger of a waiting move.
    let flipped = pos.with_side_to_move(them);
    [
        cap[me.index()] as i32 - cap[them.index()] as i32,
        pos.seeds_on_side(me) as i32 - pos.seeds_on_side(them) as i32,
        weak_pits(pos, me) - weak_pits(pos, them),
        non_empty(pos, me) - non_empty(pos, them),
        best_capture(pos),
        kroos(pos, me) - kroos(pos, them),
        tempo(pos, me) - tempo(pos, them),
        best_capture(&flipped),
        hittable_weak(pos, them) - hittable_weak(pos, me),
    ]
}

impl MoveCodes for Awale {
    const MOVE_SLOTS: usize = PITS + 1;

    #[inline]
    fn encode_move(mv: Move) -> u16 {
        mv.0 as u16 + 1
    }

    #[inline]
    fn decode_move(code: u16) -> Move {
        Move(code.saturating_sub(1) as u8)
    }
}

impl Profile for Awale {
    /// Seeds can circle for a hundred plies and more, so a search "to the end" rarely ends and
    /// solving only costs time (docs/experiments.md, "solving the root in Awale").
    const SOLVES_ENDGAMES: bool = false;
    const QUIESCENCE: bool = true;
}

impl Evaluate for Awale {
    #[inline]
    fn evaluate(&self) -> i32 {
        let f = features(self);
        (0..FEATURES).map(|i| WEIGHTS[i] * f[i]).sum::<i32>() + pit_tables(self)
    }

    #[inline]
    fn order_score(&self, mv: Move) -> i32 {
        captures(self, mv)
    }

    /// One probe serves both the exact value and, on a cycling board, the static value: the
    /// database's share of a repetition scored here, in the evaluation's units.
    #[inline]
    fn horizon(&self) -> Horizon {
        match crate::egtb::probe(self) {
            Some(probe) if probe.cycle => Horizon::Heuristic(probe.margin * 100),
            Some(probe) => Horizon::Exact(probe.margin),
            None if self.outcome().is_some() => Horizon::Exact(self.margin()),
            None => Horizon::Heuristic(self.evaluate()),
        }
    }
}

/// The number of legal moves `player` would have here if it were to move.
fn mobility(pos: &Awale, player: Player) -> i32 {
    if pos.side_to_move() == player {
        pos.count_moves() as i32
    } else {
        pos.with_side_to_move(player).count_moves() as i32
    }
}

fn capture_difference(pos: &Awale, me: Player) -> i32 {
    let cap = pos.captured();
    cap[me.index()] as i32 - cap[me.other().index()] as i32
}

impl LevelEval for Awale {
    const BASIC_DEPTH: u32 = 2;
    const DIVINE_DEPTH: u32 = 8;
    /// Half `divine`'s depth: about as far above `basic` as below `divine` (docs/engine.md).
    const MEDIUM_DEPTH: u32 = 4;

    /// (capture difference) + 3 (mobility difference) + 0.1 (seeds in the opponent's row),
    /// times ten to stay in integers.
    fn basic_value(&self, me: Player) -> i32 {
        if let Some(outcome) = self.outcome() {
            return 100_000 * outcome.margin_for(me).signum();
        }
        let them = me.other();
        10 * capture_difference(self, me)
            + 30 * (mobility(self, me) - mobility(self, them))
            + self.seeds_on_side(them) as i32
    }

    /// 100 (capture difference) + 10 (opponent pits holding 1 or 2) + 5 (mobility difference)
    /// + 0.5 (seeds in its own row), times two to stay in integers.
    fn divine_value(&self, me: Player) -> i32 {
        if let Some(outcome) = self.outcome() {
            return 1_000_000 * outcome.margin_for(me).signum();
        }
        let them = me.other();
        200 * capture_difference(self, me)
            + 20 * weak_pits(self, them)
            + 10 * (mobility(self, me) - mobility(self, them))
            + self.seeds_on_side(me) as i32
    }

    /// The `divine` evaluation, searched half as deep.
    fn medium_value(&self, me: Player) -> i32 {
        self.divine_value(me)
    }

    fn greedy_value(&self, mv: Move) -> i32 {
        captures(self, mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pion_rules::awale::Variant;

    fn pos(pits: [u8; PITS], captured: [u8; 2], side: Player) -> Awale {
        Awale::from_parts(pits, captured, side, Variant::Standard)
    }

    #[test]
    fn level_evaluations_match_the_issue_formulas() {
        // Player one: pits 1,0,0,2,0,5 (3 legal moves: A, D, F; 8 seeds); captured 20.
        // Player two: pits 1,2,0,0,3,0 (3 moves; 6 seeds); captured 14. 8+6+20+14 = 48.
        let p = pos([1, 0, 0, 2, 0, 5, 1, 2, 0, 0, 3, 0], [20, 14], Player::One);
        assert_eq!(mobility(&p, Player::One), 3);
        assert_eq!(mobility(&p, Player::Two), 3);
        // basic for one: 10*6 + 30*0 + 6 seeds in two's row.
        assert_eq!(p.basic_value(Player::One), 66);
        // basic for two: 10*(-6) + 0 + 8.
        assert_eq!(p.basic_value(Player::Two), -52);
        // divine for one: 200*6 + 20*(two's pits with 1 or 2: a, b) + 0 + 8 own seeds.
        assert_eq!(p.divine_value(Player::One), 1200 + 40 + 8);
        // divine for two: 200*(-6) + 20*(one's pits with 1 or 2: A, D) + 0 + 6.
        assert_eq!(p.divine_value(Player::Two), -1200 + 40 + 6);
    }

    #[test]
    fn terminal_positions_score_by_the_winner() {
        // Player one captured 25: the game is over.
        let p = pos([0, 0, 0, 0, 0, 3, 4, 4, 4, 4, 4, 0], [25, 0], Player::Two);
        assert!(p.outcome().is_some());
        assert_eq!(p.divine_value(Player::One), 1_000_000);
        assert_eq!(p.basic_value(Player::Two), -100_000);
    }

    #[test]
    fn greedy_and_ordering_see_captures() {
        // Sowing F (5 seeds) fills a..e and ends in e: e 1 -> 2, d 1 -> 2 and c 2 -> 3 are
        // captured, and b (5) stops the capture.
        let p = pos([4, 4, 4, 4, 4, 5, 4, 4, 2, 1, 1, 4], [7, 0], Player::One);
        let f = Move(5);
        assert_eq!(p.greedy_value(f), 2 + 2 + 3);
        assert_eq!(p.order_score(f), 7);
        assert_eq!(p.greedy_value(Move(0)), 0);
        assert_eq!(features(&p)[4], 7);
    }

    #[test]
    fn the_value_is_the_weighted_features_plus_the_tuners_table_entries() {
        // Positions of random games, both sides to move: the engine's evaluation equals what
        // the tuner fits, the linear features times `WEIGHTS` plus the pit-table entries it
        // names (so the tables it prints are read the way it fitted them).
        use rand::{RngExt, SeedableRng};
        let flat = |phase: usize| -> Vec<i32> {
            PIT_TABLE[phase]
                .iter()
                .flat_map(|side| {
                    side.iter()
                        .flat_map(|pit| pit[1..].iter().map(|&x| x as i32))
                })
                .collect()
        };
        let pair_flat = |phase: usize| -> Vec<i32> {
            PAIR_TABLE[phase]
                .iter()
                .flat_map(|side| side.iter().flat_map(|pair| pair.iter().map(|&x| x as i32)))
                .collect()
        };
        let (full, empty) = (flat(0), flat(1));
        let (pair_full, pair_empty) = (pair_flat(0), pair_flat(1));
        assert_eq!(full.len(), TABLE_ENTRIES);
        assert_eq!(pair_full.len(), PAIR_ENTRIES);
        assert!(full.iter().any(|&x| x != 0), "the tables are fitted");
        assert!(
            pair_full.iter().any(|&x| x != 0),
            "the pair tables are fitted"
        );
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(16);
        let mut checked = 0;
        for _ in 0..200 {
            let mut p = Awale::start(Variant::Standard);
            // (Random play can circle: a game is cut after 300 plies.)
            for _ in 0..300 {
                if p.outcome().is_some() {
                    break;
                }
                let f = features(&p);
                let linear: i32 = (0..FEATURES).map(|i| WEIGHTS[i] * f[i]).sum();
                let on = on_board(&p);
                let off = SEEDS as i32 - on;
                let pits: i32 = table_entries(&p)
                    .iter()
                    .map(|&e| full[e] * on + empty[e] * off)
                    .sum();
                let pairs: i32 = pair_entries(&p)
                    .iter()
                    .map(|&e| pair_full[e] * on + pair_empty[e] * off)
                    .sum();
                let table = (pits + pairs) / SEEDS as i32;
                assert_eq!(p.evaluate(), linear + table, "{}", p.format_position());
                checked += 1;
                let mut moves = <Awale as Game>::Moves::default();
                p.legal_moves(&mut moves);
                p.play(moves.as_ref()[rng.random_range(0..moves.len())]);
            }
        }
        assert!(checked > 5000, "{checked}");
    }

    #[test]
    fn pair_entries_name_each_two_neighbouring_pits_by_their_buckets() {
        // Buckets: 0-4 seeds each their own, 5-6, 7-11, a kroo from 12 on.
        let buckets: Vec<usize> = (0..=20).map(pair_bucket).collect();
        assert_eq!(
            buckets,
            [
                0, 1, 2, 3, 4, 5, 5, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7
            ]
        );
        // South to move: A..F = 0 1 2 5 12 3, North a..f = 7 0 0 0 0 4 (34 seeds).
        let p = pos([0, 1, 2, 5, 12, 3, 7, 0, 0, 0, 0, 4], [7, 7], Player::One);
        let n = PAIR_BUCKETS * PAIR_BUCKETS;
        let own = [(0, 1), (1, 2), (2, 5), (5, 7), (7, 3)];
        let theirs = [(6, 0), (0, 0), (0, 0), (0, 0), (0, 4)];
        let expected: Vec<usize> = own
            .iter()
            .chain(&theirs)
            .enumerate()
            .map(|(k, &(a, b))| k * n + a * PAIR_BUCKETS + b)
            .collect();
        assert_eq!(pair_entries(&p), expected);
        // North to move: its own row comes first.
        let q = p.with_side_to_move(Player::Two);
        let shifted: Vec<usize> = (expected[5..].iter().map(|e| e - 5 * n))
            .chain(expected[..5].iter().map(|e| e + 5 * n))
            .collect();
        assert_eq!(pair_entries(&q), shifted);
    }

    #[test]
    fn strategy_features_count_kroos_tempo_and_targets() {
        // One: A 13 (a kroo), B 1, C 0, D 2, E 4, F 0 = 20 seeds.
        // Two: a 1, b 0, c 2, d 0, e 3, f 1 = 7 seeds; captured 12 and 9.
        let p = pos([13, 1, 0, 2, 4, 0, 1, 0, 2, 0, 3, 1], [12, 9], Player::One);
        assert_eq!(kroos(&p, Player::One), 1);
        assert_eq!(kroos(&p, Player::Two), 0);
        // Tempo: B (1 seed, 4 pits to go) and D (2 seeds, 2 to go); A and E leave the row.
        // Two: a (1 of 5) and c (2 of 3); e (3 seeds, 1 pit to go) and f leave it.
        assert_eq!(tempo(&p, Player::One), 2);
        assert_eq!(tempo(&p, Player::Two), 2);
        // One's sowings end on: A 13 -> C (the lap skips A), B -> C, D -> F, E -> c, which
        // holds 2: one target.
        assert_eq!(hittable_weak(&p, Player::Two), 1);
        // Two's end on: a -> b, c -> e, e -> B, which holds 1, f -> A: one target.
        assert_eq!(hittable_weak(&p, Player::One), 1);
        let f = features(&p);
        // E captures c (2 + 1); b, which gets 1, stops the capture.
        assert_eq!(f[4], 3);
        assert_eq!(f[5], 1);
        assert_eq!(f[6], 0);
        // If two were to move: e ends on B, 1 -> 2, and A (14) stops the capture: 2 seeds.
        assert_eq!(f[7], 2);
        assert_eq!(f[8], 0);
    }
}
