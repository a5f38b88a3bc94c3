//! The nom parser: one input line to one typed [`Command`], or an error naming what is wrong.
//!
//! The parser knows the grammar only: it never looks at a board, so a move or a position string
//! is carried as text and checked against the rules by the session.

use nom::branch::alt;
use nom::bytes::complete::take_till1;
use nom::character::complete::{char, digit1, space0, space1};
use nom::combinator::{all_consuming, cut, map, map_opt, map_res, opt, rest, value, verify};
use nom::multi::{many0, many1};
use nom::sequence::preceded;
use nom::{IResult, Parser};

use super::command::{Command, GO_KEYS, GameKind, GoKey, GoParams, GoUnit, Query, Start};
use super::commands::{command_spec, unknown};
use pion_rules::game::shorten;

/// Why a line is not a valid command; the text is the message after `error`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub String);

type In<'a> = &'a str;

/// A run of characters other than the separators, space and tab (protocol.md): other
/// whitespace, such as a vertical tab or a no-break space, is part of a token, so that an error
/// names the whole of what was sent.
fn token(input: In) -> IResult<In, In> {
    take_till1(|c: char| c == ' ' || c == '\t').parse(input)
}

/// A space-separated token after the current one.
pub(crate) fn next_token(input: In) -> IResult<In, In> {
    preceded(space1, token).parse(input)
}

/// A decimal number that fits its type.
pub(crate) fn number<T: std::str::FromStr>(input: In) -> IResult<In, T> {
    map_res(digit1, str::parse::<T>).parse(input)
}

/// A token that is a decimal number fitting its type: `0.1` is not `0` followed by junk.
fn whole_number<T: std::str::FromStr>(input: In) -> IResult<In, T> {
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    map_res(verify(token, digits), str::parse::<T>).parse(input)
}

/// A keyword standing alone as a token (so `depth` does not match `depthx`).
fn keyword<'a>(
    word: &'static str,
) -> impl Parser<In<'a>, Output = In<'a>, Error = nom::error::Error<In<'a>>> {
    verify(token, move |t: &str| t == word)
}

/// A game's name, in any case (as the `Game` option's values are).
fn game_kind(input: In) -> IResult<In, GameKind> {
    map_opt(token, GameKind::from_name).parse(input)
}

pub(crate) fn newgame_args(input: In) -> IResult<In, Command> {
    map(opt(preceded(space1, game_kind)), Command::NewGame).parse(input)
}

pub(crate) fn setoption_args(input: In) -> IResult<In, Command> {
    let name_word = verify(token, |t: &str| t != "value");
    let (input, _) = preceded(space1, keyword("name")).parse(input)?;
    let (input, words) = many1(preceded(space1, name_word)).parse(input)?;
    let (input, value) = opt(preceded((space1, keyword("value")), rest)).parse(input)?;
    let name = words.join(" ");
    let value = value.map(|v: &str| v.trim().to_string());
    Ok((input, Command::SetOption { name, value }))
}

pub(crate) fn position_args(input: In) -> IResult<In, Command> {
    let startpos = value(Start::StartPos, keyword("startpos"));
    let notation = |fen: bool| {
        move |input| {
            let (input, board) = verify(token, |t: &str| t != "moves").parse(input)?;
            // `position <board> moves ...` has no side: say so, rather than read `moves` as one.
            let (input, side) = verify(next_token, |t: &str| t != "moves").parse(input)?;
            Ok((
                input,
                Start::Notation {
                    board: board.to_string(),
                    side: side.to_string(),
                    fen,
                },
            ))
        }
    };
    // After `fen` a position string must follow: no falling back to `fen` as the board.
    let fen = preceded((keyword("fen"), space1), cut(notation(true)));
    let notation = notation(false);
    let (input, start) = preceded(space1, alt((startpos, fen, notation))).parse(input)?;
    let (input, moves) =
        opt(preceded((space1, keyword("moves")), many0(next_token))).parse(input)?;
    let moves = moves
        .unwrap_or_default()
        .into_iter()
        .map(str::to_string)
        .collect();
    Ok((input, Command::Position { start, moves }))
}

/// One `go` parameter: a number of [`GO_KEYS`] with its value, or `None` for `infinite`.
type GoParam = Option<(&'static GoKey, u64)>;

/// Reads one `go` parameter; returns its word too.
fn go_param(input: In) -> IResult<In, (In, GoParam)> {
    let (after, word) = token(input)?;
    if word == "infinite" {
        return Ok((after, (word, None)));
    }
    let Some(key) = GO_KEYS.iter().find(|key| key.name == word) else {
        return Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Tag,
        )));
    };
    // A known key commits: a bad number after it is an error at the number, not at the key,
    // and so is a number too large for its field. Point the error at the key, marked as a
    // missing number.
    let at_key = || nom::Err::Failure(nom::error::Error::new(input, nom::error::ErrorKind::Digit));
    let clock = key.unit == GoUnit::Clock;
    let signed = (opt(verify(char('-'), |_| clock)), whole_number::<u64>);
    let (rest, (minus, n)) = preceded(space1, signed)
        .parse(after)
        .map_err(|_| at_key())?;
    let n = if minus.is_some() { 0 } else { n };
    (key.set)(&mut GoParams::default(), n).ok_or_else(at_key)?;
    Ok((rest, (word, Some((key, n)))))
}

