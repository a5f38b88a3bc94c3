//! Avalam: stacks of pieces on a 9x9 grid, moved onto adjacent stacks up to five high.
//!
//! The board is a set of bitboards in one `u128` each, ten bits per row: nine cells and one
//! padding bit, so that the eight neighbour shifts (±1, ±9, ±10, ±11) never wrap from one edge to
//! the other without passing through padding, which [`BOARD`] masks out.

pub mod endgame;
mod notation;

use crate::game::{
    EndReason, Game, MoveList, NotationError, Outcome, Player, count_moves_after_each_by_children,
};
use crate::zobrist;

/// Bits per row: nine cells and one padding bit.
pub const STRIDE: u32 = 10;
/// The tallest a tower may be.
pub const MAX_HEIGHT: usize = 5;
/// Adjacent pairs on a 9x9 king-move grid (272), times two directions: no position has more moves.
pub const MAX_MOVES: usize = 544;

/// Every real cell of the 9x9 grid (padding bits excluded).
pub const BOARD: u128 = {
    let mut mask = 0u128;
    let mut row = 0;
    while row < 9 {
        mask |= 0x1FF << (row * STRIDE);
        row += 1;
    }
    mask
};

/// The eight neighbour offsets, as shifts of the bit index: E, W, N, S, NE, NW, SE, SW.
pub const DIRECTIONS: [i32; 8] = [1, -1, 10, -10, 11, 9, -9, -11];

/// Shifts a set by a signed bit offset; bits pushed past either end are lost.
#[inline(always)]
pub const fn shift(set: u128, by: i32) -> u128 {
    if by >= 0 { set << by } else { set >> (-by) }
}

/// For each cell, the set of its real neighbours.
static NEIGHBOURS: [u128; 128] = {
    let mut table = [0u128; 128];
    let mut sq = 0;
    while sq < 128 {
        let bit = 1u128 << sq;
        if bit & BOARD != 0 {
            let mut set = 0;
            let mut d = 0;
            while d < 8 {
                set |= shift(bit, DIRECTIONS[d]);
                d += 1;
            }
            table[sq] = set & BOARD;
        }
        sq += 1;
    }
    table
};

/// Zobrist keys: one per (cell, height, top colour), then one for the side to move.
static KEYS: [u64; 128 * 5 * 2 + 1] = zobrist::keys(0x00A7_A1A3);

#[inline(always)]
fn piece_key(sq: u32, height: usize, yellow: bool) -> u64 {
    KEYS[(sq as usize * 5 + height - 1) * 2 + yellow as usize]
}

#[inline(always)]
fn side_key() -> u64 {
    KEYS[128 * 5 * 2]
}

/// The cell index of a column (0 = `a`) and a row (0 = row `1`).
pub const fn cell(col: u32, row: u32) -> u32 {
    row * STRIDE + col
}

/// A move: the stack on `from` goes onto the stack on `to`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move {
    /// Source cell index.
    pub from: u8,
    /// Destination cell index.
    pub to: u8,
}

/// The rules a position is played under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The official rules: any stack onto any adjacent stack.
    #[default]
    Standard,
    /// Only a stack topped by your colour, only onto a stack topped by the opponent's.
    OwnColour,
    /// The official moves; equal tower counts at the end are decided by the towers five high
    /// each side owns (equal again: a draw), as the publisher's rules and the INF8215 course
    /// framework's `Board.get_score` score a game.
    TieBreak5,
}

impl Variant {
    /// Whether any stack may go onto any adjacent stack (every variant but `own-colour`).
    #[inline(always)]
    pub fn moves_as_standard(self) -> bool {
        self != Variant::OwnColour
    }
}

/// An Avalam position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avalam {
    /// `heights[k]` is the set of towers exactly `k + 1` high.
    heights: [u128; MAX_HEIGHT],
    /// Towers whose top piece is yellow (player one); other towers are red.
    yellow: u128,
    side: Player,
    variant: Variant,
    hash: u64,
}

