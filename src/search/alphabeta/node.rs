//! One node of the search: negamax with the table, ordering, reductions and pruning.

use super::*;

impl<G: Evaluate> Search<'_, G> {
    pub(super) fn negamax(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.pv_len[ply] = 0;
        self.nodes += 1;
        if self.check_abort() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        // A repetition ends the game: a proven value, for the context of the nodes above.
        if ply > 0 && self.is_repetition(pos) {
            self.repetitions += 1;
            return value::game_over(pos);
        }
        if depth <= 0 && G::QUIESCENCE && !self.solving {
            return self.quiesce(pos, ply, alpha, beta);
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return match pos.horizon() {
                Horizon::Exact(margin) => {
                    self.ends += 1;
                    value::proven(pos, margin)
                }
                Horizon::Heuristic(v) => {
                    self.unproven += 1;
                    value::heuristic(v)
                }
                Horizon::Bounded { low, high, likely } => self.bounded_leaf(low, high, likely),
            };
        }
        // The table is read after the moves are generated: start loading its entry now.
        self.tt.prefetch(pos.hash());
        let mut moves = G::Moves::default();
        pos.legal_moves(&mut moves);
        if moves.as_ref().is_empty() {
            self.ends += 1;
            return value::game_over(pos);
        }
        let bounds = pos.settle(&mut moves);
        if ply == 0 {
            pos.prune_root(&mut moves, &|child| self.repeats(child));
        }
        // Not at the root: the root must still search its moves to know which one keeps the
        // value (the children are then scored exactly at once). Proven bounds that settle the
        // window end the node too, as a proven bound on its value.
        if ply > 0
            && let Some((low, high)) = bounds
        {
            let (proven_low, proven_high) = (value::terminal(low), value::terminal(high));
            if proven_low == proven_high || proven_low >= beta || proven_high <= alpha {
                self.ends += 1;
                return if proven_high <= alpha {
                    proven_high
                } else {
                    proven_low
                };
            }
            if G::BOUNDS_AS_LEAVES
                && !self.root_bounded
                && let Horizon::Bounded { low, high, likely } = pos.horizon()
            {
                return self.bounded_leaf(low, high, likely);
            }
        }

        let key = pos.hash();
        let context = self.context();
        let mut tt_move = 0;
        if let Some(hit) = self.tt.probe_in(key, context) {
            tt_move = hit.mv;
            let v = hit.value;
            if ply > 0 && (hit.proven || hit.depth as i32 >= depth) {
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                };
                if cut {
                    if !hit.proven {
                        self.unproven += 1;
                    }
                    return v;
                }
            }
        }

        // Enhanced transposition cut-off: a child already known to be bad enough for the
        // opponent refutes this node without searching anything (moves commute a lot in
        // Avalam, so children are often in the table). Only where a subtree is worth a probe,
        // and not where repetitions make a stored value depend on the path.
        if ply > 0 && depth >= ETC_DEPTH && !G::REPETITION_ENDS_GAME {
            // All the children are played and hashed, and their clusters requested, before the
            // first probe, so the loads overlap. This gives up stopping at the first refutation
            // found; measured over the whole search it is still faster (docs/engine.md, "faster
            // nodes").
            let mut keys = std::mem::take(&mut self.child_keys);
            keys.clear();
            for &mv in moves.as_ref() {
                let mut child = *pos;
                child.play(mv);
                keys.push(child.hash());
                self.tt.prefetch(child.hash());
            }
            let refutation = keys.iter().find_map(|&key| {
                self.tt.probe(key).filter(|hit| {
                    (hit.proven || hit.depth as i32 >= depth - 1)
                        && hit.bound != Bound::Lower
                        && -hit.value >= beta
                })
            });
            self.child_keys = keys;
            if let Some(hit) = refutation {
                if !hit.proven {
                    self.unproven += 1;
                }
                return -hit.value;
            }
        }

        // Next to the horizon, outside the principal variation and away from proven values, the
        // static value decides what is not worth searching (see `Frontier`). Every shortcut
        // bumps the proof counter, as a heuristic leaf would.
        let frontier = match G::FRONTIER {
            Some(margins)
                if (1..=2).contains(&depth)
                    && ply > 0
                    && !self.solving
                    && beta - alpha == 1
                    && !value::is_decisive(alpha)
                    && !value::is_decisive(beta)
                    && moves.as_ref().len() >= FRONTIER_MIN_MOVES =>
            {
                Some((margins, value::heuristic(pos.evaluate())))
            }
            _ => None,
        };
        if let Some((margins, eval)) = frontier {
            let v = eval - margins.reverse[depth as usize - 1];
            if v >= beta {
                self.unproven += 1;
                return v;
            }
        }

        let unproven_before = (self.unproven, self.repetitions);
        let alpha_orig = alpha;
        let side = pos.side_to_move().index();
        let slots = self.heur.history.len() / 2;
        let killers = self.heur.killers[ply];
        let list = moves.as_mut();
        let mut buffer = std::mem::take(&mut self.scores[ply]);
        buffer.clear();
        buffer.resize(list.len(), 0);
        let scores = &mut buffer[..];
        for (mv, score) in list.iter().zip(scores.iter_mut()) {
            let code = G::encode_move(*mv);
            *score = if code == tt_move {
                i32::MAX
            } else if code == killers[0] {
                1 << 28
            } else if code == killers[1] {
                (1 << 28) - 1
            } else {
                pos.order_score(*mv) * 4096 + self.heur.history[side * slots + code as usize]
            };
        }

        let mut best = -INFINITY;
        let mut best_code = 0;
        for i in 0..list.len() {
            if i < SELECTED_MOVES {
                // Selection sort step: bring the best remaining move to position i.
                let mut pick = i;
                for j in i + 1..list.len() {
                    if scores[j] > scores[pick] {
                        pick = j;
                    }
                }
                list.swap(i, pick);
                scores.swap(i, pick);
            } else if i == SELECTED_MOVES {
                // No cut-off among the first moves: the rest is likely all searched, so sort it
                // once rather than select each move in turn.
                let tail = &mut self.sort_scratch;
                tail.clear();
                tail.extend(scores[i..].iter().copied().zip(list[i..].iter().copied()));
                // Stable: moves of equal score keep their order.
                tail.sort_by_key(|entry| std::cmp::Reverse(entry.0));
                for (k, &(score, mv)) in tail.iter().enumerate() {
                    scores[i + k] = score;
                    list[i + k] = mv;
                }
            }
            let mv = list[i];
            if i > 0
                && let Some((margins, eval)) = frontier
                && let Some(bound) = self.futile(pos, mv, depth, eval, &margins, alpha)
            {
                self.unproven += 1;
                best = best.max(bound);
                continue;
            }
            let mut child = *pos;
            child.play(mv);
            self.enter(&child);
            let v = if i == 0 {
                -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
            } else {
                // Late move reduction: a late quiet move is first tried one ply shallower with
                // a null window, and searched in full only if it beats alpha there. Proofs stay
                // sound without special care: a reduced subtree that met a heuristic leaf bumped
                // the counter like any other, and one that met none was decided by finished
                // games alone, so its value is exact whatever depth it was searched to.
                let code = G::encode_move(mv);
                let reduce = G::LATE_MOVE_REDUCTIONS
                    && !self.solving
                    && depth >= LMR_DEPTH
                    && i >= LMR_FIRST_INDEX
                    && code != killers[0]
                    && code != killers[1]
                    && !self.is_noisy(pos, mv);
                let mut v = alpha + 1;
                if reduce {
                    let deep = G::DEEP_REDUCTION_DEPTH.is_some_and(|from| depth >= from);
                    let r = 1 + i32::from(deep);
                    v = -self.negamax(&child, depth - 1 - r, ply + 1, -alpha - 1, -alpha);
                }
                if v > alpha && !self.aborted {
                    v = -self.negamax(&child, depth - 1, ply + 1, -alpha - 1, -alpha);
                }
                if v > alpha && v < beta && !self.aborted {
                    v = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha);
                }
                v
            };
            self.leave();
            if self.aborted {
                self.scores[ply] = buffer;
                return 0;
            }
            if v > best {
                best = v;
                best_code = G::encode_move(mv);
                if v > alpha {
                    // At the root, only a move that beats the window's floor is a choice: under
                    // an aspiration window a lower value is only a bound from above.
                    if ply == 0 {
                        self.root_best = Some((mv, v));
                    }
                    alpha = v;
                    self.pv[ply][0] = best_code;
                    let n = self.pv_len[ply + 1];
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply][1..=n].copy_from_slice(&tail[0][..n]);
                    self.pv_len[ply] = n + 1;
                    if v >= beta {
                        if !self.is_noisy(pos, mv) {
                            let k = &mut self.heur.killers[ply];
                            if k[0] != best_code {
                                k[1] = k[0];
                                k[0] = best_code;
                            }
                        }
                        let h = &mut self.heur.history[side * slots + best_code as usize];
                        let d = depth.min(HISTORY_DEPTH_CAP);
                        *h = (*h + d * d).min(1 << 20);
                        break;
                    }
                }
            }
        }

        self.scores[ply] = buffer;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // Proven, and path-independent unless a line repeated a position above this one (only
        // possible with a context): then the value is stored for this context alone.
        let proven = self.unproven == unproven_before.0;
        let for_context = proven && context != 0 && self.repetitions != unproven_before.1;
        let depth = depth.clamp(0, 255) as u8;
        self.tt
            .store(key, depth, best, bound, best_code, proven && !for_context);
        if for_context {
            self.tt.store_proven(key, context, depth, best, bound);
        }
        best
    }

    /// The value bound of `mv` when the static value `eval` plus its futility margin cannot
    /// reach `alpha`, so that it need not be searched.
    pub(super) fn futile(
        &self,
        pos: &G,
        mv: G::Move,
        depth: i32,
        eval: i32,
        margins: &Frontier,
        alpha: i32,
    ) -> Option<i32> {
        let d = depth as usize - 1;
        let margin = if self.is_noisy(pos, mv) {
            margins.noisy[d]
        } else {
            margins.quiet[d]
        };
        (eval + margin <= alpha).then_some(eval + margin)
    }

    /// Moves the static order already puts first do not need killer slots.
    pub(super) fn is_noisy(&self, pos: &G, mv: G::Move) -> bool {
        pos.order_score(mv) > 0
    }
}
