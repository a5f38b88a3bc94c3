//! Awale evaluation: captured seeds, seeds on each side, pits the opponent can capture,
//! mobility, the best capture available now and the strategy terms (houses, tempo, threats),
//! combined linearly, plus a table of what each pit is worth for each seed count and one of
//! what each two neighbouring pits are worth together.

use crate::search::levels::LevelEval;
use crate::search::{Evaluate, Horizon, MoveCodes, Profile};
use pion_rules::awale::{Awale, Move, PITS, SEEDS, landing, row};
use pion_rules::game::{Game, Player};

pub mod network;
mod tables;

pub use tables::{
    BUCKETS, FEATURE_NAMES, FEATURES, PAIR_BUCKETS, PAIR_ENTRIES, PAIR_TABLE, PIT_TABLE,
    TABLE_ENTRIES, WEIGHTS, pair_bucket,
};

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

/// The evaluation without the network: the linear features and the tables, which the tuner
/// fits and the network corrects.
#[inline]
pub fn fitted(pos: &Awale) -> i32 {
    let f = features(pos);
    (0..FEATURES).map(|i| WEIGHTS[i] * f[i]).sum::<i32>() + pit_tables(pos)
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
    // What the opponent could take if it were to move now: the danger of a waiting move.
    let flipped = pos.with_side_to_move(them);
    [
        capture_difference(pos, me),
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
    /// A quarter of a seed, and late moves two plies shallower from depth 4: measured in
    /// docs/engine.md ("time to depth").
    const ASPIRATION: Option<i32> = Some(25);
    const DEEP_REDUCTION_DEPTH: Option<i32> = Some(4);
    /// A search from outside the endgame databases takes their boards that can cycle at their
    /// likeliest value (the repetition scored on the board); one from inside searches their
    /// cycles (docs/egtb.md, "Bounds").
    const BOUNDS_AS_LEAVES: bool = true;
}

impl Evaluate for Awale {
    #[inline]
    fn evaluate(&self) -> i32 {
        fitted(self) + network::correction(self)
    }

    #[inline]
    fn order_score(&self, mv: Move) -> i32 {
        captures(self, mv)
    }

    /// One probe serves both the exact value and, on a cycling board, the static value: the
    /// database's share of a repetition scored here, in the evaluation's units, within the
    /// bounds each side can force.
    #[inline]
    fn horizon(&self) -> Horizon {
        match crate::egtb::probe(self) {
            Some(probe) if probe.cycle => Horizon::Bounded {
                low: probe.low,
                high: probe.high,
                likely: probe.margin,
            },
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

/// The seeds `me` has captured less the opponent's.
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
        // names (so the tables it prints are read the way it fitted them), plus the network's
        // correction (checked on its own in `network`).
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
                let net = network::correction(&p);
                assert_eq!(
                    p.evaluate(),
                    linear + table + net,
                    "{}",
                    p.format_position()
                );
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
