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

    /// A root the databases settle keeps only the moves whose child keeps its value by the
    /// databases' own reckoning: the moves that realise it often lead to boards that cycle,
    /// which the search only estimates, and a noisy estimate must not trade a proven win for
    /// a guess (as it did, win 4 to a loss, in games against the base build).
    fn prune_root(&self, moves: &mut <Awale as Game>::Moves) {
        let Some(root) = crate::egtb::probe(self).filter(|probe| !probe.cycle) else {
            return;
        };
        let keeps = |mv: Move| {
            let mut child = *self;
            child.play(mv);
            let margin = match crate::egtb::probe(&child) {
                Some(probe) => -probe.margin,
                None if child.outcome().is_some() => -child.margin(),
                None => return true,
            };
            margin >= root.margin
        };
        if moves.iter().any(|&mv| keeps(mv)) {
            moves.retain(keeps);
        }
    }
}
