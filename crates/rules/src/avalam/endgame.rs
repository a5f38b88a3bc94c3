//! Exact Avalam endgame structure (standard rules): independent components and one-move items.
//!
//! Two adjacent towers can be stacked while their heights add up to five or less. Towers only
//! grow and cells only empty, so such "stacking edges" only ever disappear, and the live towers
//! (those with a partner) split into connected components of the edge graph that never interact
//! again: the game is a sum of independent subgames, and a tower with no partner is fixed.
//!
//! A component is an *item* when every move in it leaves it with no edge: exactly one move will
//! ever be played in it. A move `a -> b` removes exactly the tower on `b` from the count (the
//! tower on `a` keeps its colour on top of `b`), so in an item the mover covers an opponent's
//! tower when the item holds one: a *mixed* item is worth two points of swing to whoever takes it,
//! a one-colour item costs its owner one tower whoever takes it (no swing).
//!
//! Two facts follow, both exact:
//! - Among item moves, taking a largest-swing item, covering an opponent's tower, is at least as
//!   good as any other item move. Games that differ only by one item's swing have the same tree,
//!   with final margins that differ by at most the swing difference at every leaf, so their
//!   values differ by at most that much; exchanging the item taken moves the result by no more
//!   than the swing gained. So the search keeps a single item move ([`Structure::item_move`]).
//! - When only items are left the players take mixed items first, alternately, so the side to
//!   move gets `mixed % 2` more than the one-colour items leave ([`Structure::exact`]).
//!
//! The same argument prunes pairs inside larger components: when stacking two towers takes both
//! out of play whichever moves onto the other (five high, or no partner left around either cell),
//! the two results differ only by the colour on top, and covering the opponent dominates.
//!
//! Each component also bounds how much it can still change the margin, by its colours and by how
//! many moves it can still see; their sum bounds the final margin ([`Structure::bounds`]), and
//! the search stops at a node whose bounds settle its window.

use super::{Avalam, DIRECTIONS, MAX_HEIGHT, Move, Variant, bits, shift};
use crate::game::Game;

/// Components larger than this are never items worth checking (a king's neighbourhood).
const MAX_ITEM: usize = 9;

/// Dominated pair moves are looked for only among this many moves or fewer: in the endgame,
/// where they are common and the solver needs them, not in the middle game, where checking
/// every move would cost more than the few it drops.
const PAIR_PRUNING_MOVES: usize = 48;

/// `at_most[m]`: towers of height 1..=m (`at_most[0]` is empty).
#[inline(always)]
fn at_most(pos: &Avalam) -> [u128; MAX_HEIGHT] {
    let mut at_most = [0u128; MAX_HEIGHT];
    for h in 1..MAX_HEIGHT {
        at_most[h] = at_most[h - 1] | pos.towers_of_height(h);
    }
    at_most
}

/// `edges[d]`: the towers whose neighbour in direction `DIRECTIONS[d]` is a stacking partner
/// (the two heights add up to five or less). The evaluation reads its features off these too.
#[inline(always)]
pub fn edges(pos: &Avalam) -> [u128; 8] {
    let at_most = at_most(pos);
    let mut edges = [0u128; 8];
    for h in 1..MAX_HEIGHT {
        let towers = pos.towers_of_height(h);
        let partners = at_most[MAX_HEIGHT - h];
        for (d, &by) in DIRECTIONS.iter().enumerate() {
            edges[d] |= towers & shift(partners, -by);
        }
    }
    edges
}

/// The partners of the towers of `set`, following the precomputed edges.
#[inline(always)]
fn partners_of(set: u128, edges: &[u128; 8]) -> u128 {
    let mut out = 0;
    for (d, &by) in DIRECTIONS.iter().enumerate() {
        out |= shift(set & edges[d], by);
    }
    out
}

/// Flood-fills the component holding `comp` along the edges from `frontier` (the towers added
/// last), stopping once it holds more than `limit` towers; returns the towers reached and the
/// frontier left, so a stopped fill can be resumed.
#[inline(always)]
fn grow(mut comp: u128, mut frontier: u128, edges: &[u128; 8], limit: usize) -> (u128, u128) {
    while frontier != 0 && comp.count_ones() as usize <= limit {
        let next = partners_of(frontier, edges) & !comp;
        comp |= next;
        frontier = next;
    }
    (comp, frontier)
}

/// The endgame structure of a position: its items and the towers of larger components.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Structure {
    /// Towers with at least one stacking partner.
    pub live: u128,
    /// Towers in items (components where exactly one more move will be played).
    pub items: u128,
    /// Number of items.
    pub item_count: u32,
    /// Items holding towers of both colours.
    pub mixed: u32,
    /// One-colour items of the side to move, and of the opponent.
    pub mono: [u32; 2],
    /// The one item move the search needs (see the module comment), if there is an item.
    pub item_move: Option<Move>,
    /// Proven bounds on the final margin for the side to move (see [`Structure::bounds`]).
    low: i32,
    high: i32,
}

