//! The one abstraction every game implements: positions, moves, rules, outcome and notation.
//!
//! Search, engine and referee are written against [`Game`] only; the choice of game is made once,
//! at the session boundary, and everything below it is monomorphised.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// One of the two players. `One` moves first (yellow in Avalam, pits `A`..`F` in Awale).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The first player.
    One,
    /// The second player.
    Two,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// 0 for player one, 1 for player two: an index into per-player arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The protocol's digit for the player, `1` or `2`.
    pub fn number(self) -> u8 {
        self as u8 + 1
    }

    /// Parses the protocol's `1` or `2`.
    pub fn from_number(text: &str) -> Option<Player> {
        match text {
            "1" => Some(Player::One),
            "2" => Some(Player::Two),
            _ => None,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The player to move has no legal move (Avalam: nobody has one).
    NoMoves,
    /// A player captured more than half of the seeds (Awale).
    Captures,
    /// The position repeated (Awale).
    Repetition,
}

impl EndReason {
    /// The word the protocol uses for the reason.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::NoMoves => "nomoves",
            EndReason::Captures => "captures",
            EndReason::Repetition => "repetition",
        }
    }
}

/// The result of a finished game: the final points of each player and why it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Final points, indexed by [`Player::index`].
    pub score: [u32; 2],
    /// What ended the game.
    pub reason: EndReason,
}

impl Outcome {
    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Player> {
        match self.score[0].cmp(&self.score[1]) {
            std::cmp::Ordering::Greater => Some(Player::One),
            std::cmp::Ordering::Less => Some(Player::Two),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The margin of the final score from `player`'s point of view (positive when it won).
    pub fn margin_for(&self, player: Player) -> i32 {
        let own = self.score[player.index()] as i32;
        let other = self.score[player.other().index()] as i32;
        own - other
    }
}

/// A fixed-capacity list of moves that lives on the stack: move generation never allocates.
#[derive(Clone, Copy)]
pub struct MoveList<M: Copy, const N: usize> {
    moves: [M; N],
    len: usize,
}

impl<M: Copy + Default, const N: usize> Default for MoveList<M, N> {
    fn default() -> Self {
        MoveList {
            moves: [M::default(); N],
            len: 0,
        }
    }
}

impl<M: Copy, const N: usize> MoveList<M, N> {
    /// Appends a move. The capacity is the game's proven maximum, so this never overflows.
    #[inline]
    pub fn push(&mut self, mv: M) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[M] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for ordering in the search).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        &mut self.moves[..self.len]
    }

    /// How many moves are in the list.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list holds no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties the list (without rewriting its storage).
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `keep` holds, in order, in place.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(M) -> bool) {
        let mut len = 0;
        for i in 0..self.len {
            let mv = self.moves[i];
            if keep(mv) {
                self.moves[len] = mv;
                len += 1;
            }
        }
        self.len = len;
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, M> {
        self.as_slice().iter()
    }
}

impl<M: Copy, const N: usize> AsRef<[M]> for MoveList<M, N> {
    fn as_ref(&self) -> &[M] {
        self.as_slice()
    }
}

impl<M: Copy, const N: usize> AsMut<[M]> for MoveList<M, N> {
    fn as_mut(&mut self) -> &mut [M] {
        self.as_mut_slice()
    }
}

impl<M: Copy + fmt::Debug, const N: usize> fmt::Debug for MoveList<M, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Keeps error messages one short line even for huge inputs: at most 40 characters of the
/// input, with control characters (a newline, a NUL) escaped so the message stays on one line,
/// and invisible ones escaped so that it shows them ([`is_hidden`]).
pub fn shorten(text: &str) -> String {
    shorten_to(text, 40)
}

/// Whether a character is escaped in messages: control characters, which would break the line,
/// and invisible ones (a byte order mark, zero-width spaces, direction marks, soft hyphens),
/// which would hide what was really sent.
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{2069}' | '\u{feff}')
}

