//! Awale (Oware): twelve pits, seeds sown anticlockwise, captures of 2 and 3.
//!
//! Pits are numbered 0..12: 0..6 are player one's `A`..`F`, 6..12 player two's `a`..`f`, and
//! sowing runs in increasing order, wrapping from `f` back to `A`.

mod notation;

use crate::game::{EndReason, Game, MoveList, NotationError, Outcome, Player};
use crate::zobrist;

/// Pits on the board.
pub const PITS: usize = 12;
/// Seeds in the game.
pub const SEEDS: u32 = 48;
/// A player's pits: at most six legal moves.
pub const MAX_MOVES: usize = 6;

/// A move: the index (0..12) of the pit whose seeds are sown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move(pub u8);

/// The grand-slam rule (a move that would capture every seed the opponent has).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// A move must leave the opponent seeds (captures included); a grand slam is legal only when
    /// every move is one.
    #[default]
    Standard,
    /// A grand slam is legal but captures nothing (abapa, OpenSpiel).
    GrandSlamNoCapture,
    /// Feeding is checked only when the opponent's row is empty, on sowing alone; a grand slam
    /// is legal and captures everything (the original Awale program).
    GrandSlamCapture,
}

/// An Awale position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Awale {
    pits: [u8; PITS],
    captured: [u8; 2],
    side: Player,
    variant: Variant,
    hash: u64,
}

/// Zobrist keys: one per (pit, seed count), one per (player, captured count), one for the side.
static KEYS: [u64; PITS * 49 + 2 * 49 + 1] = zobrist::keys(0x000A_3A1E);

#[inline(always)]
fn pit_key(pit: usize, seeds: u8) -> u64 {
    KEYS[pit * 49 + seeds as usize]
}

#[inline(always)]
fn captured_key(player: usize, seeds: u8) -> u64 {
    KEYS[PITS * 49 + player * 49 + seeds as usize]
}

#[inline(always)]
fn side_key() -> u64 {
    KEYS[PITS * 49 + 2 * 49]
}

/// The pits a player owns.
#[inline]
pub fn row(player: Player) -> std::ops::Range<usize> {
    match player {
        Player::One => 0..6,
        Player::Two => 6..12,
    }
}

/// The pit where the last of `seeds` seeds sown from `pit` lands (each lap of eleven skips the
/// pit it started from).
#[inline]
pub fn landing(pit: usize, seeds: u8) -> usize {
    let k = seeds as usize;
    (pit + k + k.saturating_sub(1) / (PITS - 1)) % PITS
}

/// What a move does: the pits after sowing and capturing, and how many seeds it captured.
struct Sowing {
    pits: [u8; PITS],
    captured: u8,
}

impl Awale {
    /// Builds a position from its parts; the seeds must add up to 48.
    pub fn from_parts(
        pits: [u8; PITS],
        captured: [u8; 2],
        side: Player,
        variant: Variant,
    ) -> Awale {
        let mut hash = 0;
        for (pit, &seeds) in pits.iter().enumerate() {
            hash ^= pit_key(pit, seeds);
        }
        hash ^= captured_key(0, captured[0]) ^ captured_key(1, captured[1]);
        if side == Player::Two {
            hash ^= side_key();
        }
        Awale {
            pits,
            captured,
            side,
            variant,
            hash,
        }
    }

    /// The same board and captures with `side` to move (the hash updated, not recomputed).
    pub fn with_side_to_move(&self, side: Player) -> Awale {
        let mut position = *self;
        if side != self.side {
            position.side = side;
            position.hash ^= side_key();
        }
        position
    }

    /// Seeds in each pit.
    pub fn pits(&self) -> &[u8; PITS] {
        &self.pits
    }

    /// Seeds captured by each player.
    pub fn captured(&self) -> [u8; 2] {
        self.captured
    }

    /// Seeds `mv` would capture (none where the variant's grand-slam rule forbids the capture):
    /// the sowing alone, without the hash updates of playing it.
    #[inline]
    pub fn capture(&self, mv: Move) -> u8 {
        let (captured, grand_slam) = self.capture_path(mv.0 as usize);
        if grand_slam && self.variant == Variant::GrandSlamNoCapture {
            0
        } else {
            captured
        }
    }