/// The start position's rows, row 9 first.
pub const START: &str =
    "..yr...../.yryr..../.ryryry../.yryryryr/yryr.ryry/ryryryry./..yryryr./....ryry./.....ry..";

impl Avalam {
    /// An empty board under `variant`, player one to move (for building custom positions).
    pub fn empty(variant: Variant) -> Avalam {
        Avalam {
            heights: [0; MAX_HEIGHT],
            yellow: 0,
            side: Player::One,
            variant,
            hash: 0,
        }
    }

    /// Puts a tower of `height` (1..=5) topped by `top` on an empty cell; `height` 0 empties it.
    pub fn set_tower(&mut self, sq: u32, height: usize, top: Player) {
        debug_assert!(height <= MAX_HEIGHT && (1u128 << sq) & BOARD != 0);
        let (old_height, old_top) = self.tower(sq);
        let bit = 1u128 << sq;
        if old_height > 0 {
            self.heights[old_height - 1] &= !bit;
            self.hash ^= piece_key(sq, old_height, old_top == Player::One);
        }
        self.yellow &= !bit;
        if height > 0 {
            self.heights[height - 1] |= bit;
            if top == Player::One {
                self.yellow |= bit;
            }
            self.hash ^= piece_key(sq, height, top == Player::One);
        }
    }

    /// Sets the side to move.
    pub fn set_side(&mut self, side: Player) {
        if side != self.side {
            self.side = side;
            self.hash ^= side_key();
        }
    }

    /// The height of the tower on `sq` (0 when empty) and the colour on top.
    #[inline]
    pub fn tower(&self, sq: u32) -> (usize, Player) {
        let bit = 1u128 << sq;
        let height = self
            .heights
            .iter()
            .position(|set| set & bit != 0)
            .map_or(0, |k| k + 1);
        let top = if self.yellow & bit != 0 {
            Player::One
        } else {
            Player::Two
        };
        (height, top)
    }

    /// All non-empty cells.
    #[inline]
    pub fn occupied(&self) -> u128 {
        self.heights.iter().fold(0, |acc, set| acc | set)
    }

    /// Towers exactly `height` high (1..=5).
    #[inline]
    pub fn towers_of_height(&self, height: usize) -> u128 {
        self.heights[height - 1]
    }

    /// Towers topped by `player`.
    #[inline]
    pub fn towers_of(&self, player: Player) -> u128 {
        match player {
            Player::One => self.yellow,
            Player::Two => self.occupied() & !self.yellow,
        }
    }

    /// `at_most[m]`: towers of height 1..=m (`at_most[0]` is empty).
    #[inline(always)]
    fn cumulative_heights(&self) -> [u128; MAX_HEIGHT] {
        let h = &self.heights;
        let l1 = h[0];
        let l2 = l1 | h[1];
        let l3 = l2 | h[2];
        let l4 = l3 | h[3];
        [0, l1, l2, l3, l4]
    }

    /// The cells a tower on `sq` of `height` may move onto, before any variant restriction.
    #[inline(always)]
    fn targets(&self, sq: u32, height: usize, at_most: &[u128; MAX_HEIGHT]) -> u128 {
        NEIGHBOURS[sq as usize] & at_most[MAX_HEIGHT - height]
    }

    /// Neighbouring cells of `sq`.
    pub fn neighbours(sq: u32) -> u128 {
        NEIGHBOURS[sq as usize]
    }