impl Structure {
    /// Analyses a position; under other variants than the standard one nothing is an item.
    pub fn of(pos: &Avalam) -> Structure {
        let mut s = Structure::default();
        if pos.variant() != Variant::Standard {
            return s;
        }
        let edges = edges(pos);
        let live = edges.iter().fold(0, |acc, e| acc | e);
        s.live = live;
        let mine = pos.towers_of(pos.side_to_move());
        let now = mine.count_ones() as i32
            - pos.towers_of(pos.side_to_move().other()).count_ones() as i32;
        (s.low, s.high) = (now, now);
        let mut rest = live;
        let mut first_mono = None;
        while rest != 0 {
            let seed = rest & rest.wrapping_neg();
            let (comp, _) = grow(seed, seed, &edges, usize::MAX);
            rest &= !comp;
            let n = comp.count_ones();
            let own = comp & mine;
            let (m, t) = (own.count_ones() as i32, (n - own.count_ones()) as i32);
            // The most moves the component can still see: each tower ends at most five high.
            let most = if n == 2 {
                1
            } else {
                let height: u32 = (1..MAX_HEIGHT)
                    .map(|h| h as u32 * (comp & pos.towers_of_height(h)).count_ones())
                    .sum();
                n as i32 - height.div_ceil(MAX_HEIGHT as u32) as i32
            };
            // At most one move left makes an item; so may the shape of the component.
            let item =
                n as usize <= MAX_ITEM && (most <= 1 || item_move(pos, comp, mine).is_some());
            let most = if item { 1 } else { most };
            if t == 0 {
                (s.low, s.high) = (s.low - most, s.high - 1);
            } else if m == 0 {
                (s.low, s.high) = (s.low + 1, s.high + most);
            } else {
                (s.low, s.high) = (s.low - m.min(most), s.high + t.min(most));
            }
            if !item {
                continue;
            }
            s.items |= comp;
            s.item_count += 1;
            if m != 0 && t != 0 {
                s.mixed += 1;
                if s.mixed == 1 {
                    s.item_move = item_move(pos, comp, mine);
                }
            } else {
                s.mono[(m == 0) as usize] += 1;
                first_mono = first_mono.or(Some(comp));
            }
        }
        if s.item_move.is_none()
            && let Some(comp) = first_mono
        {
            s.item_move = item_move(pos, comp, mine);
        }
        if let Some((exact, _)) = s.exact(pos) {
            // Only items: the bounds close on the exact value.
            (s.low, s.high) = (exact, exact);
        }
        s
    }

    /// Proven bounds `(low, high)` on the final margin for the side to move; `None` when the
    /// game is over or under other rules. They are equal, the exact value, when only items are
    /// left.
    ///
    /// A move `a -> b` takes exactly the tower on `b` off its colour's count, and a tower with
    /// no partner is never covered. In a component of `n` towers holding `m` of the mover's and
    /// `t` of the opponent's, with total height `h`, between 1 and `most = n - ceil(h / 5)` moves
    /// will be played (each tower ends at most five high), and exactly one in an item; so the
    /// component changes the margin by at least `-min(m, most)` and at most `min(t, most)`, and
    /// when it holds towers of one colour only, every move in it covers that colour.
    pub fn bounds(&self) -> Option<(i32, i32)> {
        (self.live != 0).then_some((self.low, self.high))
    }

    /// The exact final margin for the side to move and the plies left, when only items remain;
    /// the same as `Structure::of(pos).exact(pos)`, but it gives up at the first component that
    /// is not an item (the common case at search leaves, which must stay cheap).
    pub fn exact_value(pos: &Avalam) -> Option<(i32, u32)> {
        if pos.variant() != Variant::Standard {
            return None;
        }
        let edges = edges(pos);
        Structure::exact_value_with(pos, &edges)
    }

    /// [`Structure::exact_value`] of a standard position whose [`edges`] are known.
    pub fn exact_value_with(pos: &Avalam, edges: &[u128; 8]) -> Option<(i32, u32)> {
        let live = edges.iter().fold(0, |acc, e| acc | e);
        if live == 0 {
            return None;
        }
        let me = pos.side_to_move();
        let mine = pos.towers_of(me);
        let mut margin = mine.count_ones() as i32 - pos.towers_of(me.other()).count_ones() as i32;
        let (mut rest, mut items, mut mixed) = (live, 0, 0);
        while rest != 0 {
            let seed = rest & rest.wrapping_neg();
            let (comp, _) = grow(seed, seed, edges, MAX_ITEM);
            if comp.count_ones() as usize > MAX_ITEM {
                return None;
            }
            item_move(pos, comp, mine)?;
            rest &= !comp;
            items += 1;
            let own = comp & mine;
            if own == 0 {
                margin += 1;
            } else if own == comp {
                margin -= 1;
            } else {
                mixed += 1;
            }
        }
        Some((margin + mixed % 2, items))
    }

