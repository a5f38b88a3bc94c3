//! Exact values by plain minimax: slow and obviously right, the oracle that faster solvers are
//! tested against.

use super::{Game, Outcome, Player};

/// One point of final margin in [`minimax_result`]: a win by points always outweighs the
/// tie-break, which is worth 1.
pub const POINT: i32 = 1000;

/// The exact final margin for the side to move, by plain minimax to the end of the game: the
/// slow, obviously correct reference that faster exact evaluations are tested against. It
/// ignores repetition (a rule of the game's history, not of the position), so it is meant for
/// small Avalam positions and Awale positions that cannot cycle.
pub fn minimax_margin<G: Game>(position: &G) -> i32 {
    minimax(position, &|outcome, me| outcome.margin_for(me))
}

/// The exact result for the side to move under a variant with a tie-break (Avalam's
/// `tiebreak5`), by plain minimax as [`minimax_margin`]: a final margin of `m` points is
/// `m * POINT`, and a game level on points is 1, 0 or -1 as the tie-break decides it.
pub fn minimax_result<G: Game>(position: &G) -> i32 {
    minimax(position, &|outcome, me| match outcome.margin_for(me) {
        0 => match outcome.winner() {
            Some(winner) if winner == me => 1,
            Some(_) => -1,
            None => 0,
        },
        margin => margin * POINT,
    })
}

/// Negamax to the end of the game, a finished game valued by `leaf` for the side to move.
fn minimax<G: Game>(position: &G, leaf: &dyn Fn(&Outcome, Player) -> i32) -> i32 {
    if let Some(outcome) = position.outcome() {
        return leaf(&outcome, position.side_to_move());
    }
    let mut moves = G::Moves::default();
    position.legal_moves(&mut moves);
    moves
        .as_ref()
        .iter()
        .map(|&mv| {
            let mut child = *position;
            child.play(mv);
            -minimax(&child, leaf)
        })
        .max()
        .expect("a position that is not over has a move")
}
