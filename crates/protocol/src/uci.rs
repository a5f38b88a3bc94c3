//! The Oware "UCI" dialect of Aualé (the Oware GUI) and Aalina (its engine): its commands read
//! into pion's [`Command`], pion's [`Command`] and [`Reply`] printed in it.
//!
//! The dialect is UCI with Oware notation: positions in the dash notation of [`crate::oware`],
//! moves as pit letters run together, the clock as `wtime/btime/winc/binc` (white is South,
//! pion's player 1), `go ponder` searching until `stop` (Aualé never sends `ponderhit`; Aalina
//! ignores it), scores as `cp` only, and `bestmove 0000` where the game is over. Read from
//! Aualé `src/auale/uci/client.py` (what it sends), `src/auale/uci/rules.py` (what it reads)
//! and Aalina `UCIService.java`, `UCIBrain.java`, `command/GoCommand.java`; protocol.md's
//! section "The Oware UCI dialect" lists the lines.

use crate::command::{Command, GO_KEYS, GoKey, GoParams, GoUnit, Start};
use crate::info::{EngineScore, Info, Score};
use crate::oware::{dash_to_pion, pion_to_dash, split_moves};
use crate::parse::{ParseError, parse_command, setoption_args, whole};
use crate::reply::Reply;
use pion_rules::game::shorten;

/// Which protocol a session speaks: chosen by its handshake command (`pion`, `ugi` or `uci`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// pion's protocol (and UGI, its subset).
    #[default]
    Pion,
    /// The Oware UCI dialect of Aualé and Aalina.
    Uci,
}

/// A proven result in the dialect's `cp`: a win by `m` seeds is `10000 + 100 m` (Aualé shows
/// cp/100 as seeds: 100 plus the margin), a loss its negation, a draw 0.
pub const PROVEN_CP: i32 = 10_000;

/// The `cp` value the dialect gives a score.
pub fn uci_centi(score: Score) -> i32 {
    let proven = |m: u32| PROVEN_CP.saturating_add((m as i32).saturating_mul(100));
    match score {
        Score::Centi(cp) => cp,
        Score::Draw => 0,
        Score::Win(m) => proven(m),
        Score::Loss(m) => -proven(m),
        // pion never reports one; another engine's mate is a proven result of unknown margin.
        Score::Mate(n) if n >= 0 => PROVEN_CP,
        Score::Mate(_) => -PROVEN_CP,
    }
}

/// The score a `cp` value of the dialect stands for: [`uci_centi`] read back, a value at or
/// past [`PROVEN_CP`] a proven win (or loss) by the seeds above it.
pub fn score_of_centi(cp: i32) -> Score {
    let margin = |cp: i32| (cp.unsigned_abs() - PROVEN_CP as u32) / 100;
    match cp {
        cp if cp >= PROVEN_CP => Score::Win(margin(cp)),
        cp if cp <= -PROVEN_CP => Score::Loss(margin(cp)),
        cp => Score::Centi(cp),
    }
}

/// Reads one line in `dialect`. `Ok(None)` is a line the dialect accepts and ignores (UCI's
/// `debug` and `register`). In pion's dialect, `uci` alone is the one extra word: it switches a
/// session to the UCI dialect.
pub fn parse_in(dialect: Dialect, line: &str) -> Result<Option<Command>, ParseError> {
    match dialect {
        Dialect::Pion if line.split_whitespace().eq(["uci"]) => Ok(Some(Command::Uci)),
        Dialect::Pion => parse_command(line).map(Some),
        Dialect::Uci => parse_uci(line),
    }
}

