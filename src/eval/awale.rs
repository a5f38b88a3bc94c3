//! Awale evaluation: captured seeds, seeds on each side, pits the opponent can capture,
//! mobility, the best capture available now and the strategy terms (houses, tempo, threats),
//! combined linearly, plus a table of what each pit is worth for each seed count.

use crate::search::levels::LevelEval;
use crate::search::{Evaluate, Exact, MoveCodes, Profile};
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

/// Weights in centi-points per unit of each feature, fitted together with [`PIT_TABLE`] by least
/// squares on the final margin (`cargo run --release --example tune -- awale 8000 4000 32
/// /work/egtb`: 800 537 positions of 8000 self-play games of the build with the first,
/// untapered tables, each labelled by the 22-seed databases' exact margin where the game reached
/// them, each replaced by the quiet position its captures lead to, as the quiescence search
/// would evaluate it).
pub const WEIGHTS: [i32; FEATURES] = [106, -8, -132, 194, 81, 309, 207, -71, -62];

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
                0, 76, 249, 207, 241, 220, 301, 304, 236, 153, 120, 142, -69, -46, 99, 205,
            ],
            [
                0, 17, 173, 85, 85, 179, 91, 58, -7, -22, -47, 101, -114, -77, 16, 50,
            ],
            [
                0, 3, 91, -19, 101, -14, -35, -70, -125, -168, -36, 41, -126, -77, 37, 11,
            ],
            [
                0, -63, 4, 9, -53, -115, -157, -204, -206, -114, -17, 66, -155, 0, -57, -148,
            ],
            [
                0, -97, 75, -85, -131, -145, -163, -128, -77, -12, 55, 142, -15, -91, -42, -214,
            ],
            [
                0, 14, 59, -113, -50, -46, -102, -53, 38, 106, 203, 273, -37, 6, -63, -382,
            ],
        ],
        [
            [
                0, -54, -241, -167, -208, -165, -302, -318, -268, -199, -181, -177, 81, 14, -115,
                -260,
            ],
            [
                0, -16, -154, -121, -78, -236, -160, -78, -50, -44, -25, -125, 73, 46, -38, -161,
            ],
            [
                0, -8, -74, 10, -125, -55, 11, 20, 88, 91, 22, -71, 138, 24, -29, -91,
            ],
            [
                0, 48, 13, -34, 17, 83, 120, 152, 141, 107, -10, -86, 136, -8, -30, 1,
            ],
            [
                0, 96, -117, 52, 86, 107, 125, 83, 57, -1, -113, -184, -8, -18, -45, 125,
            ],
            [
                0, -67, -96, 89, 54, 17, 62, 10, -68, -133, -242, -298, -65, -102, -33, 294,
            ],
        ],
    ],
    [
        [
            [
                0, -132, 0, -27, 21, 46, 258, 226, 198, 84, 18, 11, -189, -30, 38, 136,
            ],
            [
                0, -91, -17, -110, -85, 83, 68, 40, 12, -75, -104, -54, -149, -107, -14, 33,
            ],
            [
                0, -118, -12, -119, 48, 96, -14, -65, -150, -199, -120, -34, -145, -98, 25, 53,
            ],
            [
                0, -161, -101, -38, -15, -83, -172, -210, -246, -128, -105, -26, -142, 4, -89, -162,
            ],
            [
                0, -179, 47, -71, -129, -246, -273, -287, -160, -63, 56, 218, 83, 66, 110, 2,
            ],
            [
                0, 9, 5, -156, -350, -351, -258, -172, -23, 164, 360, 560, 236, 266, 318, 40,
            ],
        ],
        [
            [
                0, 73, -4, 40, 18, -5, -253, -245, -214, -127, -57, -30, 210, 50, -16, -206,
            ],
            [
                0, 76, -1, 105, 76, -106, -83, -76, -39, 68, 79, 63, 152, 103, 3, -98,
            ],
            [
                0, 124, 22, 143, -50, -79, -14, 42, 137, 194, 120, 36, 153, 63, -23, -89,
            ],
            [
                0, 158, 95, 41, -15, 48, 119, 204, 202, 160, 111, 24, 140, 12, 30, 44,
            ],
            [
                0, 177, -46, 35, 87, 199, 235, 249, 164, 72, -46, -184, -80, -99, -156, -178,
            ],
            [
                0, -14, -31, 114, 246, 298, 250, 202, 29, -126, -302, -533, -251, -299, -361, -262,
            ],
        ],
    ],
];

/// Each pit as the tables see it: the row (0 for the mover's, 1 for the opponent's), the pit's
/// place from the row's first, and its bucket.
#[inline]
fn cells(pos: &Awale) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    let me = pos.side_to_move();
    [me, me.other()]
        .into_iter()
        .enumerate()
        .flat_map(move |(k, player)| {
            pos.pits()[row(player)]
                .iter()
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

/// What the pit tables add to the value, for the side to move.
#[inline]
fn pit_tables(pos: &Awale) -> i32 {
    let (mut full, mut empty) = (0, 0);
    for (k, i, b) in cells(pos) {
        full += PIT_TABLE[0][k][i][b] as i32;
        empty += PIT_TABLE[1][k][i][b] as i32;
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
    /// Seeds can circle for a hundred plies and more, so a search "to the end" rarely ends; in
    /// a match at 50 ms per move solving scored -45 +/- 61 Elo (100 games), so it stays off.
    const SOLVES_ENDGAMES: bool = false;
    const QUIESCENCE: bool = true;
}

impl Exact for Awale {
    /// The endgame databases' value, where they are installed and hold the position.
    #[inline]
    fn exact_value(&self) -> Option<(i32, u32)> {
        crate::egtb::probe(self).map(|probe| (probe.margin, 0))
    }
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
        let (full, empty) = (flat(0), flat(1));
        assert_eq!(full.len(), TABLE_ENTRIES);
        assert!(full.iter().any(|&x| x != 0), "the tables are fitted");
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
                let table: i32 = table_entries(&p)
                    .iter()
                    .map(|&e| full[e] * on + empty[e] * (SEEDS as i32 - on))
                    .sum::<i32>()
                    / SEEDS as i32;
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