pub(crate) fn go_args(input: In) -> IResult<In, Vec<(In, GoParam)>> {
    many0(preceded(space1, go_param)).parse(input)
}

/// Merges the parameters of `go`, rejecting a key given twice.
pub(crate) fn merge_go(parts: Vec<(In, GoParam)>) -> Result<GoParams, ParseError> {
    let mut params = GoParams::default();
    let mut seen: Vec<&str> = Vec::new();
    for (word, part) in parts {
        if seen.contains(&word) {
            return Err(ParseError(format!("go: {word} is given twice")));
        }
        seen.push(word);
        match part {
            // Numbers too large for their field were refused by `go_param`.
            Some((key, n)) => {
                (key.set)(&mut params, n);
            }
            None => params.infinite = true,
        }
    }
    Ok(params)
}

pub(crate) fn query_args(input: In) -> IResult<In, Command> {
    let query = |word: In| Query::ALL.iter().find(|q| q.word() == word).copied();
    preceded(space1, map_opt(token, query))
        .map(Command::Query)
        .parse(input)
}

/// The board a `position` line gave alone before the parser stopped at `at` (the end of the
/// line, or `moves`): its side to move is missing.
fn position_board_alone<'a>(args: &'a str, at: &str) -> Option<&'a str> {
    let given: Vec<&str> = args[..args.len() - at.len()]
        .split([' ', '\t'])
        .filter(|t| !t.is_empty())
        .collect();
    let at_end_or_moves = at.is_empty() || token(at).is_ok_and(|(_, t)| t == "moves");
    match given.as_slice() {
        ["fen", board] | [board] if *board != "startpos" && at_end_or_moves => Some(board),
        _ => None,
    }
}

/// The board and side a `position` line gave before the parser stopped at `at`, when it gave
/// exactly those (not `startpos`).
fn position_start<'a>(args: &'a str, at: &str) -> Option<(&'a str, &'a str)> {
    let given: Vec<&str> = args[..args.len() - at.len()]
        .split([' ', '\t'])
        .filter(|t| !t.is_empty())
        .collect();
    match given.as_slice() {
        ["fen", board, side] | [board, side] if *board != "startpos" => Some((board, side)),
        _ => None,
    }
}

/// Runs an argument parser over the whole rest of the line.
pub(crate) fn whole<'a, O>(
    keyword: &str,
    args: In<'a>,
    parser: impl Parser<In<'a>, Output = O, Error = nom::error::Error<In<'a>>>,
) -> Result<O, ParseError> {
    match all_consuming((parser, space0)).parse(args) {
        Ok((_, (out, _))) => Ok(out),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
            let at = e.input.trim_start();
            let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
            let problem = match token(at) {
                _ if keyword == "position" && position_board_alone(args, at).is_some() => {
                    let board = position_board_alone(args, at).unwrap_or_default();
                    format!(
                        "the side to move (1 or 2) is missing after the board '{}'",
                        shorten(board)
                    )
                }
                // A number too large for its type.
                Ok((_, near)) if digits(near) && e.code == nom::error::ErrorKind::MapRes => {
                    format!("{} is too large", shorten(near))
                }
                // `perft -1`: the number itself is bad.
                Ok((_, near)) if e.code == nom::error::ErrorKind::Digit && keyword != "go" => {
                    format!("'{}' is not a whole number", shorten(near))
                }
                // A `go` key, and what follows it.
                Ok((_, near)) if e.code == nom::error::ErrorKind::Digit => {
                    let value = at[near.len()..]
                        .trim_start_matches([' ', '\t'])
                        .split([' ', '\t'])
                        .next()
                        .unwrap_or("");
                    if digits(value) {
                        format!("{} {} is too large", shorten(near), shorten(value))
                    } else if value.is_empty() {
                        format!("{} needs a whole number", shorten(near))
                    } else {
                        format!(
                            "{} needs a whole number, not '{}'",
                            shorten(near),
                            shorten(value)
                        )
                    }
                }
                // `position <board> <side> x`: most likely a space inside the board, which
                // then ended two tokens early.
                Ok((_, near)) if keyword == "position" && position_start(args, at).is_some() => {
                    let (board, side) = position_start(args, at).unwrap_or_default();
                    format!(
                        "unexpected '{}' after the board '{}' and side '{}' (expected 'moves'; a board has no spaces)",
                        shorten(near),
                        shorten(board),
                        shorten(side)
                    )
                }
                Ok((_, near)) => format!("unexpected '{}'", shorten(near)),
                Err(_) => "missing argument".to_string(),
            };
            match command_spec(keyword) {
                Some(spec) if spec.takes_arguments() => Err(ParseError(format!(
                    "{keyword}: {problem} (usage: {})",
                    spec.usage
                ))),
                _ => Err(ParseError(format!("{keyword} takes no arguments"))),
            }
        }
        Err(nom::Err::Incomplete(_)) => Err(ParseError(format!("{keyword}: incomplete"))),
    }
}

