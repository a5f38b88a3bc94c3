//! One engine: the conversation of pion's protocol (or UGI, or the Oware UCI dialect) with a
//! program run by [`pion_process`], every wait with a deadline, and every fault classified as
//! the records
//! need it (a crash, a timeout, a protocol error).

pub mod handshake;
pub mod pool;
pub mod seat;
pub mod signal;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pion_protocol::engine_info::MoveData;
use pion_protocol::{Command, GoParams, Heard, parse_heard, uci_command_text};
use pion_rules::GameKind;

use crate::config::EngineSpec;
use crate::engine::handshake::{AUTO_WAIT, Handshake, Identity, Proto, Step};
use crate::run::openings::Opening;
use pion_process::{Launch, Output, Process, ReadError, SendError};

/// A line longer than this is cut: no reply of the protocol comes near it, and it bounds memory.
const MAX_LINE: usize = 64 * 1024;

/// What went wrong with an engine, classified as the records need it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The program could not be started at all (not found, not executable, bad directory).
    #[error("{0}")]
    Spawn(String),
    /// No answer before the deadline.
    #[error("{0}")]
    Timeout(String),
    /// The process exited or closed its output.
    #[error("{0}")]
    Crash(String),
    /// The engine said something the protocol does not allow here.
    #[error("{0}")]
    Protocol(String),
    /// The referee was interrupted (Ctrl-C) while waiting.
    #[error("interrupted")]
    Interrupted,
}

/// A `bestmove` reply: the move text and when its line was read.
#[derive(Clone, Debug)]
pub struct BestMove {
    /// The move as the engine wrote it (`none` included).
    pub text: String,
    /// When the reader thread got the line: the clock stops here, not when we look at it.
    pub at: Instant,
    /// What the engine's `info` lines said during the search.
    pub data: MoveData,
}

/// A running engine.
pub struct Engine {
    name: String,
    process: Process,
    /// What the handshake told.
    pub identity: Identity,
    /// The protocol it speaks (known after the handshake).
    pub proto: Proto,
}

/// Whether a line is a search report, of which the log keeps only the last before another line.
fn is_info(line: &str) -> bool {
    matches!(parse_heard(line), Heard::Info(_))
}

impl Engine {
    /// Starts the program of `spec` in its own process group, stderr and the protocol traffic
    /// appended to `log_path` (its `info` lines all with `all_info`, otherwise the last before
    /// each other line). Only a failure to start the program at all is an error here; the
    /// handshake is separate.
    pub fn spawn(
        spec: &EngineSpec,
        log_path: &Path,
        all_info: bool,
    ) -> Result<Engine, EngineError> {
        let process = Process::spawn(
            &Launch {
                name: &spec.name,
                command: &spec.command,
                dir: spec.dir.as_deref(),
                log: Some(log_path),
                hold: if all_info { None } else { Some(is_info) },
                max_line: MAX_LINE,
                interrupt: Some(crate::engine::signal::interrupted),
            },
            Output::Pull,
        )
        .map_err(|e| EngineError::Spawn(e.to_string()))?;
        Ok(Engine {
            name: spec.name.clone(),
            process,
            identity: Identity::default(),
            proto: Proto::Pion,
        })
    }

    /// The engine's name in the match.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The process id (also its process group id).
    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    /// Sends one command, printed by the printer of the engine's protocol.
    pub fn send(&mut self, command: &Command) -> Result<(), EngineError> {
        let line = match self.proto {
            Proto::Uci => uci_command_text(command),
            Proto::Pion | Proto::Ugi => command.to_string(),
        };
        self.process.send_line(&line).map_err(|e| match e {
            SendError::Closed => EngineError::Crash("its input is closed".into()),
            SendError::Exited(note) => {
                EngineError::Crash(format!("exited before reading '{line}'{note}"))
            }
            SendError::Stalled => EngineError::Timeout(format!(
                "stopped reading its input (before '{}')",
                pion_rules::game::shorten(&line)
            )),
        })
    }

