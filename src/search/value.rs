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
//! Under a variant with a tie-break (Avalam's `tiebreak5`), a game level on points but decided by
//! the tie-break is a win by 0 points: exactly `WIN` (negated for a loss), above every heuristic
//! value and below every win on points, one `MARGIN_UNIT` under a win by 1 as the solver's
//! margin steps expect. Other variants never make that value, so their search is unchanged.

use pion_rules::game::Game;

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

/// The value of a finished game for the side to move: its point margin, and under a tie-break
/// rule, level points decided by the tie-break (a win or loss by 0 points, `±WIN`).
#[inline]
pub fn game_over<G: Game>(pos: &G) -> i32 {
    proven(pos, pos.margin())
}

/// The value of the proven final `margin` of `pos`: [`terminal`], except that a finished game
/// level on points goes to the tie-break when its variant has one.
#[inline]
pub fn proven<G: Game>(pos: &G, margin: i32) -> i32 {
    if margin == 0
        && let Some(tiebreak) = pos.tiebreak()
        && pos.outcome().is_some()
    {
        let me = pos.side_to_move().index();
        return WIN * (tiebreak[me] as i32 - tiebreak[1 - me] as i32).signum();
    }
    terminal(margin)
}

/// The value of a proven loss by `margin` points (0: lost on the tie-break).
pub fn loss(margin: u32) -> i32 {
    if margin == 0 {
        -WIN
    } else {
        terminal(-(margin as i32))
    }
}

/// Whether a value is a proven win or loss, on points or on the tie-break.
#[inline]
pub fn is_won_or_lost(value: i32) -> bool {
    value.abs() >= WIN
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
    if value.abs() == WIN {
        // Won or lost on the tie-break, level on points.
        if value > 0 {
            Score::Win(0)
        } else {
            Score::Loss(0)
        }
    } else if is_decisive(value) {
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

    #[test]
    fn tiebreak_results_sit_between_heuristics_and_wins_on_points() {
        assert!(WIN > HEURISTIC_MAX && WIN < terminal(1));
        assert_eq!(
            WIN + MARGIN_UNIT,
            terminal(1),
            "the solver's next margin step"
        );
        assert!(!is_decisive(WIN) && is_won_or_lost(WIN) && is_won_or_lost(-WIN));
        assert!(!is_won_or_lost(HEURISTIC_MAX));
        assert_eq!(to_score(WIN, false), Score::Win(0));
        assert_eq!(to_score(-WIN, true), Score::Loss(0));
        assert_eq!(loss(0), -WIN);
        assert_eq!(loss(3), terminal(-3));
    }

    #[test]
    fn finished_games_are_valued_by_points_then_tiebreak() {
        use pion_rules::avalam::{Avalam, Variant};
        // a1 y4, b1 r, e1 r: yellow stacks a1 on b1 (a tower of 5), then nothing moves: 1-1.
        let board = "........./........./........./........./........./........./........./........./y4r..r.... 1";
        let (board, side) = board.split_once(' ').unwrap();
        for (variant, expected) in [(Variant::Standard, 0), (Variant::TieBreak5, -WIN)] {
            let mut pos = Avalam::parse_position(board, side, variant).unwrap();
            pos.play(Avalam::parse_move("a1b1").unwrap());
            // Red is to move, and has lost on the tie-break only.
            assert_eq!(game_over(&pos), expected, "{variant:?}");
        }
        let own = Avalam::parse_position(board, side, Variant::OwnColour).unwrap();
        assert_eq!(proven(&own, 2), terminal(2));
    }
}
