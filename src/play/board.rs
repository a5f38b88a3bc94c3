//! Drawing a position for a person: from the position string the engine gives (protocol.md's
//! notation), with the last move marked, in colour on a terminal and plain text in a pipe.

/// How to draw: with ANSI colours or without.
#[derive(Clone, Copy)]
pub struct Style {
    /// Whether to use ANSI colour escapes.
    pub colour: bool,
}

impl Style {
    fn paint(self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

/// A cell of the drawing, four characters wide: its text in brackets when the last move touched
/// it.
fn cell(style: Style, code: &str, text: &str, marked: bool) -> String {
    let text = style.paint(code, text);
    if marked {
        format!("[{text}]")
    } else {
        format!(" {text} ")
    }
}

/// Avalam's cells, by row (0 is row 1) then column: those of the start position, its empty
/// centre e5, and any cell holding a tower in `start` (a position set up by hand). Off-board
/// cells are drawn blank, emptied cells of the board as holes.
pub fn avalam_shape(start: Option<&str>) -> [[bool; 9]; 9] {
    let mut shape = [[false; 9]; 9];
    shape[4][4] = true;
    for board in [Some(pion_rules::avalam::START), start]
        .into_iter()
        .flatten()
    {
        let rows = board.split_whitespace().next().unwrap_or("").split('/');
        for (i, row) in rows.take(9).enumerate() {
            let cells = row.chars().filter(|c| !c.is_ascii_digit());
            for (c, ch) in cells.take(9).enumerate() {
                if ch != '.' {
                    shape[8 - i][c] = true;
                }
            }
        }
    }
    shape
}

/// Draws an Avalam position `<board> <side>`; `last` is the last move (`e4e5`) to mark.
pub fn avalam(
    position: &str,
    last: Option<&str>,
    shape: &[[bool; 9]; 9],
    style: Style,
) -> Option<String> {
    let board = position.split_whitespace().next()?;
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 9 {
        return None;
    }
    let marked: Vec<&str> = match last {
        Some(m) if m.len() == 4 => vec![&m[..2], &m[2..]],
        _ => Vec::new(),
    };
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        let number = 9 - i;
        out.push_str(&format!("{number} "));
        let mut chars = row.chars().peekable();
        for (c, column) in "abcdefghi".chars().enumerate() {
            let name = format!("{column}{number}");
            let top = chars.next()?;
            let height = match chars.peek() {
                Some(d) if d.is_ascii_digit() => chars.next()?,
                _ => '1',
            };
            let (code, text) = match top {
                'y' => ("1;33", format!("y{height}")),
                'r' => ("1;31", format!("r{height}")),
                _ if shape[number - 1][c] => ("2", " .".to_string()),
                _ => ("2", "  ".to_string()),
            };
            out.push_str(&cell(style, code, &text, marked.contains(&name.as_str())));
        }
        out.push('\n');
    }
    out.push_str("    a   b   c   d   e   f   g   h   i\n");
    Some(out)
}

/// The seeds each player has captured, from an Awale position string; None if it is not one.
pub fn awale_captures(position: &str) -> Option<[u32; 2]> {
    let board = position.split_whitespace().next()?;
    let stores = board.split('/').nth(2)?;
    let (a, b) = stores.split_once(',')?;
    Some([a.parse().ok()?, b.parse().ok()?])
}

/// Draws an Awale position `A..F/a..f/c1,c2 <side>`; `last` is the pit last sown, to mark.
pub fn awale(position: &str, last: Option<&str>, style: Style) -> Option<String> {
    let board = position.split_whitespace().next()?;
    let parts: Vec<Vec<&str>> = board.split('/').map(|p| p.split(',').collect()).collect();
    let [ones, twos, captured] = &parts[..] else {
        return None;
    };
    if ones.len() != 6 || twos.len() != 6 || captured.len() != 2 {
        return None;
    }
    let pit = |letter: char, seeds: &str| {
        let code = if letter.is_ascii_uppercase() {
            "1;33"
        } else {
            "1;31"
        };
        let marked = last == Some(letter.to_string().as_str());
        cell(style, code, &format!("{seeds:>2}"), marked)
    };
    let mut out = String::from("     f   e   d   c   b   a\n");
    out.push_str("2 |");
    for (letter, seeds) in "fedcba".chars().zip(twos.iter().rev()) {
        out.push_str(&pit(letter, seeds));
    }
    out.push_str(&format!("| captured {}\n1 |", captured[1]));
    for (letter, seeds) in "ABCDEF".chars().zip(ones.iter()) {
        out.push_str(&pit(letter, seeds));
    }
    out.push_str(&format!("| captured {}\n", captured[0]));
    out.push_str("     A   B   C   D   E   F\n");
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: Style = Style { colour: false };

    #[test]
    fn an_avalam_board_marks_both_cells_of_the_last_move() {
        let start = "..yr...../.yryr..../.ryryry../.yryryryr/..y2r.ryry/ryryryry./..yryryr./....ryry./.....ry.. 1";
        let drawn = avalam(start, Some("a5b5"), &avalam_shape(None), PLAIN).unwrap();
        let row5 = drawn.lines().nth(4).unwrap();
        assert_eq!(row5, "5 [ .][ .] y2  r1   .  r1  y1  r1  y1 ");
        // Off the board is blank; a cell of the board emptied in play is a hole.
        let row9 = drawn.lines().next().unwrap();
        assert_eq!(row9, "9          y1  r1                     ");
        assert!(drawn.ends_with("    a   b   c   d   e   f   g   h   i\n"));
        assert_eq!(drawn.lines().count(), 10);
        assert!(!drawn.contains('\x1b'));
        assert!(avalam("../.. 1", None, &avalam_shape(None), PLAIN).is_none());
        // A tower set up off the usual board makes its cell part of this game's board.
        let shape = avalam_shape(Some(
            "........./........./........./........./........./........./........./........./yr....... 1",
        ));
        assert!(shape[0][0] && shape[0][1] && !shape[0][2] && shape[0][5]);
    }

    #[test]
    fn an_awale_board_marks_the_pit_sown() {
        let drawn = awale("4,4,0,5,5,5/5,4,4,4,4,4/0,0 2", Some("C"), PLAIN).unwrap();
        let lines: Vec<&str> = drawn.lines().collect();
        assert_eq!(lines[1], "2 |  4   4   4   4   4   5 | captured 0");
        assert_eq!(lines[2], "1 |  4   4 [ 0]  5   5   5 | captured 0");
        let coloured = awale(
            "4,4,0,5,5,5/5,4,4,4,4,4/0,0 2",
            None,
            Style { colour: true },
        );
        assert!(coloured.unwrap().contains("\x1b[1;33m 4\x1b[0m"));
        assert!(awale("1,2/3 1", None, PLAIN).is_none());
        assert_eq!(
            awale_captures("4,4,0,5,5,5/5,4,4,4,4,4/3,2 2"),
            Some([3, 2])
        );
        assert_eq!(awale_captures("..yr 1"), None);
    }
}
