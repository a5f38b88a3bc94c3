//! The opening handshake with an engine, as a pure state machine: which protocol it speaks
//! (pion's, UGI or the Oware UCI dialect of Aualé and Aalina) and what it says about itself.
//!
//! With `proto=auto` (the default) the referee sends `pion`; an engine that answers with a line
//! that is not part of pion's answer (`error ...`, `Unknown command: pion`) or with nothing for
//! [`AUTO_WAIT`] is asked `ugi` as well, then in the same way `uci`, and the first of
//! `pionok`/`ugiok`/`uciok` to arrive decides (Aalina ignores unknown commands silently, so it
//! is asked `uci` after two silences).
//! A pion engine that was slow to answer and gets both questions answers `pionok` first, and
//! its later UGI answer is skipped by the next `isready`. `proto=pion` and `proto=ugi` ask only
//! that question.

use std::time::Duration;

use pion_protocol::{Command, Heard, parse_heard};
use serde::{Deserialize, Serialize};

/// How long an engine may stay silent after `pion` before it is asked `ugi` too.
pub const AUTO_WAIT: Duration = Duration::from_secs(1);

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Proto {
    /// pion's protocol: `pion`/`pionok`, `newgame <game>`.
    Pion,
    /// UGI: `ugi`/`ugiok`, the game as the `Game` option, `uginewgame`.
    Ugi,
    /// The Oware UCI dialect (Aualé, Aalina): `uci`/`uciok`, `ucinewgame`, dash positions, moves
    /// run together, `wtime`/`btime`; Awale `grandslam-nocapture` only.
    Uci,
}

impl Proto {
    /// The word used in `proto=` and in logs.
    pub fn as_str(self) -> &'static str {
        match self {
            Proto::Pion => "pion",
            Proto::Ugi => "ugi",
            Proto::Uci => "uci",
        }
    }

    /// The question that starts the handshake.
    fn question(self) -> Command {
        match self {
            Proto::Pion => Command::Pion,
            Proto::Ugi => Command::Ugi,
            Proto::Uci => Command::Uci,
        }
    }

    /// The line that ends the answer.
    fn answer_end(self) -> &'static str {
        match self {
            Proto::Pion => "pionok",
            Proto::Ugi => "ugiok",
            Proto::Uci => "uciok",
        }
    }
}

/// What `proto=` asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProtoChoice {
    /// Ask `pion`, fall back to `ugi`, then to `uci`.
    #[default]
    Auto,
    /// Only pion's protocol.
    Only(Proto),
}

impl ProtoChoice {
    /// Parses `auto`, `pion`, `ugi` or `uci`.
    pub fn parse(text: &str) -> Result<ProtoChoice, String> {
        match text {
            "auto" => Ok(ProtoChoice::Auto),
            "pion" => Ok(ProtoChoice::Only(Proto::Pion)),
            "ugi" => Ok(ProtoChoice::Only(Proto::Ugi)),
            "uci" => Ok(ProtoChoice::Only(Proto::Uci)),
            _ => Err(format!(
                "bad proto '{text}': expected pion, ugi, uci or auto"
            )),
        }
    }
}

/// What an engine said about itself.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// `id name`, if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `id version`, if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The games it lists (`game` lines, pion's protocol only).
    #[serde(skip)]
    pub games: Vec<String>,
    /// The names of its options.
    #[serde(skip)]
    pub options: Vec<String>,
}

/// What the caller does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Send this command, then keep reading.
    Send(Command),
    /// Keep reading.
    Read,
    /// The handshake is over: the engine speaks this protocol.
    Done(Proto),
    /// The engine cannot be played.
    Fail(String),
}

/// One handshake in progress.
#[derive(Clone, Debug)]
pub struct Handshake {
    choice: ProtoChoice,
    asked: Vec<Proto>,
    /// What the engine said about itself so far.
    pub identity: Identity,
    /// Why the engine was asked `ugi` (or `uci`) after `pion`, for the log.
    pub fallback: Option<String>,
}

impl Handshake {
    /// A handshake and the first line to send.
    pub fn start(choice: ProtoChoice) -> (Handshake, Command) {
        let first = match choice {
            ProtoChoice::Auto => Proto::Pion,
            ProtoChoice::Only(proto) => proto,
        };
        let handshake = Handshake {
            choice,
            asked: vec![first],
            identity: Identity::default(),
            fallback: None,
        };
        (handshake, first.question())
    }