    /// The exact final margin for the side to move and the plies left, when only items remain.
    pub fn exact(&self, pos: &Avalam) -> Option<(i32, u32)> {
        if self.live == 0 || self.items != self.live {
            return None;
        }
        let me = pos.side_to_move();
        let now =
            pos.towers_of(me).count_ones() as i32 - pos.towers_of(me.other()).count_ones() as i32;
        let margin = now + (self.mixed % 2) as i32 + self.mono[1] as i32 - self.mono[0] as i32;
        Some((margin, self.item_count))
    }

    /// Keeps the single item move that dominates the other item moves, and drops the moves
    /// that [`dominated_pair_move`] finds no better than the reverse move.
    pub fn prune(&self, pos: &Avalam, moves: &mut <Avalam as Game>::Moves) {
        if pos.variant() != Variant::Standard {
            return;
        }
        if self.items == 0 && moves.len() > PAIR_PRUNING_MOVES {
            return;
        }
        let mine = pos.towers_of(pos.side_to_move());
        let at_most = at_most(pos);
        let pairs = moves.len() <= PAIR_PRUNING_MOVES;
        moves.retain(|mv| {
            if self.items & (1u128 << mv.from) != 0 {
                Some(mv) == self.item_move
            } else {
                !(pairs && dominated_pair_move(pos, mv, mine, &at_most))
            }
        });
    }
}

/// Whether `mv` (`a -> b`) is no better than its reverse `b -> a` because both take the pair out
/// of play, the merged tower being five high or having no partner around either cell: the two
/// positions then differ only by the colour of one dead tower, so the move that covers the
/// opponent's tower dominates, and of two towers of one colour the lower origin is kept.
#[inline]
fn dominated_pair_move(pos: &Avalam, mv: Move, mine: u128, at_most: &[u128; MAX_HEIGHT]) -> bool {
    let (a, b) = (mv.from as u32, mv.to as u32);
    let (a_mine, b_mine) = (mine & (1u128 << a) != 0, mine & (1u128 << b) != 0);
    // The colour rule first: it is cheaper than the heights and rules out half the moves.
    if !(if a_mine == b_mine { a > b } else { b_mine }) {
        return false;
    }
    let merged = pos.tower(a).0 + pos.tower(b).0;
    merged >= MAX_HEIGHT || {
        let partners = at_most[MAX_HEIGHT - merged] & !((1u128 << a) | (1u128 << b));
        (Avalam::neighbours(a) | Avalam::neighbours(b)) & partners == 0
    }
}

