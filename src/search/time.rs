//! Time management: from `go` limits to a time budget, and the checks a running search makes.
//!
//! The budget is two numbers: `soft` (do not start an iteration that cannot end before it) and
//! `hard` (abort at once). Both are computed by pure functions so they can be tested without
//! timing anything.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::Limits;
use pion_rules::game::Player;

/// Moves still to play when `movestogo` is not given and the game has no better guess
/// ([`crate::search::Profile::moves_to_go`]).
pub const DEFAULT_MOVES_TO_GO: u64 = 25;
/// The least time a `movetime` search is given, in ms (a clock with no time beyond its reserve
/// gives none: depth 1 only).
pub const MIN_BUDGET_MS: u64 = 1;

/// How long a search may run, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration that is not expected to end before this.
    pub soft_ms: u64,
    /// Abort the search at this point.
    pub hard_ms: u64,
    /// The time was given for this move alone (`movetime`): whatever is not used is lost, so
    /// iterations go on until the hard limit, and a partly searched one still counts (unless
    /// the move can no longer change the result: a single legal move or a proven win).
    pub use_all: bool,
}

/// The budget for `limits` with `side` to move, or `None` when time does not limit the search.
/// `expected_moves` is the game's guess of the moves the side to move still has to play: the
/// clock is shared among those, or among `movestogo` moves when the game is expected to end
/// before the next time control.
pub fn budget(
    limits: &Limits,
    side: Player,
    overhead_ms: u64,
    expected_moves: u64,
) -> Option<Budget> {
    if limits.infinite {
        return None;
    }
    let from_movetime = limits.movetime.map(|ms| {
        let t = ms.saturating_sub(overhead_ms).max(MIN_BUDGET_MS);
        Budget {
            soft_ms: t,
            hard_ms: t,
            use_all: true,
        }
    });
    let from_clock = limits.clock.map(|clock| {
        let time = clock.time[side.index()];
        let inc = clock.inc[side.index()];
        let to_go = clock
            .movestogo
            .map_or(expected_moves, |m| (m.max(1) as u64).min(expected_moves));
        clock_budget(time, inc, to_go, overhead_ms)
    });
    match (from_movetime, from_clock) {
        (Some(a), Some(b)) => Some(Budget {
            soft_ms: a.soft_ms.min(b.soft_ms),
            hard_ms: a.hard_ms.min(b.hard_ms),
            use_all: false,
        }),
        (a, b) => a.or(b),
    }
}

/// The budget from a clock: an even share of the time left for the moves still to play, never
/// more than a fraction of what is left, so the clock cannot run out. `MoveOverhead` is lost on
/// every move (the time the answer takes to reach the clock), so it is kept in reserve for each
/// move still to play, as the increments still to come are counted in; when nothing is left
/// beyond that reserve the budget is zero: depth 1 and an answer at once.
pub fn clock_budget(time_ms: u64, inc_ms: u64, moves_to_go: u64, overhead_ms: u64) -> Budget {
    let moves_to_go = moves_to_go.max(1);
    let reserve = overhead_ms.saturating_mul(moves_to_go + 1);
    let usable = time_ms
        .saturating_add(inc_ms.saturating_mul(moves_to_go - 1))
        .saturating_sub(reserve);
    let share = usable / moves_to_go;
    let available = time_ms.saturating_sub(overhead_ms);
    // With one move to go most of the remainder may be used; otherwise keep half.
    let ceiling = if moves_to_go == 1 {
        available - available.div_ceil(10)
    } else {
        available / 2
    };
    let soft = share.min(ceiling);
    let hard = share.saturating_mul(3).min(ceiling).max(soft);
    Budget {
        soft_ms: soft,
        hard_ms: hard,
        use_all: false,
    }
}

/// Whether another iteration is worth starting: it is expected to take `growth` times the last
/// one, and must end before the soft limit.
pub fn worth_next_iteration(budget: &Budget, elapsed_ms: u64, last_iteration_ms: u64) -> bool {
    if budget.use_all {
        return elapsed_ms < budget.hard_ms;
    }
    let growth = 2;
    // A zero budget searches depth 1 only.
    budget.soft_ms > 0 && elapsed_ms + last_iteration_ms * growth <= budget.soft_ms
}

