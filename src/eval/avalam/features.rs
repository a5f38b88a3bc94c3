//! The Avalam evaluation's features and their fitted weights: the tower classes, the lone
//! pairs and the other terms as a vector, and the weights `examples/tune.rs` fits to it.

use pion_rules::avalam::endgame::edges;
use pion_rules::avalam::{Avalam, DIRECTIONS, MAX_HEIGHT, shift};
use pion_rules::game::Game;

/// Live tower classes per colour: height 1 to 4, times the number of stacking partners topped
/// by the tower's own colour (0, 1, 2 or more) and by the other colour (0, 1, 2 or more), less
/// the class with no partner at all (such a tower is fixed).
pub(super) const CLASSES: usize = 4 * 8;

/// The number of evaluation features.
pub const FEATURES: usize = 1 + 2 * CLASSES + 5;

/// Index of the first of the side to move's tower classes; the opponent's follow.
pub(super) const MINE: usize = 1;
pub(super) const THEIRS: usize = MINE + CLASSES;
pub(super) const REST: usize = THEIRS + CLASSES;

/// The class of a live tower of `height` with `own` and `other` partners (each capped at 2).
pub(super) const fn class(height: usize, own: usize, other: usize) -> usize {
    (height - 1) * 8 + own * 3 + other - 1
}

/// Feature names, in order, for the tuning tool's report.
pub const FEATURE_NAMES: [&str; FEATURES] = {
    let mut names = [""; FEATURES];
    names[0] = "fixed";
    const CLASS_NAMES: [&str; 2 * CLASSES] = [
        "m1_01", "m1_02", "m1_10", "m1_11", "m1_12", "m1_20", "m1_21", "m1_22", //
        "m2_01", "m2_02", "m2_10", "m2_11", "m2_12", "m2_20", "m2_21", "m2_22", //
        "m3_01", "m3_02", "m3_10", "m3_11", "m3_12", "m3_20", "m3_21", "m3_22", //
        "m4_01", "m4_02", "m4_10", "m4_11", "m4_12", "m4_20", "m4_21", "m4_22", //
        "t1_01", "t1_02", "t1_10", "t1_11", "t1_12", "t1_20", "t1_21", "t1_22", //
        "t2_01", "t2_02", "t2_10", "t2_11", "t2_12", "t2_20", "t2_21", "t2_22", //
        "t3_01", "t3_02", "t3_10", "t3_11", "t3_12", "t3_20", "t3_21", "t3_22", //
        "t4_01", "t4_02", "t4_10", "t4_11", "t4_12", "t4_20", "t4_21", "t4_22", //
    ];
    let mut i = 0;
    while i < 2 * CLASSES {
        names[MINE + i] = CLASS_NAMES[i];
        i += 1;
    }
    names[REST] = "can_capture";
    names[REST + 1] = "parity";
    names[REST + 2] = "tempo";
    names[REST + 3] = "mixed_pairs_odd";
    names[REST + 4] = "their_mono_pairs";
    names
};

/// Weights in centi-points per unit of each feature: the least-squares fit of the final margin
/// of self-play games (`examples/tune.rs`), since hand-set weights cannot balance 64 tower
/// classes against each other; the command, the fit and the matches are in docs/engine.md.
pub const WEIGHTS: [i32; FEATURES] = [
    99, //
    63, 54, 72, 67, 59, 46, 64, 62, //
    66, 50, 72, 69, 59, 47, 65, 61, //
    72, 54, 78, 76, 61, 68, 65, 62, //
    80, 75, 85, 74, 77, 79, 73, 70, //
    -54, -54, -70, -67, -58, -45, -63, -62, //
    -52, -49, -72, -69, -57, -47, -64, -61, //
    -52, -53, -78, -75, -58, -70, -66, -61, //
    -58, -50, -86, -60, -52, -79, -65, -49, //
    8, -1, 24, 11, 44,
];

/// The linear evaluation of a feature vector.
#[inline(always)]
pub(super) fn weigh(f: &[i32; FEATURES]) -> i32 {
    let mut v = 0;
    for i in 0..FEATURES {
        v += WEIGHTS[i] * f[i];
    }
    v
}