    /// The protocol `proto=auto` asks next, if any is left.
    fn next_question(&self) -> Option<Proto> {
        if self.choice != ProtoChoice::Auto {
            return None;
        }
        match self.asked.last() {
            Some(Proto::Pion) => Some(Proto::Ugi),
            Some(Proto::Ugi) => Some(Proto::Uci),
            _ => None,
        }
    }

    /// Whether an automatic fallback is still possible.
    fn may_fall_back(&self) -> bool {
        self.next_question().is_some()
    }

    fn fall_back(&mut self, why: String) -> Step {
        let next = self.next_question().expect("checked by may_fall_back");
        self.asked.push(next);
        self.fallback = Some(why);
        Step::Send(next.question())
    }

    /// The question asked last, for the log.
    pub fn last_question(&self) -> &'static str {
        self.asked.last().map_or("pion", |p| p.as_str())
    }

    /// Takes one line of the engine's answer.
    pub fn line(&mut self, line: &str) -> Step {
        let heard = parse_heard(line);
        let end = match heard {
            Heard::PionOk => Some(Proto::Pion),
            Heard::UgiOk => Some(Proto::Ugi),
            Heard::UciOk => Some(Proto::Uci),
            _ => None,
        };
        if let Some(proto) = end.filter(|p| self.asked.contains(p)) {
            return Step::Done(proto);
        }
        match heard {
            Heard::Id { field, value } if field == "name" => self.identity.name = Some(value),
            Heard::Id { field, value } if field == "version" => self.identity.version = Some(value),
            Heard::Id { .. } => {}
            Heard::Game(name) => self.identity.games.push(name),
            Heard::Option(name) if !self.identity.options.contains(&name) => {
                self.identity.options.push(name)
            }
            Heard::Option(_) => {}
            Heard::Info(_) | Heard::InfoString(_) => {}
            Heard::Other if line.trim().is_empty() => {}
            _ if self.may_fall_back() => {
                let shown = pion_rules::game::shorten(line);
                let asked = self.last_question();
                return self.fall_back(format!("it answered {asked} with '{shown}'"));
            }
            Heard::Error(_) if self.choice == ProtoChoice::Only(Proto::Pion) => {
                return Step::Fail(format!(
                    "answered pion with '{}'",
                    pion_rules::game::shorten(line)
                ));
            }
            // Banners and unknown lines are tolerated, as fastchess does.
            _ => {}
        }
        Step::Read
    }

    /// Says that [`AUTO_WAIT`] passed with no end of the answer.
    pub fn silence(&mut self) -> Step {
        if self.may_fall_back() {
            let wait = AUTO_WAIT.as_millis();
            let asked = self.last_question();
            self.fall_back(format!("it did not answer {asked} within {wait} ms"))
        } else {
            Step::Read
        }
    }

    /// What the engine was asked, for the message of a handshake that timed out.
    pub fn waiting_for(&self) -> String {
        let ends: Vec<&str> = self.asked.iter().map(|p| p.answer_end()).collect();
        let asked: Vec<&str> = self.asked.iter().map(|p| p.as_str()).collect();
        format!(
            "{} (the answer to {})",
            ends.join(" or "),
            asked.join(" and ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pion_engine_answers_pion() {
        let (mut h, first) = Handshake::start(ProtoChoice::Auto);
        assert_eq!(first, Command::Pion);
        for line in [
            "id name pion",
            "id version 0.1.0",
            "id author the pion developers",
            "game avalam",
            "game awale",
            "option name Seed type spin default 0 min 0 max 4294967295",
        ] {
            assert_eq!(h.line(line), Step::Read);
        }
        assert_eq!(h.line("pionok"), Step::Done(Proto::Pion));
        assert_eq!(h.identity.name.as_deref(), Some("pion"));
        assert_eq!(h.identity.version.as_deref(), Some("0.1.0"));
        assert_eq!(h.identity.games, ["avalam", "awale"]);
        assert_eq!(h.identity.options, ["Seed"]);
        assert_eq!(h.fallback, None);
    }

    #[test]
    fn an_engine_that_rejects_pion_is_asked_ugi() {
        let (mut h, _) = Handshake::start(ProtoChoice::Auto);
        assert_eq!(h.line("info string unknown command: pion"), Step::Read);
        assert_eq!(h.line("Unknown command: pion"), Step::Send(Command::Ugi));
        assert_eq!(
            h.fallback.as_deref(),
            Some("it answered pion with 'Unknown command: pion'")
        );
        assert_eq!(h.line("id name ugimock"), Step::Read);
        assert_eq!(h.line("ugiok"), Step::Done(Proto::Ugi));
        assert_eq!(h.identity.name.as_deref(), Some("ugimock"));
        assert_eq!(
            h.waiting_for(),
            "pionok or ugiok (the answer to pion and ugi)"
        );
    }

    #[test]
    fn a_silent_engine_is_asked_ugi_once() {
        let (mut h, _) = Handshake::start(ProtoChoice::Auto);
        assert_eq!(h.silence(), Step::Send(Command::Ugi));
        assert_eq!(h.silence(), Step::Send(Command::Uci));
        assert_eq!(h.silence(), Step::Read);
        assert_eq!(h.line("error what"), Step::Read);
        // A slow pion engine answers both; its pionok comes first and decides.
        assert_eq!(h.line("id name slow"), Step::Read);
        assert_eq!(h.line("pionok"), Step::Done(Proto::Pion));
    }

    #[test]
    fn a_fixed_protocol_asks_only_its_question() {
        let (mut h, first) = Handshake::start(ProtoChoice::Only(Proto::Ugi));
        assert_eq!(first, Command::Ugi);
        assert_eq!(h.silence(), Step::Read);
        assert_eq!(h.line("pionok"), Step::Read);
        assert_eq!(h.line("ugiok"), Step::Done(Proto::Ugi));

        let (mut h, first) = Handshake::start(ProtoChoice::Only(Proto::Pion));
        assert_eq!(first, Command::Pion);
        assert_eq!(h.silence(), Step::Read);
        assert_eq!(h.line("My engine 1.0 by me"), Step::Read);
        assert_eq!(
            h.line("error unknown command pion"),
            Step::Fail("answered pion with 'error unknown command pion'".into())
        );
    }

    #[test]
    fn proto_parses() {
        assert_eq!(ProtoChoice::parse("auto"), Ok(ProtoChoice::Auto));
        assert_eq!(ProtoChoice::parse("ugi"), Ok(ProtoChoice::Only(Proto::Ugi)));
        assert_eq!(ProtoChoice::parse("uci"), Ok(ProtoChoice::Only(Proto::Uci)));
        assert_eq!(
            ProtoChoice::parse("xboard").unwrap_err(),
            "bad proto 'xboard': expected pion, ugi, uci or auto"
        );
    }

    #[test]
    fn a_silent_uci_engine_is_asked_ugi_then_uci() {
        let (mut h, first) = Handshake::start(ProtoChoice::Auto);
        assert_eq!(first, Command::Pion);
        assert_eq!(h.silence(), Step::Send(Command::Ugi));
        assert_eq!(h.silence(), Step::Send(Command::Uci));
        assert_eq!(
            h.fallback.as_deref(),
            Some("it did not answer ugi within 1000 ms")
        );
        assert_eq!(h.silence(), Step::Read);
        assert_eq!(h.line("id name Aalina 2.2"), Step::Read);
        assert_eq!(
            h.line("option name Hash type spin default 8 min 1 max 64"),
            Step::Read
        );
        assert_eq!(h.line("uciok"), Step::Done(Proto::Uci));
        assert_eq!(h.identity.name.as_deref(), Some("Aalina 2.2"));
        assert_eq!(
            h.waiting_for(),
            "pionok or ugiok or uciok (the answer to pion and ugi and uci)"
        );
        // An engine that rejects ugi in words is asked uci at once.
        let (mut h, _) = Handshake::start(ProtoChoice::Auto);
        assert_eq!(h.line("error no"), Step::Send(Command::Ugi));
        assert_eq!(h.line("Unknown command: ugi"), Step::Send(Command::Uci));
        assert_eq!(h.line("uciok"), Step::Done(Proto::Uci));
        // proto=uci asks only uci.
        let (mut h, first) = Handshake::start(ProtoChoice::Only(Proto::Uci));
        assert_eq!(first, Command::Uci);
        assert_eq!(h.silence(), Step::Read);
        assert_eq!(h.line("ugiok"), Step::Read);
        assert_eq!(h.line("uciok"), Step::Done(Proto::Uci));
    }
}
