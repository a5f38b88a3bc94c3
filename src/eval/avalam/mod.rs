//! Avalam evaluation: a linear function of a few features computed with bitboards.
//!
//! A tower that can never again be moved or covered (five high, or no neighbour it can be
//! stacked with) is a point for good. A live tower is valued by its class: its height and how
//! many of its stacking partners are topped by its own colour and by the other colour (0, 1, or
//! 2 and more), with separate weights for the side to move's towers and the opponent's, which
//! tells a tower about to be covered from one that is safe for now. The weights are fitted by
//! least squares to self-play results (`examples/tune.rs`, which reads the feature vector through
//! [`features`]).

use crate::search::levels::LevelEval;
use crate::search::{
    Evaluate, Exact, Frontier, Horizon, MoveCodes, Profile, default_horizon, time,
};
use pion_rules::avalam::endgame::{Structure, edges};
use pion_rules::avalam::{Avalam, MAX_HEIGHT, Move, Variant, bits};
use pion_rules::game::{Game, Player};

mod features;

#[cfg(test)]
use features::{CLASSES, MINE, REST, THEIRS, class};
pub use features::{FEATURE_NAMES, FEATURES, WEIGHTS, features, partner_degrees};
use features::{features_with, weigh};

/// Towers on the board when a game between strong players ends (see `moves_to_go`).
const TOWERS_AT_THE_END: u64 = 14;

/// Centi-points per tower five high more than the opponent under `tiebreak5`: such towers
/// already count as fixed points, and the tie-break adds to them, since it decides the games
/// that end level on points. The weight is the best of those matched against each other
/// (docs/students.md).
const TIEBREAK_WEIGHT: i32 = 30;

/// The `tiebreak5` term of the evaluation for the side to move (0 under other rules).
#[inline(always)]
fn tiebreak_term(pos: &Avalam) -> i32 {
    match pos.tiebreak() {
        Some(fives) => {
            let me = pos.side_to_move().index();
            TIEBREAK_WEIGHT * (fives[me] as i32 - fives[1 - me] as i32)
        }
        None => 0,
    }
}

impl MoveCodes for Avalam {
    const MOVE_SLOTS: usize = 89 * 89 + 1;

    #[inline]
    fn encode_move(mv: Move) -> u16 {
        mv.from as u16 * 89 + mv.to as u16 + 1
    }

    #[inline]
    fn decode_move(code: u16) -> Move {
        let c = code.saturating_sub(1);
        Move {
            from: (c / 89) as u8,
            to: (c % 89) as u8,
        }
    }
}

impl Profile for Avalam {
    /// The margins bound how much one move changes the static value: covering one's own tower
    /// lowers it, and covering the opponent's raises it by little, so a node whose static value
    /// is that far outside the window is not searched (the measurements: docs/engine.md).
    const FRONTIER: Option<Frontier> = Some(Frontier {
        reverse: [30, 60],
        noisy: [50, 100],
        quiet: [0, 20],
    });

    /// Every move takes one tower off the board, and games between strong players end with
    /// about 14 towers left, give or take two (measured with `examples/moves_left.rs`:
    /// docs/engine.md). At least three, so that no move is played as the last before the time
    /// control: the last moves are proven in milliseconds, but a longer game must not find
    /// the clock spent.
    fn moves_to_go(&self) -> u64 {
        if !self.variant().moves_as_standard() {
            return time::DEFAULT_MOVES_TO_GO;
        }
        let plies = (self.occupied().count_ones() as u64).saturating_sub(TOWERS_AT_THE_END);
        plies.div_ceil(2).max(3)
    }
}

impl Exact for Avalam {
    /// Exact when only one-move components are left (see [`pion_rules::avalam::endgame`]).
    fn exact_value(&self) -> Option<(i32, u32)> {
        Structure::exact_value(self)
    }

    /// Keeps one move among the one-move components: the one that dominates the others.
    fn prune_equivalent(&self, moves: &mut <Avalam as Game>::Moves) {
        Structure::of(self).prune(self, moves);
    }

    /// One pass over the components gives both the pruning and the bounds.
    fn settle(&self, moves: &mut <Avalam as Game>::Moves) -> Option<(i32, i32)> {
        let s = Structure::of(self);
        s.prune(self, moves);
        s.bounds()
    }
}

impl Evaluate for Avalam {
    #[inline]
    fn evaluate(&self) -> i32 {
        weigh(&features(self)) + tiebreak_term(self)
    }

