//! The Oware notation of Aualé and Aalina, as text: a position is one token of fourteen seed
//! counts and the side to move joined by `-` (the pits `A`..`F` of South, `a`..`f` of North,
//! South's store, North's store, then `S` or `N`), and a list of moves is pit letters run
//! together (`CbEc`).
//!
//! South is pion's player 1 (it moves first, owns `A`..`F`), North player 2. These functions
//! translate between that notation and pion's position string as text only: the seed counts
//! are checked by the rules when the position is set.
//!
//! Read from Aualé `src/auale/game/oware.py` (`to_board_notation`, `to_position`,
//! `to_moves_notation`) and Aalina `OwareBoard.java` (`toDiagram`, `toBoard`, `toMoves`).

use crate::parse::ParseError;
use pion_rules::game::shorten;

/// The start position in the dash notation.
pub const START: &str = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";

/// pion's board and side tokens of a dash position (`4-4-...-0-0-S`), or why it is not one.
pub fn dash_to_pion(text: &str) -> Result<(String, String), ParseError> {
    let bad = |why: &str| {
        ParseError(format!(
            "bad Oware position '{}': {why} (expected 14 seed counts and S or N joined by '-', \
             like {START})",
            shorten(text)
        ))
    };
    let fields: Vec<&str> = text.split('-').collect();
    if fields.len() != 15 {
        return Err(bad(&format!("{} fields, expected 15", fields.len())));
    }
    let counts = &fields[..14];
    if let Some(field) = counts
        .iter()
        .find(|f| f.is_empty() || f.len() > 2 || !f.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(bad(&format!("'{}' is not a seed count", shorten(field))));
    }
    let side = match fields[14] {
        "S" => "1",
        "N" => "2",
        other => return Err(bad(&format!("'{}' is not S or N", shorten(other)))),
    };
    let number = |f: &&str| {
        f.trim_start_matches('0')
            .parse::<u32>()
            .unwrap_or(0)
            .to_string()
    };
    let row = |r: &[&str]| r.iter().map(number).collect::<Vec<_>>().join(",");
    let board = format!(
        "{}/{}/{}",
        row(&counts[..6]),
        row(&counts[6..12]),
        row(&counts[12..])
    );
    Ok((board, side.to_string()))
}

/// The dash notation of pion's board and side tokens; `None` when they are not an Awale
/// position string (six, six and two counts, side 1 or 2).
pub fn pion_to_dash(board: &str, side: &str) -> Option<String> {
    let parts: Vec<Vec<&str>> = board.split('/').map(|p| p.split(',').collect()).collect();
    let shape_ok = parts.len() == 3
        && parts[0].len() == 6
        && parts[1].len() == 6
        && parts[2].len() == 2
        && parts
            .iter()
            .flatten()
            .all(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()));
    let side = match side {
        "1" => "S",
        "2" => "N",
        _ => return None,
    };
    shape_ok.then(|| {
        let mut fields: Vec<&str> = parts.into_iter().flatten().collect();
        fields.push(side);
        fields.join("-")
    })
}

/// The moves of a `moves` list: every token split into its letters, so that Aualé's `CbEc`
/// and the spaced `C b E c` read the same.
pub fn split_moves<'a>(tokens: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    tokens
        .into_iter()
        .flat_map(|t| t.chars().map(|c| c.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dash_positions_read_and_print_as_pion_strings() {
        assert_eq!(
            dash_to_pion(START).unwrap(),
            ("4,4,4,4,4,4/4,4,4,4,4,4/0,0".to_string(), "1".to_string())
        );
        let (board, side) = dash_to_pion("0-0-1-0-0-12-3-0-0-0-0-0-20-12-N").unwrap();
        assert_eq!(
            (board.as_str(), side.as_str()),
            ("0,0,1,0,0,12/3,0,0,0,0,0/20,12", "2")
        );
        assert_eq!(
            pion_to_dash(&board, &side).as_deref(),
            Some("0-0-1-0-0-12-3-0-0-0-0-0-20-12-N")
        );
        assert_eq!(pion_to_dash("..yr/9 x", "1"), None);
        assert_eq!(pion_to_dash("4,4,4,4,4,4/4,4,4,4,4,4/0,0", "3"), None);
    }

    #[test]
    fn bad_dash_positions_say_what_is_wrong() {
        for (text, why) in [
            ("4-4-4", "3 fields, expected 15"),
            ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-W", "'W' is not S or N"),
            ("4-4-4-4-4-4-4-4-4-4-4-x-0-0-S", "'x' is not a seed count"),
            ("4-4-4-4-4-4-4-4-4-4-4--0-0-S", "'' is not a seed count"),
            (
                "4-4-4-4-4-4-4-4-4-4-4-444-0-0-S",
                "'444' is not a seed count",
            ),
        ] {
            let error = dash_to_pion(text).unwrap_err().0;
            assert!(error.contains(why), "{text}: {error}");
        }
    }

    #[test]
    fn moves_run_together_or_spaced_split_into_letters() {
        assert_eq!(split_moves(["CbEc"]), ["C", "b", "E", "c"]);
        assert_eq!(split_moves(["C", "b", "Ec"]), ["C", "b", "E", "c"]);
        assert!(split_moves([]).is_empty());
    }
}