    /// The next line and when it was read, or an error at `deadline`, when the engine has
    /// exited (see [`Process::read_line`]), or on Ctrl-C.
    pub fn read_line(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
    ) -> Result<(String, Instant), EngineError> {
        self.process.read_line(deadline).map_err(|e| match e {
            ReadError::Timeout => EngineError::Timeout(format!("sent no {waiting_for} in time")),
            // No exit status within a moment of the end of output: the engine still runs and
            // only closed its output.
            ReadError::Exited(note) if note.is_empty() && self.process.is_running() => {
                EngineError::Crash(format!(
                    "closed its output while the referee waited for {waiting_for}"
                ))
            }
            ReadError::Exited(note) => EngineError::Crash(format!(
                "exited while the referee waited for {waiting_for}{note}"
            )),
            ReadError::Interrupted => EngineError::Interrupted,
        })
    }

    /// Throws away lines the engine sent unasked (late `info` lines), noticing an exit and a
    /// `bestmove` nobody asked for.
    pub fn drain(&mut self) -> Result<(), EngineError> {
        loop {
            match self.process.try_line() {
                Ok(None) => return Ok(()),
                Ok(Some(line)) if is_bestmove(&line) => return Err(unasked_bestmove(&line)),
                Ok(Some(_)) => {}
                Err(note) => {
                    return Err(EngineError::Crash(format!("exited between commands{note}")));
                }
            }
        }
    }

    /// The handshake of `spec.proto` (see [`Handshake`]), all before `deadline`. A fallback
    /// from pion's protocol to UGI is noted in the log.
    pub fn handshake(&mut self, spec: &EngineSpec, deadline: Instant) -> Result<(), EngineError> {
        let (mut handshake, first) = Handshake::start(spec.proto);
        self.send(&first)?;
        let mut quiet_until = Some(Instant::now() + AUTO_WAIT);
        let proto = loop {
            let wait = quiet_until.map_or(deadline, |q| q.min(deadline));
            let step = match self.read_line(wait, &handshake.waiting_for()) {
                Ok((line, _)) => handshake.line(&line),
                Err(EngineError::Timeout(_)) if quiet_until.is_some_and(|q| q < deadline) => {
                    quiet_until = None;
                    handshake.silence()
                }
                Err(error) => return Err(error),
            };
            match step {
                Step::Send(line) => {
                    self.note(&format!(
                        "{}: asking {}",
                        handshake.fallback.as_deref().unwrap_or("no answer"),
                        handshake.last_question()
                    ));
                    self.send(&line)?;
                    // The next question gets its own quiet time.
                    quiet_until = Some(Instant::now() + AUTO_WAIT);
                }
                Step::Read => {}
                Step::Done(proto) => break proto,
                Step::Fail(why) => return Err(EngineError::Protocol(why)),
            }
        };
        self.note(&format!("speaks {}", proto.as_str()));
        self.proto = proto;
        self.identity = handshake.identity;
        if handshake.fallback.is_some() {
            // Asked both questions: the answer to the other one (its ugiok, or an `error` from
            // an engine that does not know it) comes before the readyok of this round trip.
            self.send(&Command::IsReady)?;
            while parse_heard(
                &self
                    .read_line(deadline, "readyok (the answer to isready)")?
                    .0,
            ) != Heard::ReadyOk
            {}
        }
        Ok(())
    }

    /// Writes a referee's note into the engine's log.
    fn note(&mut self, text: &str) {
        self.process.note(text);
    }

    /// Starts a new game of `game`: `newgame <game>`, or `uginewgame` for a UGI engine (whose
    /// game is its `Game` option, set when it was configured).
    pub fn new_game(&mut self, game: GameKind) -> Result<(), EngineError> {
        match self.proto {
            Proto::Pion => self.send(&Command::NewGame(Some(game))),
            Proto::Ugi | Proto::Uci => self.send(&Command::UgiNewGame),
        }
    }

    /// Sends the `position` command of `opening` followed by `later` moves, written as this
    /// engine's protocol wants it: UGI names a position string with `fen`.
    pub fn position(&mut self, opening: &Opening, later: &[String]) -> Result<(), EngineError> {
        self.send(&opening.position_command(later, self.proto != Proto::Pion))
    }

