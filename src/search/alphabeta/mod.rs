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

use super::time::{self, Watch};
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

mod node;
mod ordering;
mod pv;
mod solve;
#[cfg(test)]
mod tests;

pub use ordering::Heuristics;

/// The outcome of one alpha-beta search.
pub struct Choice<M> {
    /// The move to play.
    pub best: M,
    /// The last report made.
    pub info: Info,
}

struct Search<'a, G: Evaluate> {
    tt: &'a mut Table,
    heur: &'a mut Heuristics,
    clock: &'a Watch<'a>,
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
    /// The endgame database hits counted before this search.
    tb_start: u64,
}

impl<'a, G: Evaluate> Search<'a, G> {
    fn new(
        game: &History<G>,
        tt: &'a mut Table,
        heur: &'a mut Heuristics,
        clock: &'a Watch<'a>,
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
            tb_start: crate::egtb::hits(),
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
}

/// Runs iterative deepening on the current position of `game`. `fallback` is played if not even
/// one root move could be searched.
#[allow(clippy::too_many_arguments)]
pub fn search<G: Evaluate>(
    game: &History<G>,
    limits: &Limits,
    tt: &mut Table,
    heur: &mut Heuristics,
    clock: &Watch<'_>,
    fallback: G::Move,
    report: &mut dyn FnMut(&Info),
) -> Choice<G::Move> {
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
    Choice { best, info: last }
}