/// Reads one line of the UCI dialect.
fn parse_uci(line: &str) -> Result<Option<Command>, ParseError> {
    let line = line.trim();
    let mut words = line.split([' ', '\t']).filter(|w| !w.is_empty());
    let word = words.next().unwrap_or_default();
    let args = line[word.len()..].trim_start();
    let rest: Vec<&str> = words.collect();
    let bare = |command: Command| {
        if rest.is_empty() {
            Ok(Some(command))
        } else {
            Err(ParseError(format!("{word} takes no arguments")))
        }
    };
    match word {
        "uci" => bare(Command::Uci),
        "isready" => bare(Command::IsReady),
        "ucinewgame" => bare(Command::UgiNewGame),
        "stop" => bare(Command::Stop),
        "quit" => bare(Command::Quit),
        "ponderhit" => bare(Command::PonderHit),
        "pion" => bare(Command::Pion),
        "ugi" => bare(Command::Ugi),
        "debug" | "register" => Ok(None),
        "setoption" => {
            let args = format!(" {args}");
            whole("setoption", &args, setoption_args).map(Some)
        }
        "position" => uci_position(&rest).map(Some),
        "go" => uci_go(&rest).map(Some),
        _ => Err(ParseError(format!(
            "unknown command '{}' (the UCI dialect: uci, isready, setoption, ucinewgame, \
             position, go, stop, ponderhit, quit)",
            shorten(word)
        ))),
    }
}

/// `position (startpos | fen <dash>) [moves <letters>...]`.
fn uci_position(words: &[&str]) -> Result<Command, ParseError> {
    const USAGE: &str = "usage: position (startpos | fen <position>) [moves <moves>]";
    let (start, after) = match words {
        ["startpos", after @ ..] => (Start::StartPos, after),
        ["fen", fen, after @ ..] => {
            let (board, side) =
                dash_to_pion(fen).map_err(|e| ParseError(format!("position: {e}")))?;
            (
                Start::Notation {
                    board,
                    side,
                    fen: true,
                },
                after,
            )
        }
        ["fen"] => {
            return Err(ParseError(format!(
                "position: fen needs a position ({USAGE})"
            )));
        }
        [other, ..] => {
            return Err(ParseError(format!(
                "position: unexpected '{}' ({USAGE})",
                shorten(other)
            )));
        }
        [] => return Err(ParseError(format!("position: missing argument ({USAGE})"))),
    };
    let moves = match after {
        [] => Vec::new(),
        ["moves", moves @ ..] => split_moves(moves.iter().copied()),
        [other, ..] => {
            return Err(ParseError(format!(
                "position: unexpected '{}' ({USAGE})",
                shorten(other)
            )));
        }
    };
    Ok(Command::Position { start, moves })
}

/// `go` with UCI's keys; unknown keys are skipped (as UCI asks), a known key needs its number.
fn uci_go(words: &[&str]) -> Result<Command, ParseError> {
    let mut params = GoParams::default();
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        i += 1;
        if matches!(word, "infinite" | "ponder") {
            params.infinite = true;
            continue;
        }
        let Some(key) = GO_KEYS.iter().find(|key| key.uci == word) else {
            continue;
        };
        let text = words.get(i).copied().unwrap_or_default();
        i += 1;
        // A clock below zero counts as zero, as in pion's `go`.
        let value = match text.strip_prefix('-') {
            Some(digits)
                if key.unit == GoUnit::Clock && digits.bytes().all(|b| b.is_ascii_digit()) =>
            {
                Some(0)
            }
            _ => text.parse::<u64>().ok(),
        };
        let Some(value) = value.filter(|_| !text.is_empty()) else {
            return Err(ParseError(format!(
                "go: {word} needs a whole number, not '{}'",
                shorten(text)
            )));
        };
        (key.set)(&mut params, value)
            .ok_or_else(|| ParseError(format!("go: {word} {value} is too large")))?;
    }
    Ok(Command::Go(params))
}

/// A command as a UCI Oware engine reads it (the referee talking to Aalina, say). Commands the
/// dialect lacks print as in pion's protocol.
pub fn uci_command_text(command: &Command) -> String {
    match command {
        Command::NewGame(_) | Command::UgiNewGame => "ucinewgame".to_string(),
        Command::Position { start, moves } => {
            let mut text = match start {
                Start::StartPos => "position startpos".to_string(),
                Start::Notation { board, side, .. } => match pion_to_dash(board, side) {
                    Some(dash) => format!("position fen {dash}"),
                    None => format!("position fen {board} {side}"),
                },
            };
            if !moves.is_empty() {
                text.push_str(" moves ");
                text.push_str(&moves.concat());
            }
            text
        }
        Command::Go(params) => {
            let mut text = "go".to_string();
            // The clock first, as UCI GUIs send it.
            let clock = |key: &&GoKey| matches!(key.unit, GoUnit::Clock | GoUnit::Increment);
            let keys = GO_KEYS.iter().filter(clock);
            for key in keys.chain(GO_KEYS.iter().filter(|key| !clock(key))) {
                if let Some(value) = (key.get)(params) {
                    text.push_str(&format!(" {} {value}", key.uci));
                }
            }
            if params.infinite {
                text.push_str(" infinite");
            }
            text
        }
        other => other.to_string(),
    }
}