/// [`shorten`] with another length limit, in characters.
pub fn shorten_to(text: &str, limit: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == limit {
            out.push_str("...");
            break;
        }
        if is_hidden(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A rule that a position string, a move or a variant name breaks, with where it breaks it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotationError(pub String);

impl NotationError {
    /// Builds an error from any message.
    pub fn new(message: impl Into<String>) -> Self {
        NotationError(message.into())
    }
}

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

    /// The names of the variants, the default first.
    fn variant_names() -> &'static [&'static str];
    /// Parses a variant name.
    fn parse_variant(name: &str) -> Option<Self::Variant>;
    /// The name of a variant.
    fn variant_name(variant: Self::Variant) -> &'static str;

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

    /// Why `mv`, which is not legal here, is illegal: for error messages a user can act on.
    fn why_illegal(&self, _mv: Self::Move) -> String {
        "it is not legal in this position".to_string()
    }
}

/// [`Game::count_moves_after_each`] the obvious way: play each move and count the replies. It is
/// the default of the trait method, and the reference that faster versions are tested against.
pub fn count_moves_after_each_by_children<G: Game>(position: &G) -> u64 {
    sum_over_children(position, |child| child.count_moves().max(1) as u64)
}

/// Sums `leaves` over the children of `position`; a finished position counts as one leaf.
fn sum_over_children<G: Game>(position: &G, leaves: impl Fn(&G) -> u64) -> u64 {
    try_sum_over_children(position, |child| Some(leaves(child))).expect("every child counted")
}

/// [`sum_over_children`] that gives up (`None`) at the first child `leaves` gives up on.
fn try_sum_over_children<G: Game>(position: &G, leaves: impl Fn(&G) -> Option<u64>) -> Option<u64> {
    let mut moves = G::Moves::default();
    position.legal_moves(&mut moves);
    if moves.as_ref().is_empty() {
        return Some(1);
    }
    moves
        .as_ref()
        .iter()
        .map(|&mv| {
            let mut child = *position;
            child.play(mv);
            leaves(&child)
        })
        .sum()
}

/// The number of leaves of the game tree `depth` plies deep; a finished game is a leaf.
///
/// ```
/// use pion_rules::avalam::Avalam;
/// use pion_rules::awale::Awale;
/// use pion_rules::game::{Game, perft};
///
/// assert_eq!(perft(&Avalam::start(Default::default()), 2), 81_488);
/// assert_eq!(perft(&Awale::start(Default::default()), 6), 27_332);
/// ```
pub fn perft<G: Game>(position: &G, depth: u32) -> u64 {
    perft_until(position, depth, &AtomicBool::new(false)).expect("never stopped")
}

/// [`perft`] that gives up (`None`) soon after `stop` is set: it is read at every node three or
/// more plies above the leaves.
pub fn perft_until<G: Game>(position: &G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    match depth {
        0 => return Some(1),
        1 => return Some(position.count_moves().max(1) as u64),
        2 => return Some(position.count_moves_after_each()),
        _ => {}
    }
    try_sum_over_children(position, |child| {
        if stop.load(Ordering::Relaxed) {
            None
        } else {
            perft_until(child, depth - 1, stop)
        }
    })
}

/// The exact final margin for the side to move, by plain minimax to the end of the game: the
/// slow, obviously correct reference that faster exact evaluations are tested against. It
/// ignores repetition (a rule of the game's history, not of the position), so it is meant for
/// small Avalam positions and Awale positions that cannot cycle.
pub fn minimax_margin<G: Game>(position: &G) -> i32 {
    if let Some(outcome) = position.outcome() {
        return outcome.margin_for(position.side_to_move());
    }
    let mut moves = G::Moves::default();
    position.legal_moves(&mut moves);
    moves
        .as_ref()
        .iter()
        .map(|&mv| {
            let mut child = *position;
            child.play(mv);
            -minimax_margin(&child)
        })
        .max()
        .expect("a position that is not over has a move")
}

/// A perft count with its timing, as the protocol's `perft` reply prints it.
#[derive(Clone, Copy, Debug)]
pub struct PerftReport {
    /// Depth searched.
    pub depth: u32,
    /// Leaf count.
    pub nodes: u64,
    /// Wall time in microseconds (printed in milliseconds).
    pub micros: u128,
}