    /// The most seeds one legal move captures (0 when the game is over).
    ///
    /// Without generating the moves: a move that captures leaves seeds in the opponent's row
    /// unless it is a grand slam, so only a grand slam under the standard rule needs the legal
    /// moves (it is legal only when every move is one).
    pub fn best_capture(&self) -> u8 {
        if self.captured.iter().any(|&c| c as u32 > SEEDS / 2) {
            return 0;
        }
        let mut best = 0;
        for pit in row(self.side) {
            let (captured, grand_slam) = self.capture_path(pit);
            if grand_slam {
                match self.variant {
                    Variant::Standard => {
                        let mut moves = <Awale as Game>::Moves::default();
                        self.legal_moves(&mut moves);
                        return moves.iter().map(|&mv| self.capture(mv)).max().unwrap_or(0);
                    }
                    Variant::GrandSlamNoCapture => continue,
                    Variant::GrandSlamCapture => {}
                }
            }
            best = best.max(captured);
        }
        best
    }

    /// The seeds on the capture path of a sowing from `pit`, and whether they are all the
    /// opponent would have left (a grand slam), before any variant's rule applies.
    ///
    /// Counted from the laps alone: every other pit gets one seed a lap of eleven, and the first
    /// `seeds % 11` pits after the sown one one more, so no seed is sown one by one.
    #[inline]
    fn capture_path(&self, pit: usize) -> (u8, bool) {
        let seeds = self.pits[pit] as usize;
        if seeds == 0 {
            return (0, false);
        }
        let (laps, rest) = (seeds / (PITS - 1), seeds % (PITS - 1));
        // Seeds in `q` (not `pit`) after the sowing.
        let after = |q: usize| {
            let offset = (q + PITS - pit) % PITS;
            self.pits[q] as usize + laps + usize::from(offset <= rest)
        };
        let landing = landing(pit, self.pits[pit]);
        let theirs = row(self.side.other());
        if !theirs.contains(&landing) {
            return (0, false);
        }
        // Captures run back from the landing pit; `first_taken` ends as the lowest pit taken.
        let (mut captured, mut first_taken) = (0, landing + 1);
        while first_taken > theirs.start {
            let s = after(first_taken - 1);
            if s != 2 && s != 3 {
                break;
            }
            captured += s;
            first_taken -= 1;
        }
        // A grand slam leaves every pit of their row empty: those before the first pit taken
        // and those after the landing pit.
        let grand_slam = captured > 0
            && !(theirs.start..first_taken)
                .chain(landing + 1..theirs.end)
                .any(|q| after(q) > 0);
        (captured as u8, grand_slam)
    }

    /// Seeds on `player`'s side of the board.
    #[inline]
    pub fn seeds_on_side(&self, player: Player) -> u32 {
        self.pits[row(player)].iter().map(|&s| s as u32).sum()
    }

    /// Sows from `pit` and applies captures (with the grand-slam rule of the variant).
    #[inline]
    fn sow(&self, pit: usize) -> Sowing {
        let mut pits = self.pits;
        let mut seeds = pits[pit];
        pits[pit] = 0;
        let mut at = pit;
        while seeds > 0 {
            at = if at == PITS - 1 { 0 } else { at + 1 };
            if at != pit {
                pits[at] += 1;
                seeds -= 1;
            }
        }
        let theirs = row(self.side.other());
        let mut captured = 0;
        if theirs.contains(&at) {
            let before = pits;
            let mut i = at;
            while theirs.contains(&i) && (pits[i] == 2 || pits[i] == 3) {
                captured += pits[i];
                pits[i] = 0;
                if i == theirs.start {
                    break;
                }
                i -= 1;
            }
            let grand_slam = captured > 0 && pits[theirs].iter().all(|&s| s == 0);
            if grand_slam && self.variant == Variant::GrandSlamNoCapture {
                return Sowing {
                    pits: before,
                    captured: 0,
                };
            }
        }
        Sowing { pits, captured }
    }

    /// Whether sowing `pit` leaves the opponent some seed, under the variant's feeding rule.
    #[inline]
    fn feeds(&self, pit: usize) -> bool {
        let theirs = row(self.side.other());
        match self.variant {
            Variant::Standard | Variant::GrandSlamNoCapture => {
                // Their row keeps a seed if it had one or the sowing reaches it, unless the
                // move takes them all: a grand slam, which captures nothing in abapa.
                let reaches = self.pits[pit] as usize >= (theirs.start + PITS - pit) % PITS;
                (reaches || self.pits[theirs.clone()].iter().any(|&s| s > 0))
                    && (self.variant == Variant::GrandSlamNoCapture || !self.capture_path(pit).1)
            }
            Variant::GrandSlamCapture => {
                // Checked only when their row is empty, and on sowing alone: does it reach them?
                if self.pits[theirs.clone()].iter().any(|&s| s > 0) {
                    return true;
                }
                let to_end_of_own_row = theirs.start as isize - pit as isize;
                let to_end_of_own_row = to_end_of_own_row.rem_euclid(PITS as isize) as u8;
                self.pits[pit] >= to_end_of_own_row
            }
        }
    }
}

