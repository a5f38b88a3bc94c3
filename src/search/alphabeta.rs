//! Iterative-deepening negamax alpha-beta with principal-variation search, a transposition
//! table, and move ordering by hash move, killers, history and a cheap static score.
//!
//! Proofs: every heuristic leaf (and every cut-off taken from an unproven table entry) bumps a
//! counter. A subtree whose search left the counter unchanged was decided by finished games
//! alone, so its value is the exact game-theoretic value whatever the depth: it is stored as
//! proven and reused at any depth. An iteration that leaves the counter unchanged has solved the
//! game from the root, and the search can stop.
//!
//! Late in a game the iterations meet more and more finished games. Once they make up a good
//! share of the leaves, the search also tries to *solve* the root: a null-window search to the
//! end of the game around a draw says win, draw or loss, and is far cheaper than the full-window
//! iteration that proves the exact margin. Further null-window tests (as in MTD(f)) then narrow
//! the margin down. Each attempt has a node cap that grows with the iterations, so a root that is
//! still too hard to solve costs at most about one iteration's work per attempt.

use super::time::{self, Clock};
use super::tt::{Bound, Table};
use super::value::{self, INFINITY, MAX_PLY};
use super::{Evaluate, Frontier, Horizon, Info, Limits, Score};
use pion_rules::game::History;

/// The shallowest remaining depth at which children are probed before searching (ETC).
const ETC_DEPTH: i32 = 3;

/// The shallowest remaining depth at which late moves are searched one ply shallower (LMR).
const LMR_DEPTH: i32 = 3;

/// A depth that reaches the end of every game line: a search to it meets no heuristic leaf.
const SOLVE_DEPTH: i32 = MAX_PLY as i32;

/// Solving is tried once finished games make up at least `1 / SOLVE_END_SHARE` of the leaves
/// met by an iteration (ends against heuristic leaves).
const SOLVE_END_SHARE: u64 = 4;

/// The least node cap of a solving attempt.
const SOLVE_MIN_NODES: u64 = 10_000;

/// The deepest remaining depth that weighs a history bonus (solver depths are all "very deep").
const HISTORY_DEPTH_CAP: i32 = 20;

/// Moves before this index in the ordered list (hash move, killers, the best of the rest) are
/// never reduced.
const LMR_FIRST_INDEX: usize = 3;

/// The first moves of a node are picked one at a time (a cut-off often comes before the rest is
/// looked at); the others are sorted at once.
const SELECTED_MOVES: usize = 3;

/// Frontier pruning (futility) needs at least this many moves: with fewer the game is nearly
/// over, lines are short and the solver should see them whole.
const FRONTIER_MIN_MOVES: usize = 8;

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
    /// Leaves that were finished games (or positions settled exactly without search).
    ends: u64,
    /// Whether a solving attempt is running (no reductions: every line goes to its end).
    solving: bool,
    /// The node count at which a solving attempt gives up, and whether it did.
    node_cap: Option<u64>,
    capped: bool,
    /// One reusable buffer of ordering scores per ply.
    scores: Vec<Vec<i32>>,
    /// Scratch list of the children's hash keys for enhanced transposition cut-offs.
    child_keys: Vec<u64>,
    /// Scratch list for sorting the late moves of a node.
    sort_scratch: Vec<(i32, G::Move)>,
    aborted: bool,
    /// (hash, irreversible count) of the game's positions, then of the search path.
    path: Vec<(u64, u32)>,
    /// Triangular principal-variation table.
    pv: Vec<[u16; MAX_PLY]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Best root move of the iteration in progress, once one root move is fully searched.
    root_best: Option<(G::Move, i32)>,
    /// The position searched.
    root: G,
}

