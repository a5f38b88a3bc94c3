//! Avalam notation: cells `a1`..`i9`, moves `e4e5`, positions as nine `/`-separated rows.

use super::{Avalam, BOARD, MAX_HEIGHT, Move, STRIDE, Variant, cell};
use crate::game::{Game, NotationError, Player, shorten};

const COLUMNS: &[u8; 9] = b"abcdefghi";

/// The name of a cell, such as `e4`.
pub fn cell_name(sq: u32) -> String {
    let (col, row) = (sq % STRIDE, sq / STRIDE);
    format!("{}{}", COLUMNS[col as usize] as char, row + 1)
}

/// Parses a cell name, such as `e4`.
pub fn parse_cell(text: &str) -> Result<u32, NotationError> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 {
        return Err(NotationError::new(format!(
            "bad cell '{}': a cell is a column a..i and a row 1..9, such as e4",
            shorten(text)
        )));
    }
    let col = match bytes[0] {
        c @ b'a'..=b'i' => (c - b'a') as u32,
        _ => {
            return Err(NotationError::new(format!(
                "no cell {}: columns are a..i",
                shorten(text)
            )));
        }
    };
    let row = match bytes[1] {
        r @ b'1'..=b'9' => (r - b'1') as u32,
        _ => {
            return Err(NotationError::new(format!(
                "no cell {}: rows are 1..9",
                shorten(text)
            )));
        }
    };
    Ok(cell(col, row))
}

/// Parses a move: a source cell then a destination cell, such as `e4e5`.
pub fn parse_move(text: &str) -> Result<Move, NotationError> {
    if text.len() != 4 || !text.is_ascii() {
        return Err(NotationError::new(format!(
            "bad move '{}': an Avalam move is two cells, such as e4e5",
            shorten(text)
        )));
    }
    let from = parse_cell(&text[..2])?;
    let to = parse_cell(&text[2..])?;
    Ok(Move {
        from: from as u8,
        to: to as u8,
    })
}

/// Formats a move as two cells, such as `e4e5`.
pub fn format_move(mv: Move) -> String {
    format!("{}{}", cell_name(mv.from as u32), cell_name(mv.to as u32))
}

/// Parses the board token (nine rows, row 9 first) and the side token (`1` or `2`).
pub fn parse_position(board: &str, side: &str, variant: Variant) -> Result<Avalam, NotationError> {
    let side = Player::from_number(side).ok_or_else(|| {
        NotationError::new(format!(
            "bad side to move '{}': it must be 1 or 2",
            shorten(side)
        ))
    })?;
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 9 {
        return Err(NotationError::new(format!(
            "bad Avalam position: {} rows, expected 9 separated by '/'",
            rows.len()
        )));
    }
    let mut position = Avalam::empty(variant);
    for (i, text) in rows.iter().enumerate() {
        let row = 8 - i as u32;
        let row_name = row + 1;
        let mut col = 0u32;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            let top = match c {
                '.' => None,
                'y' => Some(Player::One),
                'r' => Some(Player::Two),
                other => {
                    return Err(NotationError::new(format!(
                        "bad Avalam position: row {row_name}, column {}: unexpected '{}' (expected ., y or r)",
                        column_name(col),
                        other.escape_default()
                    )));
                }
            };
            if col >= 9 {
                return Err(NotationError::new(format!(
                    "bad Avalam position: row {row_name} has more than 9 cells"
                )));
            }
            let mut height = 1;
            if let Some(digit) = chars.peek().and_then(|d| d.to_digit(10)) {
                chars.next();
                if top.is_none() {
                    return Err(NotationError::new(format!(
                        "bad Avalam position: row {row_name}, column {}: an empty cell has no height",
                        column_name(col)
                    )));
                }
                if !(2..=MAX_HEIGHT as u32).contains(&digit) {
                    return Err(NotationError::new(format!(
                        "bad Avalam position: row {row_name}, column {}: height {digit} (a tower is 1 to 5 high; write no digit for 1)",
                        column_name(col)
                    )));
                }
                height = digit as usize;
            }
            if let Some(top) = top {
                position.set_tower(cell(col, row), height, top);
            }
            col += 1;
        }
        if col != 9 {
            return Err(NotationError::new(format!(
                "bad Avalam position: row {row_name} has {col} cells, expected 9"
            )));
        }
    }
    position.set_side(side);
    Ok(position)
}

fn column_name(col: u32) -> char {
    COLUMNS.get(col as usize).map_or('?', |&c| c as char)
}

/// Formats the board token and the side, as `parse_position` reads them.
pub fn format_position(position: &Avalam) -> String {
    let mut out = String::with_capacity(100);
    for row in (0..9).rev() {
        for col in 0..9 {
            let (height, top) = position.tower(cell(col, row));
            if height == 0 {
                out.push('.');
            } else {
                out.push(if top == Player::One { 'y' } else { 'r' });
                if height > 1 {
                    out.push(char::from(b'0' + height as u8));
                }
            }
        }
        if row > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(char::from(b'0' + position.side_to_move().number()));
    out
}

/// A board picture: each cell shows its top colour and height (`y3`, `r1`) or `.` when empty.
pub fn pretty(position: &Avalam) -> String {
    let mut out = String::new();
    for row in (0..9).rev() {
        out.push_str(&format!("{} |", row + 1));
        for col in 0..9 {
            let sq = cell(col, row);
            let (height, top) = position.tower(sq);
            if height == 0 {
                out.push_str("  .");
            } else {
                let c = if top == Player::One { 'y' } else { 'r' };
                out.push_str(&format!(" {c}{height}"));
            }
        }
        out.push('\n');
    }
    out.push_str("  +");
    for &name in COLUMNS {
        out.push_str(&format!("  {}", name as char));
    }
    debug_assert_eq!(position.occupied() & !BOARD, 0);
    if let Some([yellow, red]) = position.tiebreak() {
        out.push_str(&format!(
            "\n  tiebreak5: towers 5 high y {yellow} r {red} (they decide equal points)"
        ));
    }
    out
}