/// Prints replies in the UCI dialect. It remembers the last principal variation so that
/// `bestmove X` carries `ponder Y` when the search's line starts with `X`.
#[derive(Clone, Debug, Default)]
pub struct UciPrinter {
    last_pv: Vec<String>,
}

impl UciPrinter {
    /// The line for `reply`, or `None` when the dialect has nothing to say for it.
    pub fn line(&mut self, reply: &Reply) -> Option<String> {
        match reply {
            Reply::Id("version", _) | Reply::Game(_) | Reply::PionOk | Reply::UgiOk => None,
            Reply::Info(info) => {
                self.last_pv = info.pv.clone();
                Some(info_line(info))
            }
            Reply::BestMove(mv) => {
                let pv = std::mem::take(&mut self.last_pv);
                Some(match mv {
                    None => "bestmove 0000".to_string(),
                    Some(mv) => match pv.as_slice() {
                        [first, ponder, ..] if first == mv => {
                            format!("bestmove {mv} ponder {ponder}")
                        }
                        _ => format!("bestmove {mv}"),
                    },
                })
            }
            Reply::Error(message) => {
                Some(Reply::InfoString(format!("error {message}")).to_string())
            }
            other => Some(other.to_string()),
        }
    }
}

/// An `info` line as Aualé reads it: `cp` scores, the line's moves run together.
fn info_line(info: &Info) -> String {
    let mut text = format!("info depth {}", info.depth);
    if info.seldepth > 0 {
        text.push_str(&format!(" seldepth {}", info.seldepth));
    }
    if let Some(score) = info.score {
        let cp = EngineScore {
            value: Score::Centi(uci_centi(score.value)),
            bound: score.bound,
        };
        text.push_str(&format!(" score {cp}"));
    }
    text.push_str(&format!(
        " nodes {} nps {} time {}",
        info.nodes,
        info.nps(),
        info.time_ms
    ));
    if let Some(hashfull) = info.hashfull {
        text.push_str(&format!(" hashfull {hashfull}"));
    }
    if let Some(tbhits) = info.tbhits {
        text.push_str(&format!(" tbhits {tbhits}"));
    }
    if !info.pv.is_empty() {
        text.push_str(&format!(" pv {}", info.pv.concat()));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uci(line: &str) -> Command {
        parse_in(Dialect::Uci, line).unwrap().unwrap()
    }

    #[test]
    fn auale_lines_read_as_pions_commands() {
        assert_eq!(uci("uci"), Command::Uci);
        assert_eq!(uci("ucinewgame"), Command::UgiNewGame);
        assert_eq!(
            uci("position startpos moves CbEc"),
            Command::Position {
                start: Start::StartPos,
                moves: vec!["C".into(), "b".into(), "E".into(), "c".into()],
            }
        );
        assert_eq!(
            uci("position fen 0-0-1-0-0-12-3-0-0-0-0-0-20-12-N moves a"),
            Command::Position {
                start: Start::Notation {
                    board: "0,0,1,0,0,12/3,0,0,0,0,0/20,12".into(),
                    side: "2".into(),
                    fen: true,
                },
                moves: vec!["a".into()],
            }
        );
        let Command::Go(go) = uci("go depth 4 movetime 600") else {
            panic!("go")
        };
        assert_eq!(
            (go.depth, go.movetime, go.infinite),
            (Some(4), Some(600), false)
        );
        let Command::Go(go) = uci("go ponder") else {
            panic!("go")
        };
        assert!(go.infinite);
        let Command::Go(go) = uci("go wtime 1000 btime -5 winc 10 binc 20 movestogo 3 searchmoves")
        else {
            panic!("go")
        };
        assert_eq!(
            (go.p1time, go.p2time, go.p1inc, go.p2inc, go.movestogo),
            (Some(1000), Some(0), Some(10), Some(20), Some(3))
        );
        assert_eq!(
            uci("setoption name OwnBook value false"),
            Command::SetOption {
                name: "OwnBook".into(),
                value: Some("false".into())
            }
        );
        assert_eq!(parse_in(Dialect::Uci, "debug on").unwrap(), None);
        assert_eq!(
            parse_in(Dialect::Pion, " uci ").unwrap(),
            Some(Command::Uci)
        );
        assert!(parse_in(Dialect::Pion, "uci x").is_err());
    }

    #[test]
    fn bad_lines_get_one_error_each() {
        for (line, start) in [
            ("hello", "unknown command 'hello'"),
            ("uci now", "uci takes no arguments"),
            ("position", "position: missing argument"),
            ("position fen", "position: fen needs a position"),
            ("position fen 4-4", "position: bad Oware position '4-4'"),
            ("position startpos C", "position: unexpected 'C'"),
            ("go depth x", "go: depth needs a whole number, not 'x'"),
            ("go movetime", "go: movetime needs a whole number, not ''"),
            ("go depth 99999999999", "go: depth 99999999999 is too large"),
        ] {
            let error = parse_in(Dialect::Uci, line).unwrap_err().0;
            assert!(error.starts_with(start), "{line}: {error}");
        }
    }

    #[test]
    fn commands_print_as_aalina_reads_them() {
        let position = Command::Position {
            start: Start::Notation {
                board: "0,0,1,0,0,12/3,0,0,0,0,0/20,12".into(),
                side: "1".into(),
                fen: false,
            },
            moves: vec!["F".into(), "a".into()],
        };
        assert_eq!(
            uci_command_text(&position),
            "position fen 0-0-1-0-0-12-3-0-0-0-0-0-20-12-S moves Fa"
        );
        let go = GoParams {
            p1time: Some(900),
            p2time: Some(800),
            p1inc: Some(10),
            p2inc: Some(10),
            ..GoParams::default()
        };
        assert_eq!(
            uci_command_text(&Command::Go(go)),
            "go wtime 900 btime 800 winc 10 binc 10"
        );
        assert_eq!(uci_command_text(&Command::UgiNewGame), "ucinewgame");
        assert_eq!(uci_command_text(&Command::Uci), "uci");
        // What the printer writes, the parser reads back.
        assert_eq!(uci(&uci_command_text(&position)).to_string(), {
            let Command::Position { moves, .. } = &position else {
                unreachable!()
            };
            format!(
                "position fen 0,0,1,0,0,12/3,0,0,0,0,0/20,12 1 moves {}",
                moves.join(" ")
            )
        });
    }

    #[test]
    fn replies_print_as_auale_reads_them() {
        let mut printer = UciPrinter::default();
        let info = Info {
            depth: 6,
            seldepth: 9,
            score: Some(EngineScore::new(Score::Win(4), true)),
            nodes: 1000,
            time_ms: 10,
            pv: vec!["F".into(), "f".into(), "E".into()],
            ..Info::default()
        };
        assert_eq!(
            printer.line(&Reply::Info(info)).unwrap(),
            "info depth 6 seldepth 9 score cp 10400 lowerbound nodes 1000 nps 100000 time 10 pv FfE"
        );
        assert_eq!(
            printer.line(&Reply::BestMove(Some("F".into()))).unwrap(),
            "bestmove F ponder f"
        );
        assert_eq!(
            printer.line(&Reply::BestMove(Some("A".into()))).unwrap(),
            "bestmove A"
        );
        assert_eq!(
            printer.line(&Reply::BestMove(None)).unwrap(),
            "bestmove 0000"
        );
        assert_eq!(
            printer.line(&Reply::Error("go: bad".into())).unwrap(),
            "info string error go: bad"
        );
        assert_eq!(printer.line(&Reply::Id("version", "1".into())), None);
        assert_eq!(printer.line(&Reply::UciOk).unwrap(), "uciok");
        assert_eq!(uci_centi(Score::Loss(2)), -10200);
        assert_eq!(uci_centi(Score::Draw), 0);
        for score in [
            Score::Win(0),
            Score::Win(7),
            Score::Loss(3),
            Score::Centi(-250),
        ] {
            assert_eq!(score_of_centi(uci_centi(score)), score);
        }
    }
}