    /// Perft at depth 2 under the standard rules, in closed form, without playing any move.
    ///
    /// Call two adjacent towers whose heights add up to at most 5 a pair; the position has
    /// `2 * pairs` moves. A move a->b never creates a pair: it removes every pair of a and of b
    /// (`d(a) + d(b) - 1` of them, the pair a-b counted once) and the new tower on b pairs only
    /// with those of b's other neighbours low enough for it. Summed over all moves, the first
    /// part is `2 * pairs * (pairs + 1) - 2 * sum d(x)^2`, and the second needs only, for each
    /// cell, how many neighbours it has of each height.
    fn standard_replies(&self) -> u64 {
        let pairs = self.count_moves() as u64 / 2;
        if pairs == 0 {
            return 1;
        }
        // A move removes at most 15 pairs (8 around each end, the pair a-b shared): with more,
        // no move ends the game, so no child needs the "a finished game counts 1" rule.
        if pairs <= 15 {
            return count_moves_after_each_by_children(self);
        }
        let at_most = self.cumulative_heights();
        let mut sum_d2 = 0u64;
        let mut new_pairs = 0u64;
        for hb in 1..MAX_HEIGHT {
            let room = MAX_HEIGHT - hb;
            for b in bits(self.heights[hb - 1]) {
                let near = NEIGHBOURS[b as usize];
                // below[m]: neighbours of b at most m high, for m = 0..=room.
                let mut below = [0u64; MAX_HEIGHT];
                for m in 1..=room {
                    below[m] = (near & at_most[m]).count_ones() as u64;
                }
                let d = below[room];
                sum_d2 += d * d;
                // Sources a of height j onto b leave a tower of j + hb, which pairs with the
                // neighbours of b at most 5 - j - hb high, a itself excluded (it is now empty).
                for j in 1..room {
                    let of_height_j = below[j] - below[j - 1];
                    if of_height_j == 0 {
                        // Nothing to count, and partners could be 0 - 1 (b has no neighbour).
                        continue;
                    }
                    let partners = below[room - j] - u64::from(2 * j + hb <= MAX_HEIGHT);
                    new_pairs += of_height_j * partners;
                }
            }
        }
        2 * (2 * pairs * (pairs + 1) - 2 * sum_d2 + new_pairs)
    }
}

/// Iterates over the indices of the set bits of a set, lowest first.
#[inline(always)]
pub fn bits(mut set: u128) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let sq = set.trailing_zeros();
            set &= set - 1;
            Some(sq)
        }
    })
}

impl Game for Avalam {
    type Move = Move;
    type Variant = Variant;
    type Moves = MoveList<Move, MAX_MOVES>;

    const KIND: crate::GameKind = crate::GameKind::Avalam;
    const VARIANTS: &'static [Variant] =
        &[Variant::Standard, Variant::OwnColour, Variant::TieBreak5];
    const REPETITION_ENDS_GAME: bool = false;

