//! Iterative-deepening negamax alpha-beta with principal-variation search, a transposition
//! table, and move ordering by hash move, killers, history and a cheap static score.
//!
//! Proofs: every heuristic leaf (and every cut-off taken from an unproven table entry) bumps a
//! counter. A subtree whose search left the counter unchanged was decided by finished games
//! alone, so its value is the exact game-theoretic value whatever the depth: it is stored as
//! proven and reused at any depth. An iteration that leaves the counter unchanged has solved the
//! game from the root, and the search can stop.

use super::time::{self, Clock};
use super::tt::{Bound, Table};
use super::value::{self, INFINITY, MAX_PLY};
use super::{Evaluate, Info, Limits};
use crate::game::History;

/// The shallowest remaining depth at which children are probed before searching (ETC).
const ETC_DEPTH: i32 = 3;

/// The shallowest remaining depth at which late moves are searched one ply shallower (LMR).
const LMR_DEPTH: i32 = 3;

/// Moves before this index in the ordered list (hash move, killers, the best of the rest) are
/// never reduced.
const LMR_FIRST_INDEX: usize = 3;

/// Move-ordering memory kept between searches: history counters and killer moves.
pub struct Heuristics {
    history: Vec<i32>,
    killers: Vec<[u16; 2]>,
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
    fn age(&mut self) {
        for h in &mut self.history {
            *h /= 2;
        }
        self.killers.fill([0; 2]);
    }
}

/// The outcome of one alpha-beta search.
pub struct Outcome<M> {
    /// The move to play.
    pub best: M,
    /// The last report made.
    pub info: Info,
}

struct Search<'a, G: Evaluate> {
    tt: &'a mut Table,
    heur: &'a mut Heuristics,
    clock: &'a Clock<'a>,
    nodes: u64,
    seldepth: usize,
    /// Heuristic leaves and unproven cut-offs seen so far (see the module comment).
    unproven: u64,
    /// Repetitions met: real game ends on this path, but not on another path to the same
    /// position, so a subtree holding one is not stored as proven.
    path_dependent: u64,
    /// One reusable buffer of ordering scores per ply.
    scores: Vec<Vec<i32>>,
    aborted: bool,
    /// (hash, irreversible count) of the game's positions, then of the search path.
    path: Vec<(u64, u32)>,
    /// Triangular principal-variation table.
    pv: Vec<[u16; MAX_PLY]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Best root move of the iteration in progress, once one root move is fully searched.
    root_best: Option<(G::Move, i32)>,
    _game: std::marker::PhantomData<G>,
}

impl<G: Evaluate> Search<'_, G> {
    fn check_abort(&mut self) -> bool {
        if !self.aborted
            && (self.clock.out_of_nodes(self.nodes)
                || (self.nodes & 1023 == 0 && self.clock.must_stop(self.nodes)))
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn is_repetition(&self, pos: &G) -> bool {
        if !G::REPETITION_ENDS_GAME {
            return false;
        }
        let (hash, mark) = (pos.hash(), pos.irreversible_count());
        // The last entry is the position itself.
        self.path[..self.path.len() - 1]
            .iter()
            .rev()
            .take_while(|&&(_, m)| m == mark)
            .any(|&(h, _)| h == hash)
    }

    fn margin(pos: &G) -> i32 {
        let points = pos.points();
        let me = pos.side_to_move();
        points[me.index()] as i32 - points[me.other().index()] as i32
    }

    fn negamax(&mut self, pos: &G, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv_len[ply] = 0;
        self.nodes += 1;
        if self.check_abort() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply > 0 && self.is_repetition(pos) {
            self.path_dependent += 1;
            return value::terminal(Self::margin(pos));
        }
        // Not at the root: the root must still search its moves to know which one keeps the
        // value (the children are then scored exactly at once).
        if ply > 0
            && let Some((margin, _)) = pos.exact_value()
        {
            return value::terminal(margin);
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            if pos.outcome().is_some() {
                return value::terminal(Self::margin(pos));
            }
            self.unproven += 1;
            return value::heuristic(pos.evaluate());
        }
        let mut moves = G::Moves::default();
        pos.legal_moves(&mut moves);
        if moves.as_ref().is_empty() {
            return value::terminal(Self::margin(pos));
        }
        pos.prune_equivalent(&mut moves);

        let key = pos.hash();
        let mut tt_move = 0;
        if let Some(hit) = self.tt.probe(key) {
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
            for &mv in moves.as_ref() {
                let mut child = *pos;
                child.play(mv);
                if let Some(hit) = self.tt.probe(child.hash())
                    && (hit.proven || hit.depth as i32 >= depth - 1)
                    && hit.bound != Bound::Lower
                    && -hit.value >= beta
                {
                    if !hit.proven {
                        self.unproven += 1;
                    }
                    return -hit.value;
                }
            }
        }

        let unproven_before = (self.unproven, self.path_dependent);
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
            // Selection sort step: bring the best remaining move to position i.
            let mut pick = i;
            for j in i + 1..list.len() {
                if scores[j] > scores[pick] {
                    pick = j;
                }
            }
            list.swap(i, pick);
            scores.swap(i, pick);
            let mv = list[i];
            let mut child = *pos;
            child.play(mv);
            self.path.push((child.hash(), child.irreversible_count()));
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
                    && depth >= LMR_DEPTH
                    && i >= LMR_FIRST_INDEX
                    && code != killers[0]
                    && code != killers[1]
                    && !self.is_noisy(pos, mv);
                let mut v = alpha + 1;
                if reduce {
                    v = -self.negamax(&child, depth - 2, ply + 1, -alpha - 1, -alpha);
                }
                if v > alpha && !self.aborted {
                    v = -self.negamax(&child, depth - 1, ply + 1, -alpha - 1, -alpha);
                }
                if v > alpha && v < beta && !self.aborted {
                    v = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha);
                }
                v
            };
            self.path.pop();
            if self.aborted {
                self.scores[ply] = buffer;
                return 0;
            }
            if v > best {
                best = v;
                best_code = G::encode_move(mv);
                if ply == 0 {
                    self.root_best = Some((mv, v));
                }
                if v > alpha {
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
                        *h = (*h + depth * depth).min(1 << 20);
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
        let proven = (self.unproven, self.path_dependent) == unproven_before;
        self.tt.store(
            key,
            depth.clamp(0, 255) as u8,
            best,
            bound,
            best_code,
            proven,
        );
        best
    }

    /// Moves the static order already puts first do not need killer slots.
    fn is_noisy(&self, pos: &G, mv: G::Move) -> bool {
        pos.order_score(mv) > 0
    }

    fn pv_moves(&self) -> Vec<G::Move> {
        self.pv[0][..self.pv_len[0]]
            .iter()
            .map(|&c| G::decode_move(c))
            .collect()
    }
}

