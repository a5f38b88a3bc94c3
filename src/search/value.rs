//! The integer value scale of the searches: heuristic centi-points, and proven results.
//!
//! A heuristic value is in hundredths of a point of final score and stays well inside
//! `±HEURISTIC_MAX`. A proven result (a terminal node, or a line of them) is encoded as
//! `±(WIN + margin * MARGIN_UNIT - ply)`: every proven win beats every heuristic value, a larger
//! margin beats a smaller one, and at equal margin the shorter win is preferred (the longer loss).
//! A proven draw is 0, like an even heuristic; the search tells them apart by tracking whether a
//! value depended on a heuristic leaf (see `alphabeta`).

use super::Score;

/// Larger than any value: the initial window.
pub const INFINITY: i32 = 2_000_000;
/// The base of proven wins.
pub const WIN: i32 = 1_000_000;
/// One point of final margin in the proven band; larger than any ply count.
pub const MARGIN_UNIT: i32 = 1000;
/// The deepest ply a search may reach.
pub const MAX_PLY: usize = 128;
/// Heuristic values are clamped to this, far from the proven band.
pub const HEURISTIC_MAX: i32 = WIN / 2;
/// Every proven win is at least this.
pub const WIN_MIN: i32 = WIN + MARGIN_UNIT - MAX_PLY as i32;

/// The value of a finished game won by `margin` points for the side to move, `ply` plies away.
#[inline]
pub fn terminal(margin: i32, ply: usize) -> i32 {
    match margin.signum() {
        1 => WIN + margin * MARGIN_UNIT - ply as i32,
        -1 => -(WIN - margin * MARGIN_UNIT - ply as i32),
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
    let m = (value.abs() - WIN + MARGIN_UNIT - 1) / MARGIN_UNIT;
    m * value.signum()
}

/// The number of plies to the end in a decisive value.
pub fn plies_to_end(value: i32) -> u32 {
    let m = margin(value).abs();
    (WIN + m * MARGIN_UNIT - value.abs()).max(0) as u32
}

/// Converts a value relative to the root into one relative to the node at `ply` (for the TT).
#[inline]
pub fn to_table(value: i32, ply: usize) -> i32 {
    if is_decisive(value) {
        value + value.signum() * ply as i32
    } else {
        value
    }
}

/// The inverse of [`to_table`].
#[inline]
pub fn from_table(value: i32, ply: usize) -> i32 {
    if is_decisive(value) {
        value - value.signum() * ply as i32
    } else {
        value
    }
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
    fn proven_values_order_by_margin_then_length() {
        assert!(terminal(2, 30) > terminal(1, 2));
        assert!(terminal(1, 2) > terminal(1, 5));
        assert!(terminal(1, 100) > HEURISTIC_MAX);
        assert!(terminal(-1, 3) < -HEURISTIC_MAX);
        assert!(terminal(-1, 9) > terminal(-1, 3), "a longer loss is better");
        assert!(terminal(-1, 3) > terminal(-2, 3));
        assert_eq!(terminal(0, 7), 0);
    }

    #[test]
    fn margins_and_lengths_decode() {
        for m in [-48, -3, -1, 1, 2, 48] {
            for ply in [0, 1, 17, MAX_PLY - 1] {
                let v = terminal(m, ply);
                assert!(is_decisive(v));
                assert_eq!(margin(v), m);
                assert_eq!(plies_to_end(v), ply as u32);
                assert_eq!(from_table(to_table(v, 5), 5), v);
            }
        }
        assert_eq!(to_score(terminal(3, 4), false), Score::Win(3));
        assert_eq!(to_score(terminal(-2, 4), false), Score::Loss(2));
        assert_eq!(to_score(0, true), Score::Draw);
        assert_eq!(to_score(0, false), Score::Centi(0));
        assert_eq!(to_score(250, true), Score::Centi(250));
    }
}
