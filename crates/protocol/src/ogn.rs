//! OGN, the Oware Game Notation Aualé saves and opens: PGN-like tag pairs, then numbered moves
//! as pit letters, each capture followed by `+N`, comments in braces, the result as the final
//! seeds `South-North` (or `*`).
//!
//! Written as Aualé writes a match and read as Aualé reads one (its `src/auale/serialize/ogn.py`
//! and `src/auale/game/match.py`): the tag roster `Variant Event Site Date Round South North
//! Result` first, other tags after it in name order, `FEN` in the dash notation when the game
//! does not start from the initial board; movetext lines under 80 characters; on reading, a
//! letter `A`..`F`/`a`..`f` outside comments and variations is a move, and a comment belongs
//! to the move before it. Games are played under abapa (`grandslam-nocapture`), the only rules
//! Aualé knows, and end where Aualé ends them: a side that cannot feed has no move.

use pion_rules::awale::{Awale, Variant};
use pion_rules::game::{Game, History, shorten};

use crate::oware::{dash_to_pion, pion_to_dash};

/// Aualé's name for its rules, the `Variant` tag.
pub const RULESET: &str = "Oware Abapa";

/// Why a game cannot be written or read as OGN.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct OgnError(pub String);

/// An Oware game as OGN holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OgnGame {
    /// The tag pairs, as written (the roster first) or read (in file order).
    pub tags: Vec<(String, String)>,
    /// The start position, under abapa.
    pub start: Awale,
    /// The moves, as pit letters.
    pub moves: Vec<String>,
    /// A comment for each move, if any.
    pub comments: Vec<Option<String>>,
}

impl OgnGame {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// pion's position string of the start: `<board> <side>`.
    pub fn start_position(&self) -> String {
        self.start.format_position()
    }
}

/// The tags a writer gives; `Variant`, `Result` and `FEN` come from the game itself.
#[derive(Clone, Debug, Default)]
pub struct OgnTags {
    /// `Event`.
    pub event: String,
    /// `Site`.
    pub site: String,
    /// `Date`, as `YYYY.MM.DD` (Aualé's format).
    pub date: String,
    /// `Round`.
    pub round: String,
    /// `South`: player 1's name.
    pub south: String,
    /// `North`: player 2's name.
    pub north: String,
    /// Any other tags, written after the roster in name order.
    pub extra: Vec<(String, String)>,
}

/// Replays `moves` from `start` under abapa, checking that each is legal, that it scores as
/// under `variant` (a grand slam does not under `standard` or `grandslam-capture`), and
/// stopping where Aualé ends the game (a side that cannot feed: pion's rules play one more
/// move to the same score). The history of the moves kept.
fn replay(start: &Awale, variant: Variant, moves: &[String]) -> Result<History<Awale>, OgnError> {
    let abapa = |p: &Awale| {
        Awale::from_parts(
            *p.pits(),
            p.captured(),
            p.side_to_move(),
            Variant::GrandSlamNoCapture,
        )
    };
    let mut history = History::new(abapa(start));
    let mut theirs = History::new(Awale::from_parts(
        *start.pits(),
        start.captured(),
        start.side_to_move(),
        variant,
    ));
    for (i, text) in moves.iter().enumerate() {
        if history.outcome().is_none() && history.position().ends_without_moving() {
            break;
        }
        let error = |e: &dyn std::fmt::Display| {
            OgnError(format!("move {} ({}): {e}", i + 1, shorten(text)))
        };
        theirs.play_text(text).map_err(|e| error(&e))?;
        history.play_text(text).map_err(|e| error(&e))?;
        let (a, b) = (history.position(), theirs.position());
        if a.pits() != b.pits() || a.captured() != b.captured() {
            return Err(error(&format!(
                "a grand slam, which captures under the {} rules and not under Aualé's abapa",
                Awale::variant_name(variant)
            )));
        }
    }
    Ok(history)
}

/// The result tag: the final seeds `South-North` when the game is over, else `*`.
fn result(history: &History<Awale>) -> String {
    let position = history.position();
    match history.outcome() {
        Some(outcome) => format!("{}-{}", outcome.score[0], outcome.score[1]),
        None if position.ends_without_moving() => {
            let score = position.points();
            format!("{}-{}", score[0], score[1])
        }
        None => "*".to_string(),
    }
}

/// A tag value escaped as Aualé escapes it (backslashes, then quotes); line breaks become spaces.
fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

