//! The driver: iterative deepening from the root, solving attempts between iterations, and the
//! choice among moves that keep a proven result once the deepening is over.

use super::*;

/// What one search is asked: the game, its limits and running clock, and the move played if not
/// even one root move could be searched.
pub struct Request<'a, G: Evaluate> {
    /// The game, whose current position is searched (its history tells repetitions).
    pub game: &'a History<G>,
    /// The `go` limits.
    pub limits: &'a Limits,
    /// The clock of this search.
    pub clock: &'a Watch<'a>,
    /// The move played when nothing was searched.
    pub fallback: G::Move,
}

/// Whether iterative deepening goes on after an iteration.
enum Flow {
    Deeper,
    Stop,
}

/// The state of one search between iterations: the node searcher and what it has decided.
struct Driver<'a, G: Evaluate> {
    search: Search<'a, G>,
    limits: &'a Limits,
    clock: &'a Watch<'a>,
    root: G,
    /// The move to play so far.
    best: G::Move,
    /// The last report made (or the fallback's, before any).
    last: Info,
    /// The root value of the last iteration searched to the end, if any.
    previous: Option<i32>,
}

/// Runs iterative deepening on the current position of the request's game, with the persistent
/// table and move-ordering history, reporting progress through `report`.
pub fn search<'a, G: Evaluate>(
    request: &Request<'a, G>,
    tt: &'a mut Table,
    heur: &'a mut Heuristics,
    report: &mut dyn FnMut(&Info),
) -> Choice<G::Move> {
    tt.new_search();
    heur.age();
    let mut driver = Driver {
        search: Search::new(request.game, tt, heur, request.clock),
        limits: request.limits,
        clock: request.clock,
        root: *request.game.position(),
        best: request.fallback,
        last: Info {
            pv: vec![G::format_move(request.fallback)],
            ..Info::default()
        },
        previous: None,
    };
    driver.deepen(report);
    driver.keep_proven_result(report);
    driver.finish(report)
}

