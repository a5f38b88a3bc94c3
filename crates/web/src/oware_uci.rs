//! The page speaks pion's protocol to every engine; an engine configured with `proto=uci` speaks
//! the Oware UCI dialect of Aualé and Aalina. This translates one such conversation, line by
//! line, both ways, with the protocol crate's parsers and printers only.
//!
//! Page to engine: `pion` becomes `uci`; `newgame [awale]` and `uginewgame` become `ucinewgame`;
//! `position` prints as `startpos` or `fen <dash>` with the moves run together; `go` prints the
//! clock as `wtime/btime/winc/binc`; `isready`, `stop`, `quit` and `setoption` pass. The dialect
//! has no variant option: `setoption name Variant` is accepted for `grandslam-nocapture` (the
//! rules such an engine plays) and refused otherwise; Avalam and pion's other commands are
//! refused. A refusal is an `error` line back to the page, which shows it.
//!
//! Engine to page: `uciok` becomes the `Variant` option, `game awale` and `pionok`; `info` lines
//! get pion's scores (a proven result from its large `cp`) and spaced moves; `bestmove 0000`
//! becomes `bestmove none` where the game is over or the mover cannot feed, and stays an
//! illegal `0000` anywhere else.

use pion_protocol::oware::split_moves;
use pion_protocol::uci::score_of_centi;
use pion_protocol::{
    Command, EngineScore, GameKind, Heard, Reply, Score, Start, parse_command, parse_heard,
    uci_command_text,
};
use pion_rules::awale::{Awale, Variant};
use pion_rules::game::Game;

/// The only rules a UCI Oware engine plays (Oware abapa: a grand slam captures nothing).
pub const VARIANT: &str = "grandslam-nocapture";

/// The move a UCI Oware engine gives where it has none.
const NO_MOVE: &str = "0000";

/// One engine's conversation in the dialect: what it needs to remember is the position last
/// set, to tell a rightful `bestmove 0000` from an illegal one.
#[derive(Debug, Default)]
pub struct OwareUci {
    /// The position of the last `position` command, when pion's rules could read it.
    position: Option<Awale>,
}

impl OwareUci {
    /// The line to send the engine for the page's `line` (`Ok(None)`: nothing to send), or
    /// the page's `error` line when the dialect cannot say it.
    pub fn to_engine(&mut self, line: &str) -> Result<Option<String>, String> {
        let refuse = |why: String| Err(Reply::Error(why).to_string());
        let command = match parse_command(line) {
            Ok(command) => command,
            Err(e) => return refuse(e.0),
        };
        let text = match &command {
            Command::Pion => "uci".to_string(),
            Command::NewGame(Some(GameKind::Avalam)) => {
                return refuse("a UCI Oware engine plays only awale".to_string());
            }
            Command::NewGame(_) | Command::UgiNewGame => {
                self.position = Some(Awale::start(Variant::GrandSlamNoCapture));
                uci_command_text(&command)
            }
            Command::SetOption { name, value } if name.eq_ignore_ascii_case("variant") => {
                return match value.as_deref() {
                    Some(VARIANT) => Ok(None),
                    other => refuse(format!(
                        "a UCI Oware engine plays only the variant {VARIANT}, not '{}'",
                        other.unwrap_or_default()
                    )),
                };
            }
            Command::Position { start, moves } => {
                if let Start::Notation { board, side, .. } = start
                    && pion_protocol::oware::pion_to_dash(board, side).is_none()
                {
                    return refuse(format!(
                        "position: '{board} {side}' is not an Awale position"
                    ));
                }
                self.position = position_after(start, moves);
                uci_command_text(&command)
            }
            Command::IsReady
            | Command::SetOption { .. }
            | Command::Go(_)
            | Command::Stop
            | Command::Quit => uci_command_text(&command),
            other => {
                let word = other.to_string();
                let word = word.split_whitespace().next().unwrap_or_default();
                return refuse(format!(
                    "'{word}' is not in the Oware UCI dialect this engine speaks"
                ));
            }
        };
        Ok(Some(text))
    }

    /// The lines for the page for the engine's `line` (none for an empty line).
    pub fn to_page(&mut self, line: &str) -> Vec<String> {
        let reply = match parse_heard(line) {
            Heard::Id { field, value } => return vec![format!("id {field} {value}")],
            Heard::UciOk => {
                return vec![
                    format!("option name Variant type combo default {VARIANT} var {VARIANT}"),
                    Reply::Game(GameKind::Awale.name()).to_string(),
                    Reply::PionOk.to_string(),
                ];
            }
            Heard::ReadyOk => Reply::ReadyOk,
            Heard::Info(mut info) => {
                info.score = info.score.map(|score| match score.value {
                    Score::Centi(cp) => EngineScore {
                        value: score_of_centi(cp),
                        bound: score.bound,
                    },
                    _ => score,
                });
                info.pv = split_moves(info.pv.iter().map(String::as_str));
                Reply::Info(info)
            }
            Heard::InfoString(text) => Reply::InfoString(text),
            Heard::BestMove(Some(mv)) if mv == NO_MOVE => {
                let ends = self
                    .position
                    .is_some_and(|p| p.outcome().is_some() || p.ends_without_moving());
                if ends {
                    Reply::BestMove(None)
                } else {
                    Reply::BestMove(Some(mv))
                }
            }
            Heard::BestMove(mv) => Reply::BestMove(mv),
            _ if line.trim().is_empty() => return Vec::new(),
            // `option` lines are pion's form already; the rest is for the page to show.
            _ => return vec![line.to_string()],
        };
        vec![reply.to_string()]
    }
}