    fn variant_name(variant: Variant) -> &'static str {
        match variant {
            Variant::Standard => "standard",
            Variant::OwnColour => "own-colour",
            Variant::TieBreak5 => "tiebreak5",
        }
    }

    fn start(variant: Variant) -> Avalam {
        Avalam::parse_position(START, "1", variant).expect("the start position parses")
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn legal_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        let at_most = self.cumulative_heights();
        let (sources, allowed) = if self.variant.moves_as_standard() {
            (self.occupied(), BOARD)
        } else {
            (self.towers_of(self.side), self.towers_of(self.side.other()))
        };
        // Sources in cell order, and each source's targets in cell order: the documented order.
        for from in bits(sources & !self.heights[MAX_HEIGHT - 1]) {
            let (height, _) = self.tower(from);
            for to in bits(self.targets(from, height, &at_most) & allowed) {
                moves.push(Move {
                    from: from as u8,
                    to: to as u8,
                });
            }
        }
    }

    #[inline]
    fn count_moves(&self) -> usize {
        let at_most = self.cumulative_heights();
        let mut count = 0;
        match self.variant {
            Variant::Standard | Variant::TieBreak5 => {
                // Moves are symmetric: a->b is legal exactly when b->a is. Count each adjacent
                // pair once, over the four forward directions, and double.
                for height in 1..MAX_HEIGHT {
                    let towers = self.heights[height - 1];
                    let partners = at_most[MAX_HEIGHT - height];
                    for by in [1, 10, 11, 9] {
                        count += (towers & (partners >> by)).count_ones();
                    }
                }
                2 * count as usize
            }
            Variant::OwnColour => {
                let own = self.towers_of(self.side);
                let theirs = self.towers_of(self.side.other());
                for height in 1..MAX_HEIGHT {
                    let towers = self.heights[height - 1] & own;
                    let partners = at_most[MAX_HEIGHT - height] & theirs;
                    for by in DIRECTIONS {
                        count += (towers & shift(partners, -by)).count_ones();
                    }
                }
                count as usize
            }
        }
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        debug_assert!(self.is_legal(mv), "illegal move {mv:?}");
        let (from, to) = (mv.from as u32, mv.to as u32);
        let (from_height, top) = self.tower(from);
        let (to_height, to_top) = self.tower(to);
        let height = from_height + to_height;
        let (from_bit, to_bit) = (1u128 << from, 1u128 << to);
        self.heights[from_height - 1] &= !from_bit;
        self.heights[to_height - 1] &= !to_bit;
        self.heights[height - 1] |= to_bit;
        let yellow = top == Player::One;
        self.yellow &= !(from_bit | to_bit);
        if yellow {
            self.yellow |= to_bit;
        }
        self.hash ^= piece_key(from, from_height, yellow)
            ^ piece_key(to, to_height, to_top == Player::One)
            ^ piece_key(to, height, yellow)
            ^ side_key();
        self.side = self.side.other();
    }

    fn count_moves_after_each(&self) -> u64 {
        match self.variant {
            Variant::Standard | Variant::TieBreak5 => self.standard_replies(),
            // Own-colour moves can make new pairs (a new top colour), so no closed form here.
            Variant::OwnColour => count_moves_after_each_by_children(self),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.count_moves() == 0).then(|| self.outcome_now(EndReason::NoMoves))
    }

    fn points(&self) -> [u32; 2] {
        [
            self.towers_of(Player::One).count_ones(),
            self.towers_of(Player::Two).count_ones(),
        ]
    }

    /// Under `tiebreak5`, the towers five high topped by each colour.
    fn tiebreak(&self) -> Option<[u32; 2]> {
        (self.variant == Variant::TieBreak5).then(|| {
            let five = self.heights[MAX_HEIGHT - 1];
            [
                (five & self.yellow).count_ones(),
                (five & !self.yellow).count_ones(),
            ]
        })
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn irreversible_count(&self) -> u32 {
        self.occupied().count_ones()
    }

    fn parse_move(text: &str) -> Result<Move, NotationError> {
        notation::parse_move(text)
    }

    fn why_illegal(&self, mv: Move) -> String {
        let (from, to) = (mv.from as u32, mv.to as u32);
        let (from_height, from_top) = self.tower(from);
        let (to_height, to_top) = self.tower(to);
        let name = notation::cell_name;
        if from == to {
            format!("{} is both source and destination", name(from))
        } else if from_height == 0 {
            format!("{} is empty", name(from))
        } else if to_height == 0 {
            format!("{} is empty", name(to))
        } else if NEIGHBOURS[from as usize] & (1u128 << to) == 0 {
            format!("{} is not next to {}", name(to), name(from))
        } else if from_height + to_height > MAX_HEIGHT {
            format!(
                "the tower would be {} high (at most {MAX_HEIGHT})",
                from_height + to_height
            )
        } else if self.variant == Variant::OwnColour && from_top != self.side {
            format!(
                "{} is not topped by your colour (own-colour rules)",
                name(from)
            )
        } else if self.variant == Variant::OwnColour && to_top == self.side {
            format!(
                "{} is topped by your own colour (own-colour rules)",
                name(to)
            )
        } else {
            "it is not legal in this position".to_string()
        }
    }

    fn format_move(mv: Move) -> String {
        notation::format_move(mv)
    }

    fn parse_position(board: &str, side: &str, variant: Variant) -> Result<Avalam, NotationError> {
        notation::parse_position(board, side, variant)
    }

    fn format_position(&self) -> String {
        notation::format_position(self)
    }

    fn pretty(&self) -> String {
        notation::pretty(self)
    }
}

#[cfg(test)]
mod tests;
