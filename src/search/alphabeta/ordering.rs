//! Move ordering: what the search remembers between nodes and between searches.

use crate::search::value::MAX_PLY;

/// Move-ordering memory kept between searches: history counters and killer moves.
pub struct Heuristics {
    pub(super) history: Vec<i32>,
    pub(super) killers: Vec<[u16; 2]>,
}

impl Heuristics {
    /// Empty tables for a game with `slots` distinct move encodings.
    pub fn new(slots: usize) -> Self {
        Heuristics {
            history: vec![0; 2 * slots],
            killers: vec![[0; 2]; MAX_PLY + 1],
        }
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.history.fill(0);
        self.killers.fill([0; 2]);
    }

    /// Halves the history counters between searches, so recent evidence dominates.
    pub(super) fn age(&mut self) {
        for h in &mut self.history {
            *h /= 2;
        }
        self.killers.fill([0; 2]);
    }
}
