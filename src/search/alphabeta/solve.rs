//! Solving the root late in a game: null-window proofs of win, draw or loss, and the swindle
//! that picks, among moves that keep a proven result, the one that leaves the opponent least.

use super::*;

impl<G: Evaluate> Search<'_, G> {
    /// One solving step: a search to the end of the game with the window `(alpha, beta)` at the
    /// root, giving up after `cap` nodes. Returns the value (a bound when outside the window)
    /// and, when it beat `alpha`, the root move that did; `None` when it gave up, ran out of time,
    /// or met a heuristic leaf after all (a line longer than the deepest ply).
    pub(super) fn prove(
        &mut self,
        root: &G,
        alpha: i32,
        beta: i32,
        cap: Option<u64>,
    ) -> Option<(i32, Option<G::Move>)> {
        self.node_cap = cap.map(|c| self.nodes + c);
        self.root_best = None;
        let v = self.prove_at(root, 0, alpha, beta);
        self.node_cap = None;
        if self.capped {
            // The cap, not the clock, ended the attempt: the search may go on.
            self.capped = false;
            self.aborted = false;
            return None;
        }
        let v = v?;
        let mv = self.root_best.filter(|_| v > alpha).map(|(mv, _)| mv);
        Some((v, mv))
    }

    /// Tries to solve the root within `cap` nodes (see the module comment), reporting each
    /// proven step. `None`: the win/draw/loss question was not settled within the cap. Otherwise
    /// the proven move (none for a loss whose margin could not be settled in time) and the last
    /// report, exact unless the clock ran out while the margin was being narrowed.
    pub(super) fn solve_root(
        &mut self,
        root: &G,
        cap: u64,
        depth: u32,
        report: &mut dyn FnMut(&Info),
    ) -> Option<(Option<G::Move>, Info)> {
        let (v, mut best) = self.prove(root, -1, 1, Some(cap))?;
        // The value lies in [lower, upper]; proven values are 0 or at least a win by 1 point.
        let (mut lower, mut upper) = match v {
            1.. => (v, INFINITY),
            ..=-1 => (-INFINITY, v),
            0 => (0, 0),
        };
        loop {
            let score = if lower == upper {
                value::to_score(lower, true)
            } else if lower > -INFINITY {
                value::to_score(lower, false)
            } else {
                value::to_score(upper, false)
            };
            let info = self.root_info(depth, Some(score), lower != upper, best);
            report(&info);
            if lower == upper {
                return Some((best, info));
            }
            // Is the value above the best proven so far (or, for a loss, at its bound)?
            let target = if lower > -INFINITY {
                lower + value::MARGIN_UNIT
            } else {
                upper
            };
            let Some((v, mv)) = self.prove(root, target - 1, target, None) else {
                return Some((best, info));
            };
            if v >= target {
                lower = v;
                best = mv.or(best);
            } else {
                upper = v;
            }
        }
    }

    /// The value of `pos`, `ply` plies below the root and last on the search path, by a search
    /// to the end with the window `(alpha, beta)`; `None` if the clock ran out.
    pub(super) fn prove_at(&mut self, pos: &G, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        let unproven_before = self.unproven;
        self.solving = true;
        let v = self.negamax(pos, SOLVE_DEPTH, ply, alpha, beta);
        self.solving = false;
        (!self.aborted && self.unproven == unproven_before).then_some(v)
    }

    /// At a root whose exact value `value` is a draw or a loss, the move that keeps that value
    /// (the best margin) while leaving the opponent the smallest share of replies that keep
    /// their result: against a fallible opponent (a Monte Carlo search, a person) that is the
    /// move most likely to turn a draw into a win, or a loss into at least a draw. `goal` is the
    /// value a reply must hand us to count as a mistake: 1 (a win) at a drawn root, 0 (a draw)
    /// at a lost one. Moves are examined in the search's order while the clock allows; `best`
    /// (a move proven to keep `value`) is the default.
    pub(super) fn swindle(&mut self, root: &G, best: G::Move, value: i32, goal: i32) -> G::Move {
        let mut moves = G::Moves::default();
        root.legal_moves(&mut moves);
        root.prune_equivalent(&mut moves);
        let mut list: Vec<G::Move> = moves.as_ref().to_vec();
        list.sort_by_key(|&mv| (mv != best, -root.order_score(mv)));
        // The chosen move with (safe replies, replies), compared as fractions; 2/1 is worse
        // than any real share, so the first complete move replaces it.
        let mut chosen = (best, 2u64, 1u64);
        for mv in list {
            let mut child = *root;
            child.play(mv);
            let mut answers = G::Moves::default();
            child.legal_moves(&mut answers);
            let replies = answers.as_ref().len() as u64;
            self.enter(&child);
            // The opponent moves at `child`: the move keeps the root's value if they cannot do
            // better than its negation.
            let keeps = mv == best
                || self
                    .prove_at(&child, 1, -value, -value + 1)
                    .is_some_and(|v| v <= -value);
            let mut safe = 0;
            let mut complete = keeps;
            if keeps {
                for &answer in answers.as_ref() {
                    let mut next = child;
                    next.play(answer);
                    self.enter(&next);
                    // A reply is safe for the opponent unless it hands us the goal.
                    let v = self.prove_at(&next, 2, goal - 1, goal);
                    self.leave();
                    safe += v.is_none_or(|v| v < goal) as u64;
                    // Give up on a move once it cannot beat the chosen one, or out of time.
                    if v.is_none() || safe * chosen.2 > chosen.1 * replies {
                        complete = false;
                        break;
                    }
                }
            }
            self.leave();
            if self.aborted {
                break;
            }
            if complete && replies > 0 && safe * chosen.2 < chosen.1 * replies {
                chosen = (mv, safe, replies);
            }
        }
        chosen.0
    }
}