/// Towers with at least one stacking partner, and towers with at least two.
#[inline]
pub fn partner_degrees(pos: &Avalam) -> (u128, u128) {
    let mut at_most = [0u128; MAX_HEIGHT];
    for h in 1..MAX_HEIGHT {
        at_most[h] = at_most[h - 1] | pos.towers_of_height(h);
    }
    let (mut ones, mut twos) = (0u128, 0u128);
    for h in 1..MAX_HEIGHT {
        let towers = pos.towers_of_height(h);
        let partners = at_most[MAX_HEIGHT - h];
        for d in DIRECTIONS {
            // Towers whose neighbour in direction d is a partner.
            let has = towers & shift(partners, -d);
            twos |= ones & has;
            ones |= has;
        }
    }
    (ones, twos)
}

/// Lone pairs: two towers that are each other's only stacking partner, so exactly one move will
/// ever be played between them (the commonest endgame item, found without a flood fill).
/// Returns (pairs of both colours, pairs of the side to move's colour, pairs of the opponent's).
fn lone_pairs(edges: &[u128; 8], mine: u128, theirs: u128) -> (i32, i32, i32) {
    let (mut ones, mut twos) = (0u128, 0u128);
    for &e in edges {
        twos |= ones & e;
        ones |= e;
    }
    let single = ones & !twos;
    let (mut mixed, mut own, mut other) = (0, 0, 0);
    for (d, &by) in DIRECTIONS.iter().enumerate() {
        // Towers whose only partner lies in direction d and has this tower as its only partner.
        let p = edges[d] & single & shift(single, -by);
        mixed += (p & mine & shift(theirs, -by)).count_ones() as i32;
        own += (p & mine & shift(mine, -by)).count_ones() as i32;
        other += (p & theirs & shift(theirs, -by)).count_ones() as i32;
    }
    // Each one-colour pair was seen from both of its ends.
    (mixed, own / 2, other / 2)
}

/// The feature vector for the side to move (each feature is "mine minus theirs" or one-sided).
pub fn features(pos: &Avalam) -> [i32; FEATURES] {
    features_with(pos, &edges(pos))
}

/// [`features`] of a position whose [`edges`] are known.
#[inline(always)]
pub(super) fn features_with(pos: &Avalam, edges: &[u128; 8]) -> [i32; FEATURES] {
    let me = pos.side_to_move();
    let mine = pos.towers_of(me);
    let theirs = pos.towers_of(me.other());
    // Partners of each tower by colour, counted up to two: `own[k]`/`other[k]` hold the towers
    // with more than k partners topped by their own / the other colour.
    let (mut own, mut other) = ([0u128; 2], [0u128; 2]);
    let mut active = 0;
    for (d, &by) in DIRECTIONS.iter().enumerate() {
        let e = edges[d];
        active |= e;
        let same = e & ((mine & shift(mine, -by)) | (theirs & shift(theirs, -by)));
        let cross = e & !same;
        own[1] |= own[0] & same;
        own[0] |= same;
        other[1] |= other[0] & cross;
        other[0] |= cross;
    }
    let own_count = [!own[0], own[0] & !own[1], own[1]];
    let other_count = [!other[0], other[0] & !other[1], other[1]];
    let fixed = pos.occupied() & !active;
    let count = |set: u128| set.count_ones() as i32;
    let mut f = [0; FEATURES];
    f[0] = count(fixed & mine) - count(fixed & theirs);
    for h in 1..MAX_HEIGHT {
        let towers = pos.towers_of_height(h) & active;
        for (o, &own_set) in own_count.iter().enumerate() {
            let with_own = towers & own_set;
            for (x, &other_set) in other_count.iter().enumerate() {
                if o + x > 0 {
                    let set = with_own & other_set;
                    f[MINE + class(h, o, x)] = count(set & mine);
                    f[THEIRS + class(h, o, x)] = count(set & theirs);
                }
            }
        }
    }
    let their_vulnerable = other[0] & theirs;
    let (mixed, own_mono, their_mono) = lone_pairs(edges, mine, theirs);
    f[REST] = (their_vulnerable != 0) as i32;
    f[REST + 1] = if active.count_ones() % 2 == 1 { 1 } else { -1 };
    f[REST + 2] = 1;
    f[REST + 3] = mixed % 2;
    f[REST + 4] = their_mono - own_mono;
    f
}
