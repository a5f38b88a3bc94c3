//! Awale notation: moves are pit letters (`A`..`F` for player one, `a`..`f` for player two);
//! a position is `A,B,C,D,E,F/a,b,c,d,e,f/c1,c2` (seeds per pit, then seeds captured by each
//! player), followed by the side to move.

use super::{Awale, Move, PITS, SEEDS, Variant};
use crate::game::{Game, NotationError, Player, shorten};

/// The letter of a pit index.
pub fn pit_name(pit: usize) -> char {
    if pit < 6 {
        (b'A' + pit as u8) as char
    } else {
        (b'a' + (pit - 6) as u8) as char
    }
}

/// Parses a move: one pit letter.
pub fn parse_move(text: &str) -> Result<Move, NotationError> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c @ 'A'..='F'), None) => Ok(Move(c as u8 - b'A')),
        (Some(c @ 'a'..='f'), None) => Ok(Move(c as u8 - b'a' + 6)),
        (Some(c), None) if c.is_ascii_alphabetic() => Err(NotationError::new(format!(
            "no pit {c}: player 1's pits are A..F and player 2's a..f"
        ))),
        _ => Err(NotationError::new(format!(
            "bad move '{}': an Awale move is one pit letter, A..F or a..f",
            shorten(text)
        ))),
    }
}

/// Formats a move as its pit letter.
pub fn format_move(mv: Move) -> String {
    pit_name(mv.0 as usize).to_string()
}

fn parse_counts(part: &str, what: &str, expected: usize) -> Result<Vec<u8>, NotationError> {
    let fields: Vec<&str> = part.split(',').collect();
    if fields.len() != expected {
        let n = fields.len();
        return Err(NotationError::new(format!(
            "bad Awale position: {what}: {n} number{}, expected {expected} separated by ','",
            if n == 1 { "" } else { "s" }
        )));
    }
    fields
        .iter()
        .enumerate()
        .map(|(i, field)| {
            let ok =
                !field.is_empty() && field.len() <= 2 && field.bytes().all(|b| b.is_ascii_digit());
            match field.parse::<u8>() {
                Ok(n) if ok && n as u32 <= SEEDS => Ok(n),
                _ => Err(NotationError::new(format!(
                    "bad Awale position: {what}, entry {}: '{}' is not a seed count 0..48",
                    i + 1,
                    shorten(field)
                ))),
            }
        })
        .collect()
}

/// Parses the board token and the side token.
pub fn parse_position(board: &str, side: &str, variant: Variant) -> Result<Awale, NotationError> {
    let side = Player::from_number(side).ok_or_else(|| {
        NotationError::new(format!(
            "bad side to move '{}': it must be 1 or 2",
            shorten(side)
        ))
    })?;
    let parts: Vec<&str> = board.split('/').collect();
    if parts.len() != 3 {
        return Err(NotationError::new(format!(
            "bad Awale position: {} parts, expected 3 (pits A..F / pits a..f / captured seeds) separated by '/'",
            parts.len()
        )));
    }
    let one = parse_counts(parts[0], "player 1's pits A..F", 6)?;
    let two = parse_counts(parts[1], "player 2's pits a..f", 6)?;
    let captured = parse_counts(parts[2], "the captured seeds", 2)?;
    let mut pits = [0u8; PITS];
    pits[..6].copy_from_slice(&one);
    pits[6..].copy_from_slice(&two);
    let total: u32 = pits.iter().chain(&captured).map(|&s| s as u32).sum();
    if total != SEEDS {
        return Err(NotationError::new(format!(
            "bad Awale position: the pits and captures hold {total} seeds, expected {SEEDS}"
        )));
    }
    Ok(Awale::from_parts(
        pits,
        [captured[0], captured[1]],
        side,
        variant,
    ))
}

/// Formats a position as `parse_position` reads it.
pub fn format_position(position: &Awale) -> String {
    let join = |s: &[u8]| {
        s.iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "{}/{}/{} {}",
        join(&position.pits[..6]),
        join(&position.pits[6..]),
        join(&position.captured),
        position.side_to_move().number()
    )
}

/// A board picture: player two's row on top, right to left, so that sowing runs anticlockwise.
pub fn pretty(position: &Awale) -> String {
    let pits = position.pits();
    let mut out = String::new();
    out.push_str("     f  e  d  c  b  a\n");
    out.push_str("2 |");
    for pit in (6..12).rev() {
        out.push_str(&format!(" {:2}", pits[pit]));
    }
    out.push_str(&format!(" | captured {}\n", position.captured()[1]));
    out.push_str("1 |");
    for seeds in &pits[..6] {
        out.push_str(&format!(" {seeds:2}"));
    }
    out.push_str(&format!(" | captured {}\n", position.captured()[0]));
    out.push_str("     A  B  C  D  E  F");
    out
}
