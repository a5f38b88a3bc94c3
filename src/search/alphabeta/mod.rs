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
use super::{EngineScore, Evaluate, Frontier, Horizon, Info, Limits, Score};
use pion_rules::game::{Game, History};

/// The shallowest remaining depth at which children are probed before searching (ETC).
const ETC_DEPTH: i32 = 3;

/// The first iteration whose root window is narrowed around the last value (aspiration).
const ASPIRATION_DEPTH: u32 = 5;

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

mod driver;
mod node;
mod ordering;
mod pv;
mod quiesce;
mod solve;
#[cfg(test)]
mod tests;

pub use driver::{Request, search};
pub use ordering::Heuristics;

/// The outcome of one alpha-beta search.
pub struct Choice<M> {
    /// The move to play.
    pub best: M,
    /// The last report made.
    pub info: Info,
}

/// A position on the path from the game's start through the search.
struct Step {
    hash: u64,
    /// The irreversible count: only positions of equal count can repeat.
    mark: u32,
    /// Where a repetition ends the game, a fingerprint of the earlier positions of equal count
    /// (the XOR of their hashes; 0 when there are none, and in games without the rule): the
    /// positions a line from here may repeat, on which the value of this one depends.
    context: u64,
}

struct Search<'a, G: Evaluate> {
    tt: &'a mut Table,
    heur: &'a mut Heuristics,
    clock: &'a Watch<'a>,
    nodes: u64,
    seldepth: usize,
    /// Heuristic leaves and unproven cut-offs seen so far (see the module comment).
    unproven: u64,
    /// Repetitions met so far. A subtree that met one repeating a position above it has a
    /// value for its context only (see [`Step::context`]).
    repetitions: u64,
    /// Leaves that were finished games (or positions settled exactly without search).
    ends: u64,
    /// Leaves taken at their likeliest value as if proven ([`Horizon::Bounded`]): heuristic
    /// leaves too, counted apart so that a win resting on them does not end a timed search.
    assumed: u64,
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
    /// One reusable list of noisy moves per ply, for quiescence.
    noisy_scratch: Vec<Vec<(i32, G::Move)>>,
    aborted: bool,
    /// The game's positions, then the search path's.
    path: Vec<Step>,
    /// Triangular principal-variation table.
    pv: Vec<[u16; MAX_PLY]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Best root move of the iteration in progress, once one root move is fully searched.
    root_best: Option<(G::Move, i32)>,
    /// The position searched.
    root: G,
    /// Whether the root has proven bounds (see [`crate::search::Profile::BOUNDS_AS_LEAVES`]).
    root_bounded: bool,
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
        let mut search = Search {
            tt,
            heur,
            clock,
            nodes: 0,
            seldepth: 0,
            unproven: 0,
            repetitions: 0,
            ends: 0,
            assumed: 0,
            solving: false,
            node_cap: None,
            capped: false,
            scores: vec![Vec::new(); MAX_PLY + 1],
            child_keys: Vec::new(),
            sort_scratch: Vec::new(),
            noisy_scratch: vec![Vec::new(); MAX_PLY + 1],
            aborted: false,
            path: Vec::new(),
            pv: vec![[0; MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_best: None,
            root: *game.position(),
            root_bounded: G::BOUNDS_AS_LEAVES && {
                let mut moves = G::Moves::default();
                game.position().legal_moves(&mut moves);
                !moves.as_ref().is_empty() && game.position().settle(&mut moves).is_some()
            },
            tb_start: crate::egtb::hits(),
        };
        for pos in game.positions() {
            search.enter(pos);
        }
        search
    }

    /// Puts `pos` on the path (a move was played to reach it).
    fn enter(&mut self, pos: &G) {
        let (hash, mark) = (pos.hash(), pos.irreversible_count());
        let context = match self.path.last() {
            Some(last) if G::REPETITION_ENDS_GAME && last.mark == mark => last.context ^ last.hash,
            _ => 0,
        };
        self.path.push(Step {
            hash,
            mark,
            context,
        });
    }

    /// Takes the last position off the path.
    fn leave(&mut self) {
        self.path.pop();
    }

    /// The context of the position last on the path (see [`Step::context`]).
    fn context(&self) -> u64 {
        self.path.last().map_or(0, |step| step.context)
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
        // The last entry is the position itself.
        occurs(&self.path[..self.path.len() - 1], pos)
    }

    /// The value of a leaf with proven bounds and a likeliest margin between them: that margin,
    /// scored like a proven result (so that it ranks with the settled leaves around it), but a
    /// heuristic leaf for the proofs.
    fn bounded_leaf(&mut self, low: i32, high: i32, likely: i32) -> i32 {
        self.unproven += 1;
        self.assumed += 1;
        value::terminal(likely.clamp(low, high))
    }

    /// Whether `child`, one move after the last position of the path, repeats a position of
    /// the path (the game's history included), which ends the game.
    fn repeats(&self, child: &G) -> bool {
        G::REPETITION_ENDS_GAME && occurs(&self.path, child)
    }
}

/// Whether `pos` is one of the `steps` since the last irreversible move.
fn occurs<G: Game>(steps: &[Step], pos: &G) -> bool {
    let (hash, mark) = (pos.hash(), pos.irreversible_count());
    steps
        .iter()
        .rev()
        .take_while(|step| step.mark == mark)
        .any(|step| step.hash == hash)
}
