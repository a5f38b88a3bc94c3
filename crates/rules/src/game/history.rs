//! A game in progress: positions, moves, repetition and the result.

use super::{EndReason, Game, NotationError, Outcome};

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
        self.is_repetition()
            .then(|| position.outcome_now(EndReason::Repetition))
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
