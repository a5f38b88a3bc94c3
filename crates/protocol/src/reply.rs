//! The typed replies the engine sends, formatted to text in this one place.

use std::fmt;

use crate::info::Info;

/// The type and range of an option, as `pion` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer in a range.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// A choice among fixed words.
    Combo {
        /// Default value.
        default: String,
        /// Allowed values.
        vars: Vec<String>,
    },
    /// `true` or `false`.
    Check {
        /// Default value.
        default: bool,
    },
    /// Free text, such as a path; empty by default (printed `<empty>`, as UCI does).
    String,
}

/// One `option ...` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The option name.
    pub name: &'static str,
    /// Its type and range.
    pub kind: OptionKind,
}

/// One reply line (or, for `Board`, a delimited block of lines).
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// `id <field> <value>`.
    Id(&'static str, String),
    /// `game <name>`.
    Game(&'static str),
    /// `option name ...`.
    Option(OptionSpec),
    /// `pionok`.
    PionOk,
    /// `ugiok`.
    UgiOk,
    /// `uciok`: the end of the answer to `uci`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `info ...` during a search.
    Info(Info),
    /// `info string <text>`: a message to the user about the search (one line of text).
    InfoString(String),
    /// `bestmove <move>` or `bestmove none`.
    BestMove(Option<String>),
    /// `legal m1 m2 ...`.
    Legal(Vec<String>),
    /// `status ...`.
    Status(Status),
    /// `board <game>`, the picture, then `position <notation>`.
    Board {
        /// The game's name.
        game: &'static str,
        /// The picture, several lines.
        picture: String,
        /// The position notation.
        position: String,
    },
    /// `perft depth N nodes N time MS nps N` (already formatted by the perft report).
    Perft(String),
    /// `bench ...` lines (already formatted by the bench report).
    Bench(String),
    /// `response <value>` to a UGI query.
    Response(String),
    /// The `help` lines for the list of commands, or for one command, then `helpok`.
    Help(Option<String>),
    /// `error <message>`.
    Error(String),
}

/// The state of the game as `status` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// The player to move (1 or 2) while the game goes on.
    pub turn: Option<u8>,
    /// The winner (1 or 2), `None` for a draw, when the game is over.
    pub winner: Option<u8>,
    /// Points of player one and two (the final score when over).
    pub score: [u32; 2],
    /// Why the game ended, when it did.
    pub reason: Option<&'static str>,
    /// What decides level points, per player, under a variant with a tie-break (`tiebreak5`).
    pub tiebreak: Option<[u32; 2]>,
}

/// Writes text with control and invisible characters escaped ([`pion_rules::game::is_hidden`]), so
/// that any message stays on one line and shows what was really typed: `shorten` with no limit.
fn one_line(text: &str) -> String {
    pion_rules::game::shorten_to(text, usize::MAX)
}

impl fmt::Display for OptionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                for var in vars {
                    write!(f, " var {var}")?;
                }
                Ok(())
            }
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::String => write!(f, "string default <empty>"),
        }
    }
}

fn write_info(f: &mut fmt::Formatter<'_>, info: &Info) -> fmt::Result {
    write!(f, "info depth {}", info.depth)?;
    if info.seldepth > 0 {
        write!(f, " seldepth {}", info.seldepth)?;
    }
    if let Some(score) = info.score {
        write!(f, " score {score}")?;
    }
    write!(
        f,
        " nodes {} nps {} time {}",
        info.nodes,
        info.nps(),
        info.time_ms
    )?;
    if let Some(hashfull) = info.hashfull {
        write!(f, " hashfull {hashfull}")?;
    }
    if let Some(playouts) = info.playouts {
        write!(f, " playouts {playouts}")?;
    }
    if let Some(tbhits) = info.tbhits {
        write!(f, " tbhits {tbhits}")?;
    }
    if !info.pv.is_empty() {
        write!(f, " pv {}", info.pv.join(" "))?;
    }
    Ok(())
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id(field, value) => write!(f, "id {field} {value}"),
            Reply::Game(name) => write!(f, "game {name}"),
            Reply::Option(spec) => write!(f, "{spec}"),
            Reply::PionOk => write!(f, "pionok"),
            Reply::UgiOk => write!(f, "ugiok"),
            Reply::UciOk => write!(f, "uciok"),
            Reply::ReadyOk => write!(f, "readyok"),
            Reply::Info(info) => write_info(f, info),
            Reply::InfoString(text) => write!(f, "info string {}", one_line(text)),
            Reply::BestMove(Some(mv)) => write!(f, "bestmove {mv}"),
            Reply::BestMove(None) => write!(f, "bestmove none"),
            Reply::Legal(moves) if moves.is_empty() => write!(f, "legal"),
            Reply::Legal(moves) => write!(f, "legal {}", moves.join(" ")),
            Reply::Status(status) => {
                match (status.turn, status.winner) {
                    (Some(turn), _) => write!(f, "status playing turn {turn}")?,
                    (None, Some(winner)) => write!(f, "status over winner {winner}")?,
                    (None, None) => write!(f, "status over draw")?,
                }
                write!(f, " score {} {}", status.score[0], status.score[1])?;
                if let Some(reason) = status.reason {
                    write!(f, " reason {reason}")?;
                }
                if let Some([p1, p2]) = status.tiebreak {
                    write!(f, " tiebreak {p1} {p2}")?;
                }
                Ok(())
            }
            Reply::Board {
                game,
                picture,
                position,
            } => write!(f, "board {game}\n{picture}\nposition {position}"),
            Reply::Perft(text) | Reply::Bench(text) => write!(f, "{text}"),
            Reply::Response(value) => write!(f, "response {value}"),
            Reply::Help(topic) => {
                let lines = crate::commands::help_lines(topic.as_deref());
                write!(f, "{}", lines.unwrap_or_default().join("\n"))
            }
            Reply::Error(message) => write!(f, "error {}", one_line(message)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::info::{EngineScore, Score};

    #[test]
    fn info_lines_print_scores_and_bounds() {
        let mut info = Info {
            depth: 5,
            seldepth: 7,
            score: Some(Score::Win(3).into()),
            nodes: 2000,
            time_ms: 2,
            pv: vec!["e4e5".into(), "d3d4".into()],
            ..Info::default()
        };
        assert_eq!(
            Reply::Info(info.clone()).to_string(),
            "info depth 5 seldepth 7 score win 3 nodes 2000 nps 1000000 time 2 pv e4e5 d3d4"
        );
        info.score = Some(EngineScore::new(Score::Win(3), true));
        assert!(
            Reply::Info(info.clone())
                .to_string()
                .contains(" score win 3 lowerbound nodes ")
        );
        info.score = Some(EngineScore::new(Score::Loss(2), true));
        assert!(
            Reply::Info(info.clone())
                .to_string()
                .contains(" score loss 2 upperbound nodes ")
        );
        info.score = Some(Score::Centi(-150).into());
        assert!(
            Reply::Info(info)
                .to_string()
                .contains(" score cp -150 nodes ")
        );
        assert_eq!(
            Reply::Error("bad\nline\u{0}".into()).to_string(),
            "error bad\\nline\\u{0}"
        );
        assert_eq!(
            Reply::InfoString("book\nmove".into()).to_string(),
            "info string book\\nmove"
        );
        assert_eq!(
            Reply::Error("unknown command '\u{feff}go\u{200b}'".into()).to_string(),
            "error unknown command '\\u{feff}go\\u{200b}'"
        );
    }
}