    /// `isready` -> `readyok` before `deadline`. An `error` line on the way is returned as a
    /// protocol error (it answers a command sent just before, such as `setoption`).
    pub fn is_ready(&mut self, deadline: Instant) -> Result<(), EngineError> {
        self.send(&Command::IsReady)?;
        loop {
            let (line, _) = self.read_line(deadline, "readyok (the answer to isready)")?;
            match parse_heard(&line) {
                Heard::ReadyOk => return Ok(()),
                Heard::Error(_) => {
                    // Long enough to keep what the engine says is wrong.
                    return Err(EngineError::Protocol(format!(
                        "said '{}'",
                        pion_rules::game::shorten_to(&line, 200)
                    )));
                }
                // Late `info` lines or a stale `bestmove` of an earlier search: not for us.
                _ => {}
            }
        }
    }

    /// Sends `setoption` and checks, with an `isready` round trip, that it was accepted.
    pub fn set_option(
        &mut self,
        name: &str,
        value: &str,
        deadline: Instant,
    ) -> Result<(), EngineError> {
        self.send(&Command::SetOption {
            name: name.to_string(),
            value: Some(value.to_string()),
        })?;
        self.is_ready(deadline).map_err(|e| match e {
            EngineError::Protocol(what) => {
                EngineError::Protocol(format!("rejected setoption {name}={value}: it {what}"))
            }
            other => other,
        })
    }

    /// Sends `go ...` and waits for `bestmove` until `deadline`, skipping `info` lines.
    pub fn go(&mut self, params: GoParams, deadline: Instant) -> Result<BestMove, EngineError> {
        self.drain()?;
        // A line read before `go` was written cannot answer it.
        let asked = Instant::now();
        self.send(&Command::Go(params))?;
        let mut data = MoveData::default();
        loop {
            let (line, at) = self.read_line(deadline, "bestmove")?;
            match parse_heard(&line) {
                Heard::Info(_) => data.update(&line),
                Heard::InfoString(_) => {}
                Heard::Other if line.trim().is_empty() => {}
                Heard::BestMove(_) | Heard::Malformed(_) if at < asked => {
                    return Err(unasked_bestmove(&line));
                }
                Heard::BestMove(mv) => {
                    return Ok(BestMove {
                        text: mv.unwrap_or_else(|| "none".to_string()),
                        at,
                        data,
                    });
                }
                Heard::Malformed(why) => {
                    return Err(EngineError::Protocol(format!(
                        "sent '{}': {why}",
                        pion_rules::game::shorten(&line)
                    )));
                }
                // An engine that cannot move says why (a wrapped course agent that raised): the
                // record keeps its reason.
                Heard::Error(why) => {
                    return Err(EngineError::Protocol(format!(
                        "answered go with an error: {}",
                        pion_rules::game::shorten_to(&why, 200)
                    )));
                }
                _ => {
                    return Err(EngineError::Protocol(format!(
                        "sent '{}' instead of bestmove",
                        pion_rules::game::shorten(&line)
                    )));
                }
            }
        }
    }

    /// Asks the engine to quit, waits up to `grace` for it, then kills its whole process group.
    pub fn shutdown(&mut self, grace: Duration) {
        if self.process.reaped() {
            return;
        }
        let _ = self.send(&Command::Quit);
        self.process.close(grace);
    }

    /// Kills the process group (the engine and anything it started) and reaps the engine.
    pub fn kill(&mut self) {
        self.process.kill();
    }
}

fn is_bestmove(line: &str) -> bool {
    matches!(parse_heard(line), Heard::BestMove(_) | Heard::Malformed(_))
}

/// The error for a `bestmove` sent when the engine was not searching: a second one for one `go`.
fn unasked_bestmove(line: &str) -> EngineError {
    EngineError::Protocol(format!(
        "sent '{}' while not asked to move (a second bestmove for one go?)",
        pion_rules::game::shorten(line)
    ))
}

/// The log file of an engine in a worker: one file per engine name and worker.
pub fn log_path(dir: &Path, name: &str, worker: usize) -> PathBuf {
    dir.join(format!("{name}.{worker}.log"))
}