impl<G: Evaluate> Driver<'_, G> {
    /// Iterative deepening up to the depth limit, or until an iteration says to stop.
    fn deepen(&mut self, report: &mut dyn FnMut(&Info)) {
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        for depth in 1..=max_depth {
            if let Flow::Stop = self.iteration(depth, report) {
                break;
            }
        }
    }

    /// One iteration to `depth`, then whatever it makes worth doing before the next one.
    fn iteration(&mut self, depth: u32, report: &mut dyn FnMut(&Info)) -> Flow {
        let started = self.clock.elapsed_ms();
        let s = &mut self.search;
        let (nodes_before, unproven_before, ends_before) = (s.nodes, s.unproven, s.ends);
        let assumed_before = s.assumed;
        s.seldepth = 0;
        let v = self.root_value(depth);
        let s = &mut self.search;
        if s.aborted {
            self.adopt_partial_iteration(depth, report);
            return Flow::Stop;
        }
        let exact = s.unproven == unproven_before;
        if let Some(&first) = s.pv_moves().first() {
            self.best = first;
        }
        let score = Some(value::to_score(v, exact));
        self.last = s.root_info(depth, score, !exact && value::is_won_or_lost(v), None);
        report(&self.last);
        let elapsed = self.last.time_ms;
        // Proven: deeper iterations would only say it again (`infinite` then waits for `stop`).
        let assumed = self.search.assumed > assumed_before;
        if exact || (self.settled(v, assumed) && !self.limits.infinite) {
            return Flow::Stop;
        }
        let ends = self.search.ends - ends_before;
        let heuristic_leaves = self.search.unproven - unproven_before;
        if self.worth_solving(ends, heuristic_leaves) {
            let cap = (self.search.nodes - nodes_before).max(SOLVE_MIN_NODES);
            if let Some((mv, info)) = self.search.solve_root(&self.root, cap, depth, report) {
                self.best = mv.unwrap_or(self.best);
                self.last = info;
                return Flow::Stop;
            }
            if self.search.aborted {
                return Flow::Stop;
            }
        }
        match self.clock.budget() {
            Some(budget) if !time::worth_next_iteration(&budget, elapsed, elapsed - started) => {
                Flow::Stop
            }
            _ => Flow::Deeper,
        }
    }

    /// The root's value at `depth`. With aspiration windows (see
    /// [`crate::search::Profile::ASPIRATION`]), the first window is centred on the previous
    /// iteration's value; a value on its edge is only a bound, so the side that failed is
    /// widened (four times as far each time) and the root searched again, until the value
    /// falls inside.
    fn root_value(&mut self, depth: u32) -> i32 {
        let (mut alpha, mut beta, mut delta) = match (G::ASPIRATION, self.previous) {
            (Some(delta), Some(v)) if depth >= ASPIRATION_DEPTH && !value::is_won_or_lost(v) => {
                (v - delta, v + delta, delta)
            }
            _ => (-INFINITY, INFINITY, 0),
        };
        loop {
            let s = &mut self.search;
            s.root_best = None;
            let v = s.negamax(&self.root, depth as i32, 0, alpha, beta);
            if s.aborted {
                return v;
            }
            match widened(alpha, beta, v, delta) {
                Some(window) => (alpha, beta, delta) = window,
                None => {
                    self.previous = Some(v);
                    return v;
                }
            }
        }
    }

    /// A partly searched iteration still improves on the last when its first move (the previous
    /// best) was searched in full and some move beat it. Its line is reported, so that the move
    /// played is the one shown, with the score as a lower bound: the moves not yet searched may
    /// be better still.
    fn adopt_partial_iteration(&mut self, depth: u32, report: &mut dyn FnMut(&Info)) {
        if let Some((mv, v)) = self.search.root_best
            && mv != self.best
        {
            self.best = mv;
            // A loss is no bound from below that the protocol can say.
            let score = (v > -value::WIN).then(|| value::to_score(v, false));
            self.last = self.search.root_info(depth, score, true, Some(mv));
            report(&self.last);
        }
    }

    /// Whether, under a time limit, the move to play can no longer change the result, so that
    /// the time left is better kept (on a clock) or given back: a single legal move, or a proven
    /// win (`value`, a bound from below: a deeper search could only widen the margin), unless
    /// the iteration took leaves at their likeliest value (`assumed`): those a deeper search
    /// can still overturn. A proven loss is searched on: deeper lines may lose by less or set
    /// the opponent harder problems.
    fn settled(&self, value: i32, assumed: bool) -> bool {
        self.clock.budget().is_some()
            && (self.root.count_moves() == 1 || (value >= value::WIN_MIN && !assumed))
    }

    /// Whether to try to solve the root after an iteration that met `ends` finished games and
    /// `heuristic_leaves` heuristic ones: once finished games are a good share of the leaves;
    /// never under a depth limit, which asks for exactly that depth (and keeps `bench` a
    /// signature of the search).
    fn worth_solving(&self, ends: u64, heuristic_leaves: u64) -> bool {
        G::SOLVES_ENDGAMES
            && self.limits.depth.is_none()
            && ends * SOLVE_END_SHARE >= heuristic_leaves
    }

    /// A draw or a loss proven exactly: play the move that keeps it and is hardest to answer.
    fn keep_proven_result(&mut self, report: &mut dyn FnMut(&Info)) {
        let goal = match self.last.score {
            Some(EngineScore {
                value: Score::Draw,
                bound: None,
            }) => Some((0, 1)),
            Some(EngineScore {
                value: Score::Loss(m),
                bound: None,
            }) => Some((value::loss(m), 0)),
            _ => None,
        };
        if let Some((root_value, goal)) = goal
            && G::SOLVES_ENDGAMES
            && self.limits.depth.is_none()
            && !self.search.aborted
        {
            let chosen = self.search.swindle(&self.root, self.best, root_value, goal);
            if chosen != self.best {
                self.best = chosen;
                self.last.pv = vec![G::format_move(chosen)];
                self.last.nodes = self.search.nodes;
                self.last.time_ms = self.clock.elapsed_ms();
                report(&self.last);
            }
        }
    }

    /// The choice, with a last report when the last one does not cover the whole search:
    /// stopped before one root move was searched, still one line for the move played; stopped
    /// inside an iteration, the last line again with the nodes and time of the whole search.
    fn finish(mut self, report: &mut dyn FnMut(&Info)) -> Choice<G::Move> {
        let reported_nodes = self.last.nodes;
        self.last.nodes = self.search.nodes;
        self.last.time_ms = self.clock.elapsed_ms();
        if self.last.depth == 0 || self.last.nodes != reported_nodes {
            report(&self.last);
        }
        Choice {
            best: self.best,
            info: self.last,
        }
    }
}

/// The next root window after a search of `(alpha, beta)`, of half-width `delta`, returned `v`:
/// `None` when `v` is inside it (or the window was already open on the side `v` reached), else
/// the window widened on the side it failed, four times as far as before, and fully open once
/// that passes every heuristic value.
pub(super) fn widened(alpha: i32, beta: i32, v: i32, delta: i32) -> Option<(i32, i32, i32)> {
    let delta = delta * 4;
    let open = delta > value::HEURISTIC_MAX;
    if v <= alpha && alpha > -INFINITY {
        Some((if open { -INFINITY } else { v - delta }, beta, delta))
    } else if v >= beta && beta < INFINITY {
        Some((alpha, if open { INFINITY } else { v + delta }, delta))
    } else {
        None
    }
}