    /// One pass over the stacking edges serves the end test, the endgame value and the features
    /// (standard rules only: the endgame structure values points, not `tiebreak5`'s towers).
    #[inline]
    fn horizon(&self) -> Horizon {
        if self.variant() != Variant::Standard {
            return default_horizon(self);
        }
        let edges = edges(self);
        if edges.iter().all(|&e| e == 0) {
            // No stacking partner anywhere: no move is left and the game is over.
            return Horizon::Exact(self.margin());
        }
        match Structure::exact_value_with(self, &edges) {
            Some((margin, _)) => Horizon::Exact(margin),
            None => Horizon::Heuristic(weigh(&features_with(self, &edges))),
        }
    }

    #[inline]
    fn order_score(&self, mv: Move) -> i32 {
        let me = self.side_to_move();
        let (from_height, top) = self.tower(mv.from as u32);
        let (to_height, to_top) = self.tower(mv.to as u32);
        // The margin changes only with the colour that gets covered.
        let mut score = if to_top == me { -4 } else { 4 };
        if from_height + to_height == MAX_HEIGHT && top == me {
            score += 2;
        }
        score
    }
}

/// The `divine` value of one tower topped by `owner`, before the sign for whose tower it is.
fn divine_tower(pos: &Avalam, sq: u32, height: usize, owner: Player, occupied: u128) -> i32 {
    let neighbours = Avalam::neighbours(sq) & occupied;
    if height == MAX_HEIGHT || neighbours == 0 {
        return 1000;
    }
    let threatened = bits(neighbours & pos.towers_of(owner.other())).any(|n| {
        let (h, _) = pos.tower(n);
        h + height <= MAX_HEIGHT
    });
    if threatened {
        return -200;
    }
    [10, 60, 150, 400][height - 1]
}

impl LevelEval for Avalam {
    const BASIC_DEPTH: u32 = 4;
    const DIVINE_DEPTH: u32 = 4;
    /// Half `basic`'s depth: `divine`'s evaluation at depth 2 lost every game to `greedy`.
    const MEDIUM_DEPTH: u32 = 2;

    fn basic_value(&self, me: Player) -> i32 {
        if let Some(outcome) = self.outcome() {
            return 100_000 * outcome.margin_for(me).signum();
        }
        self.towers_of(me).count_ones() as i32 - self.towers_of(me.other()).count_ones() as i32
    }

    fn divine_value(&self, me: Player) -> i32 {
        if let Some(outcome) = self.outcome() {
            return 1_000_000 * outcome.margin_for(me).signum();
        }
        let occupied = self.occupied();
        let mut total = 0;
        for sq in bits(occupied) {
            let (height, owner) = self.tower(sq);
            let v = divine_tower(self, sq, height, owner, occupied);
            total += if owner == me { v } else { -v };
        }
        total
    }

    /// The `basic` evaluation, searched half as deep: in Avalam `basic` is the stronger of
    /// the original bots (docs/engine.md, "The ladder").
    fn medium_value(&self, me: Player) -> i32 {
        self.basic_value(me)
    }

