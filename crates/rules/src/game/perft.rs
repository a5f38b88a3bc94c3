//! Perft: counting the leaves of the game tree, the move generator's test and benchmark.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::Game;

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

    /// Leaves counted per second of wall time, or 0 for a count that took under 1 ms (the
    /// `time` printed is then 0): too short to measure, and Avalam counts its last two plies
    /// without playing them, so such a rate would claim tens of billions per second.
    pub fn nps(&self) -> u64 {
        if self.micros < 1000 {
            return 0;
        }
        (self.nodes as u128 * 1_000_000 / self.micros) as u64
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

#[cfg(test)]
mod tests {
    use super::PerftReport;

    #[test]
    fn perft_under_a_millisecond_reports_no_rate() {
        let report = |micros| PerftReport {
            depth: 3,
            nodes: 21_711_440,
            micros,
        };
        assert_eq!(report(1).nps(), 0);
        assert_eq!(
            report(999).to_string(),
            "perft depth 3 nodes 21711440 time 0 nps 0"
        );
        assert_eq!(report(2000).nps(), 10_855_720_000);
    }
}