/// Parses one line (without its newline). Leading and trailing whitespace is ignored; the
/// caller skips empty lines.
///
/// ```
/// use pion_protocol::{Command, parse_command};
///
/// let go = parse_command("go movetime 100 depth 6").unwrap();
/// assert!(matches!(go, Command::Go(p) if p.movetime == Some(100) && p.depth == Some(6)));
/// let error = parse_command("go depht 6").unwrap_err();
/// assert!(error.0.starts_with("go: unexpected 'depht'"));
/// ```
pub fn parse_command(line: &str) -> Result<Command, ParseError> {
    let line = line.trim();
    let (args, word) = token(line).map_err(|_| ParseError("empty line".to_string()))?;
    match command_spec(word) {
        Some(spec) => (spec.parse)(args),
        None => Err(unknown("", word)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(line: &str) -> String {
        parse_command(line).unwrap_err().0
    }

    #[test]
    fn errors_name_the_bad_token() {
        let cases = [
            ("perft -1", "perft: '-1' is not a whole number"),
            (
                "perft 99999999999999999999",
                "perft: 99999999999999999999 is too large",
            ),
            ("go depth 4294967296", "go: depth 4294967296 is too large"),
            (
                "go depth 99999999999999999999",
                "go: depth 99999999999999999999 is too large",
            ),
            (
                "go p1time 5 movestogo 4294967296",
                "go: movestogo 4294967296 is too large",
            ),
            ("go depth", "go: depth needs a whole number (usage"),
            ("go depth -3", "go: depth needs a whole number, not '-3'"),
            ("go nodes x", "go: nodes needs a whole number, not 'x'"),
            (
                "go p1time 5 p1inc -5",
                "go: p1inc needs a whole number, not '-5'",
            ),
            ("go p1time -x", "go: p1time needs a whole number, not '-x'"),
            ("position fen startpos", "position: missing argument"),
            (
                "position 4,4,4,4,4,4/4,4,4,4,4,4/0,0",
                "position: the side to move (1 or 2) is missing after the board '4,4,4,4,4,4/4,4,4,4,4,4/0,0' (usage",
            ),
            (
                "position fen ........./.........  moves a1b1",
                "position: the side to move (1 or 2) is missing after the board '........./.........'",
            ),
            (
                "go movetime 0.1",
                "go: movetime needs a whole number, not '0.1' (usage",
            ),
            (
                "go p1time -1.5",
                "go: p1time needs a whole number, not '-1.5'",
            ),
            (
                "position 4, 4,4,4,4,4/4,4,4,4,4,4/0,0 1",
                "position: unexpected '1' after the board '4,' and side '4,4,4,4,4/4,4,4,4,4,4/0,0' (expected 'moves'",
            ),
            (
                "position startpos extra",
                "position: unexpected 'extra' (usage",
            ),
            ("position moves a5b5", "position: unexpected 'moves' (usage"),
            ("bench -1", "bench: unexpected '-1'"),
        ];
        for (line, start) in cases {
            let message = error(line);
            assert!(message.starts_with(start), "{line}: {message}");
        }
    }

    #[test]
    fn game_names_are_read_in_any_case() {
        assert_eq!(
            parse_command("newgame AWALE").unwrap(),
            Command::NewGame(Some(GameKind::Awale))
        );
        assert_eq!(
            parse_command("newgame Avalam").unwrap(),
            Command::NewGame(Some(GameKind::Avalam))
        );
    }

    #[test]
    fn a_clock_below_zero_counts_as_zero() {
        assert_eq!(
            parse_command("go p1time -16 p2time -0").unwrap(),
            parse_command("go p1time 0 p2time 0").unwrap()
        );
    }

    #[test]
    fn only_spaces_and_tabs_separate_tokens() {
        assert_eq!(
            parse_command("go\tdepth 2").unwrap(),
            parse_command("go depth 2").unwrap()
        );
        // A vertical tab or a no-break space is part of the token, which the error names whole.
        assert!(error("go\u{b}depth 2").starts_with("unknown command 'go\\u{b}depth'"));
        assert!(error("isready\u{a0}isready").starts_with("unknown command 'isready"));
        assert_eq!(
            parse_command("play a5\u{b}b5").unwrap(),
            Command::Play("a5\u{b}b5".to_string())
        );
    }
}