/// The running checks of one search: stop flag, node limit, hard time limit.
pub struct Watch<'a> {
    start: Instant,
    stop: &'a AtomicBool,
    budget: Option<Budget>,
    node_limit: Option<u64>,
}

impl<'a> Watch<'a> {
    /// Starts timing now; `expected_moves` as for [`budget`].
    pub fn new(
        limits: &Limits,
        side: Player,
        overhead_ms: u64,
        expected_moves: u64,
        stop: &'a AtomicBool,
    ) -> Self {
        Watch {
            start: Instant::now(),
            stop,
            budget: budget(limits, side, overhead_ms, expected_moves),
            node_limit: if limits.infinite { None } else { limits.nodes },
        }
    }

    /// Milliseconds since the search started.
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// The budget, if time limits the search.
    pub fn budget(&self) -> Option<Budget> {
        self.budget
    }

    /// Whether the stop flag is set.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether the search must end now, having searched `nodes`.
    pub fn must_stop(&self, nodes: u64) -> bool {
        self.stopped()
            || self.node_limit.is_some_and(|limit| nodes >= limit)
            || self.budget.is_some_and(|b| self.elapsed_ms() >= b.hard_ms)
    }

    /// Whether `nodes` reached the node limit (checked exactly, for deterministic counts).
    pub fn out_of_nodes(&self, nodes: u64) -> bool {
        self.node_limit.is_some_and(|limit| nodes >= limit)
    }

