//! Quiescence: past the horizon, a game whose profile asks for it plays out the noisy moves
//! (captures) before the static value is trusted, so that a capture one ply beyond the horizon
//! is seen as played rather than guessed.

use super::*;

impl<G: Evaluate> Search<'_, G> {
    /// The value of `pos` at or past the horizon, its static value `stand` (for the side to
    /// move) standing in for the quiet moves: the side to move may take it or play a noisy move.
    /// Noisy moves are irreversible here (a capture changes the counts), so no line repeats.
    pub(super) fn quiesce(&mut self, pos: &G, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        let stand = match pos.horizon() {
            Horizon::Exact(margin) => {
                self.ends += 1;
                return value::proven(pos, margin);
            }
            Horizon::Heuristic(v) => {
                // The static value is a guess: whatever comes of this node is unproven.
                self.unproven += 1;
                value::heuristic(v)
            }
            Horizon::Bounded { low, high, likely } => self.bounded_leaf(low, high, likely),
        };
        self.seldepth = self.seldepth.max(ply);
        if stand >= beta || ply >= MAX_PLY - 1 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves = G::Moves::default();
        pos.legal_moves(&mut moves);
        let mut noisy = std::mem::take(&mut self.noisy_scratch[ply]);
        noisy.clear();
        noisy.extend(
            moves
                .as_ref()
                .iter()
                .map(|&mv| (pos.order_score(mv), mv))
                .filter(|&(score, _)| score > 0),
        );
        noisy.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        let mut best = stand;
        for &(_, mv) in noisy.iter() {
            self.nodes += 1;
            if self.check_abort() {
                break;
            }
            let mut child = *pos;
            child.play(mv);
            let v = -self.quiesce(&child, ply + 1, -beta, -alpha);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.noisy_scratch[ply] = noisy;
        if self.aborted { 0 } else { best }
    }
}
