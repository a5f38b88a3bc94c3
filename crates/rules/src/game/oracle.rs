//! Exact values by plain minimax: slow and obviously right, the oracle that faster solvers are
//! tested against.

use super::Game;

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