/// When the component `comp` (at most [`MAX_ITEM`] towers) is an item, its best move for the
/// side to move (covering an opponent's tower if it holds one, the lowest such move otherwise).
fn item_move(pos: &Avalam, comp: u128, mine: u128) -> Option<Move> {
    if comp.count_ones() == 2 {
        // A lone pair (the common case): its only edge, onto the opponent's tower if any.
        let (low, high) = (comp.trailing_zeros(), 127 - comp.leading_zeros());
        let (from, to) = if mine & (1u128 << low) != 0 {
            (low, high)
        } else {
            (high, low)
        };
        return Some(Move {
            from: from as u8,
            to: to as u8,
        });
    }
    let mut sq = [0u32; MAX_ITEM];
    let mut h = [0usize; MAX_ITEM];
    let mut n = 0;
    for s in bits(comp) {
        sq[n] = s;
        h[n] = pos.tower(s).0;
        n += 1;
    }
    // Edges as index pairs i < j.
    let mut edges = [(0u8, 0u8); MAX_ITEM * 8 / 2];
    let mut e = 0;
    for i in 0..n {
        let near = Avalam::neighbours(sq[i]);
        for j in i + 1..n {
            if near & (1u128 << sq[j]) != 0 && h[i] + h[j] <= MAX_HEIGHT {
                edges[e] = (i as u8, j as u8);
                e += 1;
            }
        }
    }
    let edges = &edges[..e];
    // An item: every two edges share an endpoint, and the merged tower of one edge is too tall
    // for the other edge's far endpoint (so no edge survives either direction of any move).
    for (x, &(a, b)) in edges.iter().enumerate() {
        let merged = h[a as usize] + h[b as usize];
        for &(c, d) in &edges[x + 1..] {
            let far = if c == a || c == b {
                d
            } else if d == a || d == b {
                c
            } else {
                return None;
            };
            if merged + h[far as usize] <= MAX_HEIGHT {
                return None;
            }
        }
    }
    let mut fallback = None;
    for &(a, b) in edges {
        let (a, b) = (sq[a as usize], sq[b as usize]);
        for (from, to) in [(a, b), (b, a)] {
            let mv = Move {
                from: from as u8,
                to: to as u8,
            };
            if mine & (1u128 << to) == 0 {
                return Some(mv);
            }
            fallback = fallback.or(Some(mv));
        }
    }
    fallback
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::avalam::cell;
    use crate::game::Player;
    use rand::{RngExt, SeedableRng};

    use crate::game::minimax_margin as solve;

    /// Random sparse boards in a 5x5 corner: many small components, some items, some not.
    fn random_position(rng: &mut rand_xoshiro::Xoshiro256PlusPlus) -> Avalam {
        let mut pos = Avalam::empty(Variant::Standard);
        for _ in 0..rng.random_range(2..10) {
            let (col, row) = (rng.random_range(0..5), rng.random_range(0..5));
            let top = if rng.random_bool(0.5) {
                Player::One
            } else {
                Player::Two
            };
            let height = [1, 1, 1, 2, 2, 3, 4][rng.random_range(0..7)];
            pos.set_tower(cell(col, row), 0, top);
            pos.set_tower(cell(col, row), height, top);
        }
        if rng.random_bool(0.5) {
            pos.set_side(Player::Two);
        }
        pos
    }

    #[test]
    fn exact_values_and_item_pruning_agree_with_full_minimax() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        let (mut exact_seen, mut pruned_seen, mut big_items, mut pairs_pruned) = (0, 0, 0, 0);
        for _ in 0..1500 {
            let pos = random_position(&mut rng);
            let truth = solve(&pos);
            let s = Structure::of(&pos);
            if s.items.count_ones() > 2 * s.item_count {
                big_items += 1;
            }
            if let Some((margin, plies)) = s.exact(&pos) {
                exact_seen += 1;
                assert_eq!(margin, truth, "{}", pos.format_position());
                assert_eq!(plies, s.item_count);
            }
            assert_eq!(Structure::exact_value(&pos), s.exact(&pos));
            let mut moves = <Avalam as Game>::Moves::default();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                continue;
            }
            let before = moves.len();
            let outside_items = moves
                .iter()
                .filter(|mv| s.items & (1u128 << mv.from) == 0)
                .count();
            s.prune(&pos, &mut moves);
            pruned_seen += (moves.len() < before) as u32;
            let kept_outside = moves
                .iter()
                .filter(|mv| s.items & (1u128 << mv.from) == 0)
                .count();
            pairs_pruned += (kept_outside < outside_items) as u32;
            let best = moves
                .iter()
                .map(|&mv| {
                    let mut c = pos;
                    c.play(mv);
                    -solve(&c)
                })
                .max();
            assert_eq!(best, Some(truth), "{}", pos.format_position());
        }
        assert!(exact_seen > 100, "{exact_seen}");
        assert!(pruned_seen > 200, "{pruned_seen}");
        assert!(
            pairs_pruned > 50,
            "dominated pair moves in larger components: {pairs_pruned}"
        );
        assert!(
            big_items > 20,
            "items larger than pairs are met: {big_items}"
        );
    }

    #[test]
    fn margin_bounds_hold_the_minimax_margin() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(12);
        let (mut cuts, mut exact) = (0, 0);
        for _ in 0..1500 {
            let pos = random_position(&mut rng);
            let Some((low, high)) = Structure::of(&pos).bounds() else {
                assert!(pos.outcome().is_some() || pos.variant() != Variant::Standard);
                continue;
            };
            let truth = solve(&pos);
            assert!(
                low <= truth && truth <= high,
                "{low} {truth} {high} {}",
                pos.format_position()
            );
            cuts += (low > 0 || high < 0) as u32;
            exact += (low == high) as u32;
            let settled = Structure::exact_value(&pos).map(|(m, _)| (m, m));
            assert_eq!(settled.is_some(), low == high, "{}", pos.format_position());
            if let Some(settled) = settled {
                assert_eq!(settled, (low, high));
            }
        }
        assert!(cuts > 100, "the bounds often settle the result: {cuts}");
        assert!(exact > 20, "{exact}");
    }

    #[test]
    fn other_variants_have_no_items() {
        let mut pos = Avalam::empty(Variant::OwnColour);
        pos.set_tower(cell(0, 0), 1, Player::One);
        pos.set_tower(cell(1, 0), 1, Player::Two);
        assert_eq!(Structure::of(&pos).exact(&pos), None);
    }
}
