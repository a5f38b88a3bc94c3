//! The one abstraction every game implements: positions, moves, rules, outcome and notation.
//!
//! Search, engine and referee are written against [`Game`] only; the choice of game is made once,
//! at the session boundary, and everything below it is monomorphised.

mod history;
mod moves;
mod oracle;
mod perft;
mod player;
mod text;

use std::fmt;

pub use history::{History, repeats};
pub use moves::MoveList;
pub use oracle::{POINT, minimax_margin, minimax_result};
pub use perft::{PerftReport, count_moves_after_each_by_children, perft, perft_until};
pub use player::{EndReason, Outcome, Player, leader};
pub use text::{NotationError, is_hidden, shorten, shorten_to};

/// A two-player board game: the rules, the notation and the hashing the engine needs.
///
/// Positions are small `Copy` values; [`Game::play`] changes one in place, and callers that need
/// to go back keep a copy (copy-make). History-dependent rules (Awale's repetition) are handled by
/// [`History`], not by the position.
pub trait Game: Copy + Send + Sync + fmt::Debug + 'static {
    /// A move: small, `Copy`, comparable.
    type Move: Copy + Eq + Default + fmt::Debug + Send + Sync + 'static;
    /// A rule variant, chosen with the `Variant` option.
    type Variant: Copy + Eq + Default + fmt::Debug + Send + Sync + 'static;
    /// The fixed-capacity list legal moves are generated into.
    type Moves: Default + AsRef<[Self::Move]> + AsMut<[Self::Move]> + Copy;

    /// Which game this is in the registry of games.
    const KIND: crate::GameKind;
    /// The game's name in the protocol (`avalam`, `awale`).
    const NAME: &'static str = Self::KIND.name();
    /// Whether a repeated position ends the game.
    const REPETITION_ENDS_GAME: bool;

    /// Every variant, the default first: the one list of the game's variants.
    const VARIANTS: &'static [Self::Variant];

    /// The name of a variant.
    fn variant_name(variant: Self::Variant) -> &'static str;
    /// The names of the variants, the default first.
    fn variant_names() -> Vec<&'static str> {
        Self::VARIANTS
            .iter()
            .map(|&v| Self::variant_name(v))
            .collect()
    }
    /// Parses a variant name.
    fn parse_variant(name: &str) -> Option<Self::Variant> {
        Self::VARIANTS
            .iter()
            .copied()
            .find(|&v| Self::variant_name(v) == name)
    }

    /// The standard start position under `variant`.
    fn start(variant: Self::Variant) -> Self;
    /// The variant this position is played under.
    fn variant(&self) -> Self::Variant;
    /// The player to move.
    fn side_to_move(&self) -> Player;
    /// Fills `moves` with the legal moves, in the documented stable order.
    fn legal_moves(&self, moves: &mut Self::Moves);
    /// The number of legal moves, computed without generating them.
    fn count_moves(&self) -> usize;
    /// Plays a legal move. Playing an illegal move is a logic error (checked in debug builds).
    fn play(&mut self, mv: Self::Move);
    /// The outcome if the game is over in this position by its own rules (not by repetition).
    fn outcome(&self) -> Option<Outcome>;
    /// The points each player would get if the game ended now (used for repetition and reports).
    fn points(&self) -> [u32; 2];
    /// What decides a game that ends level on points, per player, under a variant with a
    /// tie-break (Avalam's `tiebreak5`: towers five high); `None` under rules without one.
    fn tiebreak(&self) -> Option<[u32; 2]> {
        None
    }
    /// The outcome if the game ended here now for `reason`: the points and the tie-break.
    fn outcome_now(&self, reason: EndReason) -> Outcome {
        Outcome {
            score: self.points(),
            tiebreak: self.tiebreak(),
            reason,
        }
    }
    /// The Zobrist hash of the position (side to move included), kept incrementally.
    fn hash(&self) -> u64;
    /// A number that changes on every irreversible move: positions with different values can
    /// never be repetitions of each other, so a repetition search stops at the first change.
    fn irreversible_count(&self) -> u32;

    /// Parses a move in this game's notation (not checked for legality here).
    fn parse_move(text: &str) -> Result<Self::Move, NotationError>;
    /// Formats a move; `parse_move(format_move(m)) == m`.
    fn format_move(mv: Self::Move) -> String;
    /// Parses a position: the board token and the side to move token.
    fn parse_position(
        board: &str,
        side: &str,
        variant: Self::Variant,
    ) -> Result<Self, NotationError>;
    /// Formats a position as `<board> <side>`; `parse_position` reads it back exactly.
    fn format_position(&self) -> String;
    /// A multi-line picture of the board for people at a terminal.
    fn pretty(&self) -> String;

    /// The number of leaves two plies deep, i.e. `perft` at depth 2: for each legal move, the
    /// number of legal replies, or 1 when the move ends the game; 1 when no move is legal here.
    /// Perft calls it one ply above the leaves, so a game with a closed form for it (Avalam)
    /// skips the whole last-but-one ply of copy-make.
    fn count_moves_after_each(&self) -> u64 {
        count_moves_after_each_by_children(self)
    }

    /// The points of the side to move minus the opponent's (the final margin once the game is
    /// over).
    fn margin(&self) -> i32 {
        let points = self.points();
        let me = self.side_to_move();
        points[me.index()] as i32 - points[me.other().index()] as i32
    }

    /// Whether `mv` is legal here.
    fn is_legal(&self, mv: Self::Move) -> bool {
        let mut moves = Self::Moves::default();
        self.legal_moves(&mut moves);
        moves.as_ref().contains(&mv)
    }

    /// Parses a move and checks that it is legal here, with an error a user can act on.
    fn parse_legal_move(&self, text: &str) -> Result<Self::Move, NotationError> {
        let mv = Self::parse_move(text)?;
        if self.outcome().is_some() {
            return Err(NotationError::new(format!(
                "illegal move {text}: the game is over"
            )));
        }
        if !self.is_legal(mv) {
            return Err(NotationError::new(format!(
                "illegal move {text}: {}",
                self.why_illegal(mv)
            )));
        }
        Ok(mv)
    }

    /// Whether rules that end the game as soon as the side to move cannot feed its opponent
    /// (Oware abapa as Aualé and Aalina play it) end it here, where this game's own rules let
    /// the side play on: the final score is the same either way.
    fn ends_without_moving(&self) -> bool {
        false
    }

    /// Why `mv`, which is not legal here, is illegal: for error messages a user can act on.
    fn why_illegal(&self, _mv: Self::Move) -> String {
        "it is not legal in this position".to_string()
    }
}