    /// Blocks until the stop flag is set (`go infinite` must not return on its own).
    pub fn wait_for_stop(&self) {
        while !self.stopped() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock as GoClock;

    #[test]
    fn movetime_is_exact_minus_overhead() {
        let limits = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        let b = budget(&limits, Player::One, 30, DEFAULT_MOVES_TO_GO).unwrap();
        assert_eq!((b.soft_ms, b.hard_ms), (970, 970));
        let tiny = Limits {
            movetime: Some(5),
            ..Limits::default()
        };
        assert_eq!(
            budget(&tiny, Player::One, 30, DEFAULT_MOVES_TO_GO)
                .unwrap()
                .hard_ms,
            MIN_BUDGET_MS
        );
    }

    #[test]
    fn no_time_limit_means_no_budget() {
        assert_eq!(
            budget(&Limits::default(), Player::One, 10, DEFAULT_MOVES_TO_GO),
            None
        );
        let infinite = Limits {
            movetime: Some(100),
            infinite: true,
            ..Limits::default()
        };
        assert_eq!(
            budget(&infinite, Player::Two, 10, DEFAULT_MOVES_TO_GO),
            None
        );
    }

    #[test]
    fn clock_budget_uses_the_mover_clock_and_increment() {
        let limits = Limits {
            clock: Some(GoClock {
                time: [60_000, 1_000],
                inc: [0, 500],
                movestogo: None,
            }),
            ..Limits::default()
        };
        let one = budget(&limits, Player::One, 0, DEFAULT_MOVES_TO_GO).unwrap();
        assert_eq!(one.soft_ms, 60_000 / DEFAULT_MOVES_TO_GO);
        assert_eq!(one.hard_ms, 3 * 60_000 / DEFAULT_MOVES_TO_GO);
        let two = budget(&limits, Player::Two, 0, DEFAULT_MOVES_TO_GO).unwrap();
        // (1000 + 24 x 500) / 25 = 520, capped at half the remaining time.
        assert_eq!(two.soft_ms, 500);
        assert_eq!(two.hard_ms, 500);
    }

    #[test]
    fn clock_budget_never_spends_the_whole_clock() {
        for time in [0, 1, 10, 50, 100, 1000, 10_000] {
            for inc in [0, 10, 1000] {
                for to_go in [1, 2, 10, 40] {
                    let b = clock_budget(time, inc, to_go, 10);
                    assert!(b.soft_ms <= b.hard_ms);
                    let available = time.saturating_sub(10);
                    assert!(
                        b.hard_ms <= available * 9 / 10,
                        "time {time} inc {inc} to_go {to_go}: {b:?}"
                    );
                }
            }
        }
        // movestogo 1 may use most of the remainder; movestogo 10 a tenth of what is left
        // beyond the reserve of 11 x 10 ms.
        assert_eq!(clock_budget(10_010, 0, 1, 10).hard_ms, 9_000);
        assert_eq!(clock_budget(10_010, 0, 10, 10).soft_ms, 990);
    }

    #[test]
    fn the_overhead_is_kept_for_every_move_still_to_play() {
        // 1000 ms for the game, MoveOverhead 10, and every answer 2 ms late: 125 moves (an
        // Awale game runs to 250 plies) spending the whole hard budget each never run out.
        // (Before the reserve counted every move, the clock ran out after 39.)
        let mut time: i64 = 1000;
        for _ in 0..125 {
            let b = clock_budget(time as u64, 0, DEFAULT_MOVES_TO_GO, 10);
            time -= b.hard_ms as i64 + 2;
            assert!(time > 0, "the clock ran out");
        }
        // Below the reserve the budget is zero: depth 1, an answer at once.
        let b = clock_budget(200, 0, DEFAULT_MOVES_TO_GO, 10);
        assert_eq!((b.soft_ms, b.hard_ms), (0, 0));
        assert!(!worth_next_iteration(&b, 0, 0));
    }

    #[test]
    fn the_clock_is_shared_among_the_moves_the_game_is_expected_to_last() {
        let clock = |movestogo| Limits {
            clock: Some(GoClock {
                time: [60_000, 60_000],
                inc: [0, 0],
                movestogo,
            }),
            ..Limits::default()
        };
        let soft =
            |limits: &Limits, expected| budget(limits, Player::One, 0, expected).unwrap().soft_ms;
        assert_eq!(soft(&clock(None), 17), 60_000 / 17);
        // A time control further away than the game's end: the game's guess.
        assert_eq!(soft(&clock(Some(40)), 17), 60_000 / 17);
        // A nearer one: movestogo.
        assert_eq!(soft(&clock(Some(10)), 17), 60_000 / 10);
    }

    #[test]
    fn movetime_and_clock_take_the_tighter() {
        let limits = Limits {
            movetime: Some(100),
            clock: Some(GoClock {
                time: [100_000, 100_000],
                inc: [0, 0],
                movestogo: None,
            }),
            ..Limits::default()
        };
        assert_eq!(
            budget(&limits, Player::One, 0, DEFAULT_MOVES_TO_GO)
                .unwrap()
                .hard_ms,
            100
        );
    }

    #[test]
    fn next_iteration_only_when_it_can_finish() {
        let b = Budget {
            soft_ms: 100,
            hard_ms: 300,
            use_all: false,
        };
        assert!(worth_next_iteration(&b, 10, 5));
        assert!(!worth_next_iteration(&b, 60, 30));
        assert!(worth_next_iteration(&b, 60, 20));
    }

    #[test]
    fn a_fixed_move_time_is_used_to_the_end() {
        let limits = Limits {
            movetime: Some(100),
            ..Limits::default()
        };
        let b = budget(&limits, Player::One, 10, DEFAULT_MOVES_TO_GO).unwrap();
        assert!(b.use_all);
        assert!(
            worth_next_iteration(&b, 60, 50),
            "the time left is lost otherwise"
        );
        assert!(!worth_next_iteration(&b, 90, 1));
        let with_clock = Limits {
            clock: Some(GoClock {
                time: [10_000, 10_000],
                inc: [0, 0],
                movestogo: None,
            }),
            ..limits
        };
        assert!(
            !budget(&with_clock, Player::One, 10, DEFAULT_MOVES_TO_GO)
                .unwrap()
                .use_all
        );
    }
}