impl PerftReport {
    /// Runs perft and times it.
    pub fn run<G: Game>(position: &G, depth: u32) -> PerftReport {
        Self::run_until(position, depth, &AtomicBool::new(false)).expect("never stopped")
    }

    /// Runs perft and times it, unless `stop` is set first ([`perft_until`]).
    pub fn run_until<G: Game>(position: &G, depth: u32, stop: &AtomicBool) -> Option<PerftReport> {
        let start = Instant::now();
        let nodes = perft_until(position, depth, stop)?;
        Some(PerftReport {
            depth,
            nodes,
            micros: start.elapsed().as_micros(),
        })
    }

    /// Nodes per second (leaves counted per second of wall time).
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1_000_000 / self.micros.max(1)) as u64
    }
}

impl fmt::Display for PerftReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "perft depth {} nodes {} time {} nps {}",
            self.depth,
            self.nodes,
            self.micros / 1000,
            self.nps()
        )
    }
}

/// A game in progress: the current position, the moves played and the positions they went
/// through, so that moves can be taken back and repetitions detected.
#[derive(Clone, Debug)]
pub struct History<G: Game> {
    positions: Vec<G>,
    moves: Vec<G::Move>,
}

impl<G: Game> History<G> {
    /// A game that starts from `position`.
    pub fn new(position: G) -> Self {
        History {
            positions: vec![position],
            moves: Vec::new(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &G {
        self.positions.last().expect("a history is never empty")
    }

    /// The position the game started from.
    pub fn root(&self) -> &G {
        &self.positions[0]
    }

    /// The moves played since the start position.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// Every position of the game, the start first and the current one last.
    pub fn positions(&self) -> &[G] {
        &self.positions
    }

    /// Whether the current position already occurred earlier in this game.
    pub fn is_repetition(&self) -> bool {
        G::REPETITION_ENDS_GAME
            && repeats(self.position(), &self.positions[..self.positions.len() - 1])
    }

    /// The outcome of the game, by the rules or by repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        let position = self.position();
        if let Some(outcome) = position.outcome() {
            return Some(outcome);
        }
        self.is_repetition().then(|| Outcome {
            score: position.points(),
            reason: EndReason::Repetition,
        })
    }

    /// Fills `moves` with the legal moves (none when the game is over).
    pub fn legal_moves(&self, moves: &mut G::Moves) {
        if self.is_repetition() {
            *moves = G::Moves::default();
        } else {
            self.position().legal_moves(moves);
        }
    }

    /// Parses and checks a move, then plays it.
    pub fn play_text(&mut self, text: &str) -> Result<G::Move, NotationError> {
        if self.outcome().is_some() {
            return Err(NotationError::new(format!(
                "illegal move {text}: the game is over"
            )));
        }
        let mv = self.position().parse_legal_move(text)?;
        self.play(mv);
        Ok(mv)
    }

    /// Plays a move already known to be legal.
    pub fn play(&mut self, mv: G::Move) {
        let mut next = *self.position();
        next.play(mv);
        self.positions.push(next);
        self.moves.push(mv);
    }

    /// Takes back the last move; `false` when there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_some() {
            self.positions.pop();
            true
        } else {
            false
        }
    }
}

/// Whether `position` occurs in `earlier` (oldest first), looking back only as far as the last
/// irreversible move.
pub fn repeats<G: Game>(position: &G, earlier: &[G]) -> bool {
    let hash = position.hash();
    let mark = position.irreversible_count();
    earlier
        .iter()
        .rev()
        .take_while(|p| p.irreversible_count() == mark)
        .any(|p| p.hash() == hash)
}

#[cfg(test)]
mod tests {
    use super::MoveList;

    #[test]
    fn retain_keeps_the_chosen_moves_in_order() {
        let mut list = MoveList::<u8, 8>::default();
        for mv in [5, 2, 8, 3, 6] {
            list.push(mv);
        }
        list.retain(|mv| mv % 2 == 0);
        assert_eq!(list.as_slice(), &[2, 8, 6]);
        list.retain(|_| false);
        assert!(list.is_empty());
        list.push(4);
        list.clear();
        assert!(list.is_empty());
        list.push(1);
        assert_eq!(list.as_slice(), &[1]);
    }
}