impl<'a, G: Evaluate> Search<'a, G> {
    fn new(
        game: &History<G>,
        tt: &'a mut Table,
        heur: &'a mut Heuristics,
        clock: &'a Clock<'a>,
    ) -> Self {
        Search {
            tt,
            heur,
            clock,
            nodes: 0,
            seldepth: 0,
            unproven: 0,
            path_dependent: 0,
            ends: 0,
            solving: false,
            node_cap: None,
            capped: false,
            scores: vec![Vec::new(); MAX_PLY + 1],
            child_keys: Vec::new(),
            sort_scratch: Vec::new(),
            aborted: false,
            path: game
                .positions()
                .iter()
                .map(|p| (p.hash(), p.irreversible_count()))
                .collect(),
            pv: vec![[0; MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_best: None,
            root: *game.position(),
        }
    }

    fn check_abort(&mut self) -> bool {
        if !self.aborted && self.node_cap.is_some_and(|cap| self.nodes >= cap) {
            self.aborted = true;
            self.capped = true;
        }
        if !self.aborted
            && (self.clock.out_of_nodes(self.nodes)
                || (self.nodes & 63 == 0 && self.clock.stopped())
                // (must_stop reads the stop flag too, besides the clock.)
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

    fn negamax(&mut self, pos: &G, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv_len[ply] = 0;
        self.nodes += 1;
        if self.check_abort() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply > 0 && self.is_repetition(pos) {
            self.path_dependent += 1;
            return value::terminal(pos.margin());
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return match pos.horizon() {
                Horizon::Exact(margin) => {
                    self.ends += 1;
                    value::terminal(margin)
                }
                Horizon::Heuristic(v) => {
                    self.unproven += 1;
                    value::heuristic(v)
                }
            };
        }
        // The table is read after the moves are generated: start loading its entry now.
        self.tt.prefetch(pos.hash());
        let mut moves = G::Moves::default();
        pos.legal_moves(&mut moves);
        if moves.as_ref().is_empty() {
            self.ends += 1;
            return value::terminal(pos.margin());
        }
        let bounds = pos.settle(&mut moves);
        // Not at the root: the root must still search its moves to know which one keeps the
        // value (the children are then scored exactly at once). Proven bounds that settle the
        // window end the node too, as a proven bound on its value.
        if ply > 0
            && let Some((low, high)) = bounds
        {
            let (low, high) = (value::terminal(low), value::terminal(high));
            if low == high || low >= beta || high <= alpha {
                self.ends += 1;
                return if high <= alpha { high } else { low };
            }
        }

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
            // All the children are played and hashed, and their clusters requested, before the
            // first probe, so the loads overlap. This gives up stopping at the first refutation
            // found; measured over the whole search it is still faster (see the commit).
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
                    && !self.solving
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

    /// The value bound of `mv` when the static value `eval` plus its futility margin cannot
    /// reach `alpha`, so that it need not be searched.
    fn futile(
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
    fn is_noisy(&self, pos: &G, mv: G::Move) -> bool {
        pos.order_score(mv) > 0
    }

    /// One solving step: a search to the end of the game with the window `(alpha, beta)` at the
    /// root, giving up after `cap` nodes. Returns the value (a bound when outside the window)
    /// and, when it beat `alpha`, the root move that did; `None` when it gave up, ran out of time,
    /// or met a heuristic leaf after all (a line longer than the deepest ply).
    fn prove(
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
    fn solve_root(
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
    fn prove_at(&mut self, pos: &G, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
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
    fn swindle(&mut self, root: &G, best: G::Move, value: i32, goal: i32) -> G::Move {
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
            self.path.push((child.hash(), child.irreversible_count()));
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
                    self.path.push((next.hash(), next.irreversible_count()));
                    // A reply is safe for the opponent unless it hands us the goal.
                    let v = self.prove_at(&next, 2, goal - 1, goal);
                    self.path.pop();
                    safe += v.is_none_or(|v| v < goal) as u64;
                    // Give up on a move once it cannot beat the chosen one, or out of time.
                    if v.is_none() || safe * chosen.2 > chosen.1 * replies {
                        complete = false;
                        break;
                    }
                }
            }
            self.path.pop();
            if self.aborted {
                break;
            }
            if complete && replies > 0 && safe * chosen.2 < chosen.1 * replies {
                chosen = (mv, safe, replies);
            }
        }
        chosen.0
    }

    /// The report of the root after a search to `depth`: the principal variation, or only
    /// `best` when given and the line does not start with it, and the counters.
    fn root_info(
        &self,
        depth: u32,
        score: Option<Score>,
        score_bound: bool,
        best: Option<G::Move>,
    ) -> Info {
        let mut pv = self.pv_moves();
        if let Some(mv) = best
            && pv.first() != Some(&mv)
        {
            pv = vec![mv];
        }
        // A proven line goes to the end of the game; another one no deeper than the search.
        let proven = matches!(score, Some(Score::Win(_) | Score::Draw | Score::Loss(_)));
        self.extend_from_table(&mut pv, if proven { MAX_PLY } else { depth as usize });
        Info {
            depth,
            // A line cut short by a table hit and completed from the table is as deep as it is.
            seldepth: self.seldepth.max(pv.len()) as u32,
            score,
            score_bound,
            nodes: self.nodes,
            time_ms: self.clock.elapsed_ms(),
            hashfull: Some(self.tt.hashfull()),
            playouts: None,
            pv: pv.iter().map(|&m| G::format_move(m)).collect(),
        }
    }

    /// Completes `line` (from the root) with the table's moves up to `max_len` moves: a table
    /// hit ends the searched line where the stored entry was enough. Only legal moves, and not
    /// past the end of the game or a position the line already met.
    fn extend_from_table(&self, line: &mut Vec<G::Move>, max_len: usize) {
        let mut pos = self.root;
        let mut seen = vec![pos.hash()];
        for &mv in line.iter() {
            pos.play(mv);
            seen.push(pos.hash());
        }
        while line.len() < max_len && pos.outcome().is_none() {
            let Some(hit) = self.tt.probe(pos.hash()).filter(|hit| hit.mv != 0) else {
                break;
            };
            let mv = G::decode_move(hit.mv);
            if !pos.is_legal(mv) {
                break;
            }
            pos.play(mv);
            if seen.contains(&pos.hash()) {
                break;
            }
            seen.push(pos.hash());
            line.push(mv);
        }
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
    let mut search = Search::new(game, tt, heur, clock);
    let mut best = fallback;
    let mut last = Info {
        pv: vec![G::format_move(fallback)],
        ..Info::default()
    };
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32 - 1)
        .clamp(1, MAX_PLY as u32 - 1);
    // Under a clock a forced move is played after depth 1; `movetime` is spent as asked.
    let single = root.count_moves() == 1 && clock.budget().is_some_and(|b| !b.use_all);
    for depth in 1..=max_depth {
        let started = clock.elapsed_ms();
        let (nodes_before, unproven_before, ends_before) =
            (search.nodes, search.unproven, search.ends);
        search.seldepth = 0;
        search.root_best = None;
        let v = search.negamax(&root, depth as i32, 0, -INFINITY, INFINITY);
        if search.aborted {
            // A partly searched iteration still improves on the last when its first move (the
            // previous best) was searched in full and some move beat it. Its line is reported,
            // so that the move played is the one shown, with the score as a lower bound: the
            // moves not yet searched may be better still.
            if let Some((mv, v)) = search.root_best
                && mv != best
            {
                best = mv;
                // A loss is no bound from below that the protocol can say.
                let score = (v > -value::WIN_MIN).then(|| value::to_score(v, false));
                last = search.root_info(depth, score, true, Some(mv));
                report(&last);
            }
            break;
        }
        let exact = search.unproven == unproven_before;
        if let Some(&first) = search.pv_moves().first() {
            best = first;
        }
        let score = Some(value::to_score(v, exact));
        last = search.root_info(depth, score, !exact && value::is_decisive(v), None);
        report(&last);
        let elapsed = last.time_ms;
        let last_iteration_ms = elapsed - started;
        // Proven: deeper iterations would only say it again (`infinite` then waits for `stop`).
        if exact {
            break;
        }
        if single && !limits.infinite {
            break;
        }
        // Try to solve once finished games are a good share of the leaves; never under a depth
        // limit, which asks for exactly that depth (and keeps `bench` a signature of the search).
        let ends = search.ends - ends_before;
        let heuristic_leaves = search.unproven - unproven_before;
        if G::SOLVES_ENDGAMES
            && !exact
            && limits.depth.is_none()
            && ends * SOLVE_END_SHARE >= heuristic_leaves
        {
            let cap = (search.nodes - nodes_before).max(SOLVE_MIN_NODES);
            if let Some((mv, info)) = search.solve_root(&root, cap, depth, report) {
                best = mv.unwrap_or(best);
                last = info;
                break;
            }
            if search.aborted {
                break;
            }
        }
        if let Some(budget) = clock.budget()
            && !time::worth_next_iteration(&budget, elapsed, last_iteration_ms)
        {
            break;
        }
    }
    // A draw or a loss proven exactly: play the move that keeps it and is hardest to answer.
    let goal = match (last.score, last.score_bound) {
        (Some(Score::Draw), false) => Some((0, 1)),
        (Some(Score::Loss(m)), false) => Some((value::terminal(-(m as i32)), 0)),
        _ => None,
    };
    if let Some((root_value, goal)) = goal
        && G::SOLVES_ENDGAMES
        && limits.depth.is_none()
        && !search.aborted
    {
        let chosen = search.swindle(&root, best, root_value, goal);
        if chosen != best {
            best = chosen;
            last.pv = vec![G::format_move(best)];
            last.nodes = search.nodes;
            last.time_ms = clock.elapsed_ms();
            report(&last);
        }
    }
    let reported_nodes = last.nodes;
    last.nodes = search.nodes;
    last.time_ms = clock.elapsed_ms();
    // Stopped before one root move was searched: still one line, for the move played. Stopped
    // inside an iteration: the last line again, with the nodes and time of the whole search.
    if last.depth == 0 || last.nodes != reported_nodes {
        report(&last);
    }
    Outcome { best, info: last }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::atomic::AtomicBool;

    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;
    use crate::search::{Limits, Score};
    use pion_rules::avalam::{self, Avalam};
    use pion_rules::game::{Game, Player};

    /// Exact final margin for the side to move, by memoised minimax (the slow reference).
    fn margin(pos: &Avalam, memo: &mut HashMap<u64, i32>) -> i32 {
        if let Some(outcome) = pos.outcome() {
            return outcome.margin_for(pos.side_to_move());
        }
        if let Some(&m) = memo.get(&pos.hash()) {
            return m;
        }
        let mut moves = <Avalam as Game>::Moves::default();
        pos.legal_moves(&mut moves);
        let best = moves
            .iter()
            .map(|&mv| {
                let mut child = *pos;
                child.play(mv);
                -margin(&child, memo)
            })
            .max()
            .expect("a move");
        memo.insert(pos.hash(), best);
        best
    }

    /// A 4x3 block of low towers: too big for the first iterations to prove, small enough
    /// for the reference.
    fn block(rng: &mut Xoshiro256PlusPlus, fill: u32) -> Avalam {
        let mut pos = Avalam::empty(avalam::Variant::Standard);
        for row in 3..6 {
            for col in 2..6 {
                if rng.random_range(0..10) < fill {
                    let top = if rng.random_bool(0.5) {
                        Player::One
                    } else {
                        Player::Two
                    };
                    pos.set_tower(avalam::cell(col, row), rng.random_range(1..3), top);
                }
            }
        }
        pos
    }

    /// Whether a reported score is true of a position whose exact margin is `m`.
    fn consistent(score: Score, bound: bool, m: i32) -> bool {
        match (score, bound) {
            (Score::Win(w), false) => m == w as i32,
            (Score::Win(w), true) => m >= w as i32,
            (Score::Loss(l), false) => m == -(l as i32),
            (Score::Loss(l), true) => m <= -(l as i32),
            (Score::Draw, false) => m == 0,
            _ => false,
        }
    }

    #[test]
    fn solving_proves_the_exact_margin_and_a_move_that_keeps_it() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut memo = HashMap::new();
        let (mut wins, mut losses, mut draws, mut bounds) = (0, 0, 0, 0);
        for _ in 0..30 {
            let pos = block(&mut rng, 8);
            if pos.outcome().is_some() {
                continue;
            }
            let truth = margin(&pos, &mut memo);
            let game = History::new(pos);
            let stop = AtomicBool::new(false);
            let clock = Clock::new(&Limits::default(), pos.side_to_move(), 0, 1, &stop);
            let (mut tt, mut heur) = (Table::new(4), Heuristics::new(Avalam::MOVE_SLOTS));
            let mut search = Search::new(&game, &mut tt, &mut heur, &clock);
            let mut reports = Vec::new();
            let (mv, last) = search
                .solve_root(&pos, u64::MAX / 2, 0, &mut |i| reports.push(i.clone()))
                .expect("no cap, no clock: solved");
            let at = pos.format_position();
            for info in &reports {
                let score = info.score.expect("every report has a score");
                assert!(
                    consistent(score, info.score_bound, truth),
                    "{score:?} {truth} {at}"
                );
                bounds += info.score_bound as u32;
            }
            assert!(!last.score_bound, "{at}");
            assert_eq!(last, *reports.last().unwrap());
            let mv = mv.expect("the exact margin comes with the move that reaches it");
            let mut child = pos;
            child.play(mv);
            assert_eq!(-margin(&child, &mut memo), truth, "{at}");
            match truth.signum() {
                1 => wins += 1,
                -1 => losses += 1,
                _ => draws += 1,
            }
        }
        assert!(
            wins > 2 && losses > 2 && draws > 2,
            "{wins} {losses} {draws}"
        );
        assert!(
            bounds > 3,
            "win/loss bounds come before the margin: {bounds}"
        );
    }

    #[test]
    fn at_a_drawn_root_the_swindle_keeps_the_draw_and_leaves_the_fewest_safe_replies() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
        let mut memo = HashMap::new();
        let (mut drawn, mut moved) = (0, 0);
        while drawn < 10 {
            let pos = block(&mut rng, 6);
            if pos.outcome().is_some() || margin(&pos, &mut memo) != 0 {
                continue;
            }
            let mut moves = <Avalam as Game>::Moves::default();
            pos.legal_moves(&mut moves);
            pos.prune_equivalent(&mut moves);
            // Each drawing move with its share of safe replies, by the reference.
            let mut shares = Vec::new();
            for &mv in moves.iter() {
                let mut child = pos;
                child.play(mv);
                if margin(&child, &mut memo) != 0 {
                    continue;
                }
                let mut answers = <Avalam as Game>::Moves::default();
                child.legal_moves(&mut answers);
                if answers.is_empty() {
                    // The move ends the game: nothing left for the opponent to get wrong.
                    continue;
                }
                let safe = answers
                    .iter()
                    .filter(|&&a| {
                        let mut next = child;
                        next.play(a);
                        margin(&next, &mut memo) <= 0
                    })
                    .count();
                shares.push((mv, safe as f64 / answers.len() as f64));
            }
            if shares.is_empty() {
                continue;
            }
            drawn += 1;
            let least = shares.iter().map(|s| s.1).fold(f64::INFINITY, f64::min);
            let default = shares[0].0;
            let game = History::new(pos);
            let stop = AtomicBool::new(false);
            let clock = Clock::new(&Limits::default(), pos.side_to_move(), 0, 1, &stop);
            let (mut tt, mut heur) = (Table::new(4), Heuristics::new(Avalam::MOVE_SLOTS));
            let mut search = Search::new(&game, &mut tt, &mut heur, &clock);
            let mv = search.swindle(&pos, default, 0, 1);
            let share = shares.iter().find(|s| s.0 == mv).map(|s| s.1);
            assert_eq!(share, Some(least), "{}", pos.format_position());
            moved += (mv != default) as u32;
        }
        assert!(moved > 1, "the swindle changed the move in {moved} of 10");
    }

    #[test]
    fn a_capped_attempt_gives_up_and_the_search_goes_on() {
        let pos = Avalam::start(avalam::Variant::Standard);
        let game = History::new(pos);
        let stop = AtomicBool::new(false);
        let clock = Clock::new(&Limits::default(), pos.side_to_move(), 0, 1, &stop);
        let (mut tt, mut heur) = (Table::new(4), Heuristics::new(Avalam::MOVE_SLOTS));
        let mut search = Search::new(&game, &mut tt, &mut heur, &clock);
        let mut reports = 0;
        assert!(
            search
                .solve_root(&pos, 50, 0, &mut |_| reports += 1)
                .is_none()
        );
        assert_eq!(reports, 0, "nothing was proven");
        assert!(!search.aborted, "the cap does not abort the search");
        let v = search.negamax(&pos, 2, 0, -INFINITY, INFINITY);
        assert!(!search.aborted && search.pv_len[0] > 0, "{v}");
    }
}