/// The position of `position <start> moves <moves>` under the engine's rules, if pion's rules
/// read it and every move is legal.
fn position_after(start: &Start, moves: &[String]) -> Option<Awale> {
    let mut position = match start {
        Start::StartPos => Awale::start(Variant::GrandSlamNoCapture),
        Start::Notation { board, side, .. } => {
            Awale::parse_position(board, side, Variant::GrandSlamNoCapture).ok()?
        }
    };
    for text in moves {
        let mv = position.parse_legal_move(text).ok()?;
        position.play(mv);
    }
    Some(position)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(bridge: &mut OwareUci, line: &str) -> String {
        bridge.to_engine(line).unwrap().unwrap()
    }

    #[test]
    fn pion_commands_print_in_the_dialect() {
        let mut bridge = OwareUci::default();
        assert_eq!(sent(&mut bridge, "pion"), "uci");
        assert_eq!(sent(&mut bridge, "newgame awale"), "ucinewgame");
        assert_eq!(sent(&mut bridge, "uginewgame"), "ucinewgame");
        assert_eq!(sent(&mut bridge, "isready"), "isready");
        assert_eq!(sent(&mut bridge, "position startpos"), "position startpos");
        assert_eq!(
            sent(&mut bridge, "position startpos moves C b E"),
            "position startpos moves CbE"
        );
        assert_eq!(
            sent(
                &mut bridge,
                "position 0,0,1,0,0,12/3,0,0,0,0,0/20,12 2 moves a"
            ),
            "position fen 0-0-1-0-0-12-3-0-0-0-0-0-20-12-N moves a"
        );
        assert_eq!(sent(&mut bridge, "go movetime 500"), "go movetime 500");
        assert_eq!(sent(&mut bridge, "go infinite"), "go infinite");
        assert_eq!(
            sent(&mut bridge, "go p1time 900 p2time 800 p1inc 10 p2inc 20"),
            "go wtime 900 btime 800 winc 10 binc 20"
        );
        assert_eq!(sent(&mut bridge, "stop"), "stop");
        assert_eq!(sent(&mut bridge, "quit"), "quit");
        assert_eq!(
            sent(&mut bridge, "setoption name OwnBook value false"),
            "setoption name OwnBook value false"
        );
        assert_eq!(
            bridge
                .to_engine("setoption name Variant value grandslam-nocapture")
                .unwrap(),
            None
        );
    }

    #[test]
    fn what_the_dialect_cannot_say_is_an_error_line_for_the_page() {
        let mut bridge = OwareUci::default();
        for (line, why) in [
            (
                "setoption name Variant value standard",
                "error a UCI Oware engine plays only the variant grandslam-nocapture, not 'standard'",
            ),
            (
                "newgame avalam",
                "error a UCI Oware engine plays only awale",
            ),
            (
                "legal",
                "error 'legal' is not in the Oware UCI dialect this engine speaks",
            ),
            (
                "position ...../..... 1",
                "error position: '...../..... 1' is not an Awale position",
            ),
            ("hello", "error unknown command 'hello'"),
        ] {
            let error = bridge.to_engine(line).unwrap_err();
            assert!(error.starts_with(why), "{line}: {error}");
        }
    }

    #[test]
    fn engine_replies_print_as_pions() {
        let mut bridge = OwareUci::default();
        assert_eq!(bridge.to_page("id name Aalina 2"), ["id name Aalina 2"]);
        assert_eq!(
            bridge.to_page("option name OwnBook type check default true"),
            ["option name OwnBook type check default true"]
        );
        assert_eq!(
            bridge.to_page("uciok"),
            [
                "option name Variant type combo default grandslam-nocapture var grandslam-nocapture",
                "game awale",
                "pionok"
            ]
        );
        assert_eq!(bridge.to_page("readyok"), ["readyok"]);
        assert_eq!(
            bridge.to_page(
                "info depth 6 seldepth 9 score cp 35 nodes 1000 nps 100000 time 10 pv FfE"
            ),
            ["info depth 6 seldepth 9 score cp 35 nodes 1000 nps 100000 time 10 pv F f E"]
        );
        assert_eq!(
            bridge.to_page("info depth 8 score cp 10400 lowerbound nodes 10 time 1 pv Aa"),
            ["info depth 8 score win 4 lowerbound nodes 10 nps 10000 time 1 pv A a"]
        );
        assert_eq!(
            bridge.to_page("info depth 8 score cp -10200 nodes 10 time 1"),
            ["info depth 8 score loss 2 nodes 10 nps 10000 time 1"]
        );
        assert_eq!(bridge.to_page("info string hello"), ["info string hello"]);
        assert_eq!(bridge.to_page("bestmove F ponder f"), ["bestmove F"]);
        assert_eq!(bridge.to_page(""), Vec::<String>::new());
        assert_eq!(bridge.to_page("what?"), ["what?"]);
    }

    #[test]
    fn no_move_is_none_only_where_the_game_ends() {
        let mut bridge = OwareUci::default();
        // Nothing known: 0000 stays the illegal move it is.
        assert_eq!(bridge.to_page("bestmove 0000"), ["bestmove 0000"]);
        sent(&mut bridge, "position startpos moves A b");
        assert_eq!(bridge.to_page("bestmove 0000"), ["bestmove 0000"]);
        // South cannot feed North, which has no seed: the abapa rules end the game here.
        sent(&mut bridge, "position 1,1,0,0,1,0/0,0,0,0,0,0/21,24 1");
        assert_eq!(bridge.to_page("bestmove 0000"), ["bestmove none"]);
        // Over by captures.
        sent(&mut bridge, "position 0,0,0,0,4,0/0,0,0,0,4,0/25,15 1");
        assert_eq!(bridge.to_page("bestmove 0000"), ["bestmove none"]);
        sent(&mut bridge, "newgame awale");
        assert_eq!(bridge.to_page("bestmove 0000"), ["bestmove 0000"]);
    }
}
