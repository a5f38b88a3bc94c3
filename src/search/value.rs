//! The integer value scale of the searches: heuristic centi-points, and proven results.
//!
//! A heuristic value is in hundredths of a point of final score and stays well inside
//! `±HEURISTIC_MAX`. A proven result (a terminal node, or a line of them) is encoded as
//! `WIN + margin * MARGIN_UNIT` (negated for losses): every proven win beats every heuristic
//! value and a larger margin beats a smaller one. The length of the line is deliberately not part
//! of the value: proving "the margin is m" needs far fewer nodes than proving "the margin is m in
//! exactly n plies" (every equal-margin alternative would have to be told apart by length), and
//! both games are finite, so playing any move that keeps the proven value reaches it. Values do
//! not depend on the ply, so the transposition table stores them as they are.
//! A proven draw is 0, like an even heuristic; the search tells them apart by tracking whether a
//! value depended on a heuristic leaf (see `alphabeta`).

use super::Score;

/// Larger than any value: the initial window.
pub const INFINITY: i32 = 2_000_000;
/// The base of proven wins.
pub const WIN: i32 = 1_000_000;
/// One point of final margin in the proven band.
pub const MARGIN_UNIT: i32 = 1000;
/// The deepest ply a search may reach.
pub const MAX_PLY: usize = 128;
/// Heuristic values are clamped to this, far from the proven band.
pub const HEURISTIC_MAX: i32 = WIN / 2;
/// Every proven win is at least this.
pub const WIN_MIN: i32 = WIN + MARGIN_UNIT;

/// The value of a finished game won by `margin` points for the side to move (however far away).
#[inline]
pub fn terminal(margin: i32) -> i32 {
    match margin.signum() {
        1 => WIN + margin * MARGIN_UNIT,
        -1 => -(WIN - margin * MARGIN_UNIT),
        _ => 0,
    }
}

/// Clamps a heuristic value into its band.
#[inline]
pub fn heuristic(value: i32) -> i32 {
    value.clamp(-HEURISTIC_MAX, HEURISTIC_MAX)
}

/// Whether a value is a proven win or loss (a forced line to a decided end).
#[inline]
pub fn is_decisive(value: i32) -> bool {
    value.abs() >= WIN_MIN
}

/// The margin of a decisive value (positive for a win), or 0.
pub fn margin(value: i32) -> i32 {
    if !is_decisive(value) {
        return 0;
    }
    (value.abs() - WIN) / MARGIN_UNIT * value.signum()
}

/// The protocol score of a root value; `exact` when no heuristic leaf shaped it.
pub fn to_score(value: i32, exact: bool) -> Score {
    if is_decisive(value) {
        let m = margin(value);
        if m > 0 {
            Score::Win(m as u32)
        } else {
            Score::Loss((-m) as u32)
        }
    } else if exact && value == 0 {
        Score::Draw
    } else {
        Score::Centi(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proven_values_order_by_margin() {
        assert!(terminal(2) > terminal(1));
        assert!(terminal(1) > HEURISTIC_MAX);
        assert!(terminal(-1) < -HEURISTIC_MAX);
        assert!(terminal(-1) > terminal(-2));
        assert_eq!(terminal(0), 0);
    }

    #[test]
    fn margins_decode() {
        for m in [-48, -3, -1, 1, 2, 48] {
            let v = terminal(m);
            assert!(is_decisive(v));
            assert_eq!(margin(v), m);
        }
        assert!(!is_decisive(HEURISTIC_MAX));
        assert_eq!(margin(HEURISTIC_MAX), 0);
        assert_eq!(to_score(terminal(3), false), Score::Win(3));
        assert_eq!(to_score(terminal(-2), false), Score::Loss(2));
        assert_eq!(to_score(0, true), Score::Draw);
        assert_eq!(to_score(0, false), Score::Centi(0));
        assert_eq!(to_score(250, true), Score::Centi(250));
    }
}