/// The game as OGN text, played from `start` under `variant` (it must score the same under
/// abapa); `comments[i]` follows move `i`.
pub fn write_ogn(
    tags: &OgnTags,
    start: &Awale,
    variant: Variant,
    moves: &[String],
    comments: &[Option<String>],
) -> Result<String, OgnError> {
    let history = replay(start, variant, moves)?;
    let result = result(&history);
    let initial = Awale::start(Variant::GrandSlamNoCapture);
    let root = history.root();
    let mut extra = tags.extra.clone();
    if root.pits() != initial.pits()
        || root.captured() != initial.captured()
        || root.side_to_move() != initial.side_to_move()
    {
        let text = root.format_position();
        let (board, side) = text.split_once(' ').unwrap_or_default();
        extra.push((
            "FEN".to_string(),
            pion_to_dash(board, side).unwrap_or_default(),
        ));
    }
    extra.sort();
    let roster = [
        ("Variant", RULESET.to_string()),
        ("Event", tags.event.clone()),
        ("Site", tags.site.clone()),
        ("Date", tags.date.clone()),
        ("Round", tags.round.clone()),
        ("South", tags.south.clone()),
        ("North", tags.north.clone()),
        ("Result", result.clone()),
    ];
    let mut out = String::new();
    for (name, value) in roster
        .iter()
        .map(|(n, v)| (n.to_string(), v.clone()))
        .chain(extra)
    {
        let value = if value.is_empty() {
            "?".to_string()
        } else {
            value
        };
        out.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
    }
    let positions = history.positions();
    if positions.len() == 1 {
        return Ok(out);
    }
    let mut tokens = Vec::new();
    for (i, mv) in history.moves().iter().enumerate() {
        if i % 2 == 0 {
            tokens.push(format!("{}.", i / 2 + 1));
        }
        let mover = positions[i].side_to_move().index();
        let gained = positions[i + 1].captured()[mover] - positions[i].captured()[mover];
        let letter = Awale::format_move(*mv);
        tokens.push(if gained > 0 {
            format!("{letter}+{gained}")
        } else {
            letter
        });
        if let Some(comment) = comments.get(i).and_then(Option::as_ref) {
            // A comment ends at the first '}'.
            let words = comment.replace(['{', '}'], " ");
            tokens.push("{".to_string());
            tokens.extend(words.split_whitespace().map(str::to_string));
            tokens.push("}".to_string());
        }
    }
    if result != "*" {
        tokens.push(result);
    }
    out.push('\n');
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && 1 + line.len() + token.len() >= 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push('\n');
    Ok(out)
}

/// One tag pair at the start of `text` (after white space): its name, value and the rest.
fn tag_pair(text: &str) -> Option<(String, String, &str)> {
    let rest = text.trim_start().strip_prefix('[')?.trim_start();
    let name_len = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|&n| n > 0)?;
    let (name, rest) = rest.split_at(name_len);
    let rest = rest
        .strip_prefix(char::is_whitespace)?
        .trim_start()
        .strip_prefix('"')?;
    let mut value = String::new();
    let mut chars = rest.char_indices();
    let end = loop {
        match chars.next()? {
            (_, '\\') => match chars.next()? {
                (_, c @ ('"' | '\\')) => value.push(c),
                (_, c) => {
                    value.push('\\');
                    value.push(c);
                }
            },
            (i, '"') => break i,
            (_, c) => value.push(c),
        }
    };
    let rest = rest[end + 1..].trim_start().strip_prefix(']')?;
    Some((name.to_string(), value, rest))
}

/// Reads an OGN game, every move checked under abapa; an illegal move, a bad `FEN` or a file
/// that is not OGN gets one error naming it.
pub fn read_ogn(text: &str) -> Result<OgnGame, OgnError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut tags = Vec::new();
    let mut rest = text;
    while let Some((name, value, after)) = tag_pair(rest) {
        tags.push((name, value));
        rest = after;
    }
    if tags.is_empty() {
        return Err(OgnError(
            "not an OGN game: it does not start with a tag pair such as [Variant \"Oware Abapa\"]"
                .to_string(),
        ));
    }
    let mut moves: Vec<String> = Vec::new();
    let mut comments: Vec<Option<String>> = Vec::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                let comment: String = chars.by_ref().take_while(|&c| c != '}').collect();
                if let Some(last) = comments.last_mut() {
                    *last = Some(comment.split_whitespace().collect::<Vec<_>>().join(" "));
                }
            }
            '(' => {
                chars.by_ref().take_while(|&c| c != ')').for_each(drop);
            }
            'A'..='F' | 'a'..='f' => {
                moves.push(c.to_string());
                comments.push(None);
            }
            _ => {}
        }
    }
    let start = match tags.iter().find(|(n, _)| n == "FEN") {
        None => Awale::start(Variant::GrandSlamNoCapture),
        Some((_, fen)) => {
            let bad = |e: &dyn std::fmt::Display| OgnError(format!("FEN tag: {e}"));
            let (board, side) = dash_to_pion(fen).map_err(|e| bad(&e))?;
            Awale::parse_position(&board, &side, Variant::GrandSlamNoCapture)
                .map_err(|e| bad(&e))?
        }
    };
    let history = replay(&start, Variant::GrandSlamNoCapture, &moves)?;
    if history.moves().len() < moves.len() {
        let i = history.moves().len();
        return Err(OgnError(format!(
            "move {} ({}): the game is over: the side to move cannot feed its opponent",
            i + 1,
            moves[i]
        )));
    }
    Ok(OgnGame {
        tags,
        start,
        moves,
        comments,
    })
}

#[cfg(test)]
mod tests;