    fn greedy_value(&self, mv: Move) -> i32 {
        let me = self.side_to_move();
        let mut child = *self;
        child.play(mv);
        let p = child.points();
        p[me.index()] as i32 - p[me.other().index()] as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pion_rules::avalam::{Variant, cell};

    fn board(towers: &[(u32, u32, usize, Player)], side: Player) -> Avalam {
        let mut pos = Avalam::empty(Variant::Standard);
        for &(col, row, h, top) in towers {
            pos.set_tower(cell(col, row), h, top);
        }
        pos.set_side(side);
        pos
    }

    #[test]
    fn moves_to_go_follows_the_towers_left() {
        let start = Avalam::start(Variant::Standard);
        // 48 towers: about 34 plies to play, 17 of them the first player's.
        assert_eq!(start.moves_to_go(), 17);
        let mut after = start;
        let mut moves = <Avalam as Game>::Moves::default();
        start.legal_moves(&mut moves);
        after.play(moves.as_ref()[0]);
        assert_eq!(after.moves_to_go(), 17, "33 plies, the second player's 17");
        // Near the end the guess never drops below three moves.
        let late = board(
            &[(0, 0, 1, Player::One), (1, 0, 1, Player::Two)],
            Player::One,
        );
        assert_eq!(late.moves_to_go(), 3);
        let own_colour = Avalam::start(Variant::OwnColour);
        assert_eq!(own_colour.moves_to_go(), time::DEFAULT_MOVES_TO_GO);
    }

    #[test]
    fn move_codes_round_trip() {
        let pos = Avalam::start(Variant::Standard);
        let mut moves = <Avalam as Game>::Moves::default();
        pos.legal_moves(&mut moves);
        for &mv in moves.iter() {
            let code = Avalam::encode_move(mv);
            assert!(code >= 1 && (code as usize) < Avalam::MOVE_SLOTS);
            assert_eq!(Avalam::decode_move(code), mv);
        }
    }

    #[test]
    fn features_see_fixed_and_vulnerable_towers() {
        use Player::{One as Y, Two as R};
        // a1 yellow 5 (fixed), c1 red 1 next to d1 yellow 1 (both vulnerable), i9 red 2 alone.
        let pos = board(&[(0, 0, 5, Y), (2, 0, 1, R), (3, 0, 1, Y), (8, 8, 2, R)], Y);
        let f = features(&pos);
        assert_eq!(f[0], 0, "one fixed tower each");
        // d1 (mine) and c1 (theirs): height 1, no partner of their own colour, one of the other.
        assert_eq!(f[MINE + class(1, 0, 1)], 1);
        assert_eq!(f[THEIRS + class(1, 0, 1)], 1);
        assert_eq!(f[MINE..REST].iter().sum::<i32>(), 2, "no other live tower");
        assert_eq!(f[REST], 1, "a red tower can be covered");
    }

    #[test]
    fn classes_count_partners_by_colour() {
        use Player::{One as Y, Two as R};
        // e5 yellow 2 between d5 and f5 yellow 1, under e6 red 3 (2 + 3 = 5: a partner) and
        // over e4 red 4 (2 + 4 = 6: not one). d5 and f5 also touch e6 and e4 diagonally.
        let pos = board(
            &[
                (4, 4, 2, Y),
                (3, 4, 1, Y),
                (5, 4, 1, Y),
                (4, 5, 3, R),
                (4, 3, 4, R),
            ],
            Y,
        );
        let f = features(&pos);
        assert_eq!(f[MINE + class(2, 2, 1)], 1, "e5");
        assert_eq!(f[MINE + class(1, 1, 2)], 2, "d5 and f5");
        assert_eq!(
            f[THEIRS + class(3, 0, 2)],
            1,
            "e6: three yellow partners, capped at 2"
        );
        assert_eq!(f[THEIRS + class(4, 0, 2)], 1, "e4");
        assert_eq!(f[MINE..THEIRS].iter().sum::<i32>(), 3);
        assert_eq!(f[THEIRS..REST].iter().sum::<i32>(), 2);
        assert_eq!(f[0], 0, "nothing fixed");
        // From red's side the same towers swap blocks.
        let mut red = pos;
        red.set_side(R);
        let g = features(&red);
        assert_eq!(g[MINE..THEIRS], f[THEIRS..REST]);
        assert_eq!(g[THEIRS..REST], f[MINE..THEIRS]);
    }

    #[test]
    fn feature_names_follow_the_class_index() {
        for height in 1..MAX_HEIGHT {
            for own in 0..3 {
                for other in 0..3 {
                    if own + other == 0 {
                        continue;
                    }
                    let c = class(height, own, other);
                    assert!(c < CLASSES);
                    let suffix = format!("{height}_{own}{other}");
                    assert_eq!(FEATURE_NAMES[MINE + c], format!("m{suffix}"));
                    assert_eq!(FEATURE_NAMES[THEIRS + c], format!("t{suffix}"));
                }
            }
        }
        let mut sorted = FEATURE_NAMES.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(
            sorted.len(),
            FEATURES,
            "names are distinct and none is empty"
        );
        assert!(!FEATURE_NAMES.contains(&""));
    }

    #[test]
    fn lone_pairs_count_one_move_items() {
        use Player::{One as Y, Two as R};
        // a1/b1: a mixed lone pair. a5/b5: a red lone pair. e9/f9/g9: a chain of three (no
        // lone pair). i1 yellow 4 next to i2 red 2: not partners (6 > 5). a9 yellow 3 next to
        // b9 red 2: a mixed lone pair of taller towers.
        let towers = [
            (0, 0, 1, Y),
            (1, 0, 1, R),
            (0, 4, 1, R),
            (1, 4, 1, R),
            (4, 8, 1, Y),
            (5, 8, 1, R),
            (6, 8, 1, Y),
            (8, 0, 4, Y),
            (8, 1, 2, R),
            (0, 8, 3, Y),
            (1, 8, 2, R),
        ];
        let y = features(&board(&towers, Y));
        assert_eq!(
            (y[REST + 2], y[REST + 3], y[REST + 4]),
            (1, 0, 1),
            "two mixed pairs, one red pair"
        );
        let r = features(&board(&towers, R));
        assert_eq!(
            (r[REST + 3], r[REST + 4]),
            (0, -1),
            "the red pair costs red a tower"
        );
        // Break one mixed pair (b1 grows to 5): one mixed pair is left, an odd count.
        let mut odd = towers;
        odd[1] = (1, 0, 5, R);
        assert_eq!(features(&board(&odd, Y))[REST + 3], 1);
    }

    #[test]
    fn basic_and_divine_match_the_issue_formulas() {
        use Player::{One as Y, Two as R};
        // a1: yellow 5 (1000). c1 yellow 2 next to d1 red 3: stackable (2+3=5) so -200 for
        // yellow, and d1 is threatened by c1 too: -200 for red. g5 yellow 3 next to h5 yellow 1:
        // not threatened, 150; h5: 10. a9 red 1 alone: 1000.
        let pos = board(
            &[
                (0, 0, 5, Y),
                (2, 0, 2, Y),
                (3, 0, 3, R),
                (6, 4, 3, Y),
                (7, 4, 1, Y),
                (0, 8, 1, R),
            ],
            Y,
        );
        let yellow = 1000 - 200 + 150 + 10;
        let red = -200 + 1000;
        assert_eq!(pos.divine_value(Y), yellow - red);
        assert_eq!(pos.divine_value(R), red - yellow);
        assert_eq!(pos.basic_value(Y), 4 - 2);
        assert_eq!(pos.basic_value(R), 2 - 4);
        // A 4 next to an opponent 2 cannot be stacked (6 > 5): 400, not -200. The a9/b9 pair
        // (-200 each, cancelling) keeps the game going.
        let pos = board(&[(4, 4, 4, Y), (5, 4, 2, R), (0, 8, 1, Y), (1, 8, 1, R)], R);
        assert_eq!(pos.divine_value(Y), 400 - 60);
        // Terminal: nothing can move; yellow has 2 towers, red 1.
        let pos = board(&[(0, 0, 1, Y), (4, 4, 1, Y), (8, 8, 1, R)], R);
        assert!(pos.outcome().is_some());
        assert_eq!(pos.divine_value(Y), 1_000_000);
        assert_eq!(pos.basic_value(R), -100_000);
    }

    #[test]
    fn greedy_counts_the_margin_after_the_move() {
        use Player::{One as Y, Two as R};
        let pos = board(&[(0, 0, 1, Y), (1, 0, 1, R), (5, 5, 1, Y)], Y);
        let cover = Move {
            from: cell(0, 0) as u8,
            to: cell(1, 0) as u8,
        };
        let covered = Move {
            from: cell(1, 0) as u8,
            to: cell(0, 0) as u8,
        };
        assert_eq!(pos.greedy_value(cover), 2);
        assert_eq!(pos.greedy_value(covered), 0);
    }

    #[test]
    fn horizon_agrees_with_its_parts_along_random_games() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let (mut exact, mut heuristic) = (0, 0);
        for variant in [Variant::Standard, Variant::OwnColour, Variant::TieBreak5] {
            for _ in 0..100 {
                let mut pos = Avalam::start(variant);
                loop {
                    let h = pos.horizon();
                    assert_eq!(h, default_horizon(&pos), "{}", pos.format_position());
                    match h {
                        Horizon::Exact(_) => exact += 1,
                        Horizon::Heuristic(_) => heuristic += 1,
                        Horizon::Bounded { .. } => panic!("Avalam has no bounded leaves"),
                    }
                    let mut moves = <Avalam as Game>::Moves::default();
                    pos.legal_moves(&mut moves);
                    if moves.is_empty() {
                        assert!(matches!(h, Horizon::Exact(_)));
                        break;
                    }
                    pos.play(moves.as_slice()[rng.random_range(0..moves.len())]);
                }
            }
        }
        assert!(exact > 200 && heuristic > 1000, "{exact} {heuristic}");
    }
}