/// Runs iterative deepening on the current position of `game`. `fallback` is played if not even
/// one root move could be searched.
#[allow(clippy::too_many_arguments)]
pub fn search<G: Evaluate>(
    game: &History<G>,
    limits: &Limits,
    tt: &mut Table,
    heur: &mut Heuristics,
    clock: &Clock<'_>,
    fallback: G::Move,
    report: &mut dyn FnMut(&Info),
) -> Outcome<G::Move> {
    tt.new_search();
    heur.age();
    let root = *game.position();
    let mut search = Search::<G> {
        tt,
        heur,
        clock,
        nodes: 0,
        seldepth: 0,
        unproven: 0,
        path_dependent: 0,
        scores: vec![Vec::new(); MAX_PLY + 1],
        aborted: false,
        path: game
            .positions()
            .iter()
            .map(|p| (p.hash(), p.irreversible_count()))
            .collect(),
        pv: vec![[0; MAX_PLY]; MAX_PLY + 1],
        pv_len: [0; MAX_PLY + 1],
        root_best: None,
        _game: std::marker::PhantomData,
    };
    let mut best = fallback;
    let mut last = Info {
        pv: vec![G::format_move(fallback)],
        ..Info::default()
    };
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32 - 1)
        .clamp(1, MAX_PLY as u32 - 1);
    let single = root.count_moves() == 1 && clock.budget().is_some();
    for depth in 1..=max_depth {
        let started = clock.elapsed_ms();
        let unproven_before = search.unproven;
        search.seldepth = 0;
        search.root_best = None;
        let v = search.negamax(&root, depth as i32, 0, -INFINITY, INFINITY);
        if search.aborted {
            // A partly searched iteration still improves on the last when its first move (the
            // previous best) was searched in full and some move beat it.
            if let Some((mv, _)) = search.root_best {
                best = mv;
            }
            break;
        }
        let exact = search.unproven == unproven_before;
        let pv = search.pv_moves();
        if let Some(&first) = pv.first() {
            best = first;
        }
        let elapsed = clock.elapsed_ms();
        last = Info {
            depth,
            seldepth: search.seldepth as u32,
            score: Some(value::to_score(v, exact)),
            score_bound: !exact && value::is_decisive(v),
            nodes: search.nodes,
            time_ms: elapsed,
            hashfull: Some(search.tt.hashfull()),
            playouts: None,
            pv: pv.iter().map(|&m| G::format_move(m)).collect(),
        };
        report(&last);
        let last_iteration_ms = elapsed - started;
        if exact && !limits.infinite {
            break;
        }
        if single && !limits.infinite {
            break;
        }
        if let Some(budget) = clock.budget()
            && !time::worth_next_iteration(&budget, elapsed, last_iteration_ms)
        {
            break;
        }
    }
    last.nodes = search.nodes;
    last.time_ms = clock.elapsed_ms();
    Outcome { best, info: last }
}
