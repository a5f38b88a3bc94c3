//! What the endgame databases prove about an Awale position, for the search: exact values
//! where play that ends settles the board, and the root's moves that keep them.

use crate::search::Exact;
use pion_rules::awale::{Awale, Move};
use pion_rules::game::Game;

impl Exact for Awale {
    /// The endgame databases' value, where they are installed and hold the position and it is
    /// settled by play that ends. A board the databases value by a repetition scored on itself
    /// is not exact under the first-repetition rule (which board repeats depends on the
    /// history): it is searched, its database value standing as its static value.
    #[inline]
    fn exact_value(&self) -> Option<(i32, u32)> {
        crate::egtb::probe(self)
            .filter(|probe| !probe.cycle)
            .map(|probe| (probe.margin, 0))
    }

    /// Inside the databases, the bounds each side can force by play that ends: equal on a
    /// settled board, around the cycles' values on a cycling one (the search cuts off where
    /// they settle its window, and searches on otherwise).
    #[inline]
    fn settle(&self, _moves: &mut <Awale as Game>::Moves) -> Option<(i32, i32)> {
        crate::egtb::probe(self).map(|probe| (probe.low, probe.high))
    }

    /// A root inside the databases keeps only the moves that keep what it can force by play
    /// that ends: those whose child gives the opponent no more than the root leaves it, by the
    /// databases' bounds, or by pion's rule where the child repeats a position of the game.
    /// The moves that realise a value often lead to boards that cycle, which the search only
    /// estimates, and a noisy estimate must not trade a proven result for a guess (as it did,
    /// win 4 to a loss, in games against the base build), nor take a cycle's value the
    /// opponent need not let it have.
    fn prune_root(&self, moves: &mut <Awale as Game>::Moves, repeats: &dyn Fn(&Awale) -> bool) {
        let Some(root) = crate::egtb::probe(self) else {
            return;
        };
        let keeps = |mv: Move| {
            let mut child = *self;
            child.play(mv);
            let margin = if repeats(&child) {
                -child.margin()
            } else {
                match crate::egtb::probe(&child) {
                    Some(probe) => -probe.high,
                    None if child.outcome().is_some() => -child.margin(),
                    None => return true,
                }
            };
            margin >= root.low
        };
        if moves.iter().any(|&mv| keeps(mv)) {
            moves.retain(keeps);
        }
    }
}