impl Game for Awale {
    type Move = Move;
    type Variant = Variant;
    type Moves = MoveList<Move, MAX_MOVES>;

    const KIND: crate::GameKind = crate::GameKind::Awale;
    const VARIANTS: &'static [Variant] = &[
        Variant::Standard,
        Variant::GrandSlamNoCapture,
        Variant::GrandSlamCapture,
    ];
    const REPETITION_ENDS_GAME: bool = true;

    fn variant_name(variant: Variant) -> &'static str {
        match variant {
            Variant::Standard => "standard",
            Variant::GrandSlamNoCapture => "grandslam-nocapture",
            Variant::GrandSlamCapture => "grandslam-capture",
        }
    }

    fn start(variant: Variant) -> Awale {
        Awale::from_parts([4; PITS], [0, 0], Player::One, variant)
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn legal_moves(&self, moves: &mut Self::Moves) {
        *moves = MoveList::default();
        if self.outcome().is_some() {
            return;
        }
        let own = row(self.side);
        // A pit of 4 or more is never captured (sowing only adds to it, captures take 2s and
        // 3s), so then every move leaves the opponent seeds and none needs to be sown to check.
        let fed = self.pits[row(self.side.other())].iter().any(|&s| s >= 4);
        for pit in own.clone() {
            if self.pits[pit] > 0 && (fed || self.feeds(pit)) {
                moves.push(Move(pit as u8));
            }
        }
        if moves.is_empty() {
            // No move feeds the opponent: then every move is legal.
            for pit in own {
                if self.pits[pit] > 0 {
                    moves.push(Move(pit as u8));
                }
            }
        }
    }

    fn count_moves(&self) -> usize {
        let mut moves = Self::Moves::default();
        self.legal_moves(&mut moves);
        moves.len()
    }

    fn play(&mut self, mv: Move) {
        debug_assert!(self.is_legal(mv), "illegal move {mv:?}");
        let sowing = self.sow(mv.0 as usize);
        for pit in 0..PITS {
            if sowing.pits[pit] != self.pits[pit] {
                self.hash ^= pit_key(pit, self.pits[pit]) ^ pit_key(pit, sowing.pits[pit]);
            }
        }
        self.pits = sowing.pits;
        if sowing.captured > 0 {
            let me = self.side.index();
            let total = self.captured[me] + sowing.captured;
            self.hash ^= captured_key(me, self.captured[me]) ^ captured_key(me, total);
            self.captured[me] = total;
        }
        self.side = self.side.other();
        self.hash ^= side_key();
    }

    fn outcome(&self) -> Option<Outcome> {
        let reason = if self.captured.iter().any(|&c| c as u32 > SEEDS / 2) {
            EndReason::Captures
        } else if self.seeds_on_side(self.side) == 0 {
            // Whenever the side to move has a seed, some move is legal (if none feeds, all are).
            EndReason::NoMoves
        } else {
            return None;
        };
        Some(self.outcome_now(reason))
    }

    fn points(&self) -> [u32; 2] {
        [
            self.captured[0] as u32 + self.seeds_on_side(Player::One),
            self.captured[1] as u32 + self.seeds_on_side(Player::Two),
        ]
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn irreversible_count(&self) -> u32 {
        self.captured[0] as u32 + self.captured[1] as u32
    }

    fn parse_move(text: &str) -> Result<Move, NotationError> {
        notation::parse_move(text)
    }

    fn ends_without_moving(&self) -> bool {
        // The side has seeds, the opponent none, and no sowing reaches the opponent's row.
        let theirs = row(self.side.other());
        self.outcome().is_none()
            && self.seeds_on_side(self.side.other()) == 0
            && row(self.side)
                .all(|pit| (self.pits[pit] as usize) < (theirs.start + PITS - pit) % PITS)
    }

    fn why_illegal(&self, mv: Move) -> String {
        let pit = mv.0 as usize;
        if pit >= PITS {
            "there is no such pit".to_string()
        } else if !row(self.side).contains(&pit) {
            format!(
                "pit {} is player {}'s; player {} moves",
                notation::pit_name(pit),
                self.side.other().number(),
                self.side.number()
            )
        } else if self.pits[pit] == 0 {
            format!("pit {} is empty", notation::pit_name(pit))
        } else {
            "it leaves the opponent no seed, and another move feeds them".to_string()
        }
    }

    fn format_move(mv: Move) -> String {
        notation::format_move(mv)
    }

    fn parse_position(board: &str, side: &str, variant: Variant) -> Result<Awale, NotationError> {
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
