//! The engine the terminal game plays against: a child `pion` process spoken to through the
//! protocol, as any front end does, with a deadline on every reply. The process itself is
//! pion's one process layer (`pion-process`): its own group, capped lines, no orphan.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use pion_process::{Launch, Output, Process, ReadError};
use pion_protocol::{Command, EngineScore, GoParams, Heard, Info, Status, parse_heard};

/// How long a reply that needs no search may take (a loaded machine, a large `Hash` to clear).
const REPLY_DEADLINE: Duration = Duration::from_secs(30);

/// The longest reply line kept: no reply of the protocol comes near it.
const MAX_LINE: usize = 64 * 1024;

/// A running engine process.
pub struct Engine {
    process: Process,
}

/// What a search answered: its move and the score of its last `info` line.
pub struct Answer {
    /// The move, or `none` on a finished game.
    pub best: String,
    /// The score of the last `info` line that had one.
    pub score: Option<EngineScore>,
}

impl Engine {
    /// Starts this program again with no arguments (the protocol loop) and checks that it
    /// answers `pion` with `pionok`.
    pub fn start() -> Result<Engine> {
        let exe = std::env::current_exe().context("cannot find the pion program to start")?;
        let command = [exe.to_string_lossy().into_owned()];
        let process = Process::spawn(
            &Launch {
                name: "pion",
                command: &command,
                dir: None,
                log: None,
                hold: None,
                max_line: MAX_LINE,
                interrupt: None,
            },
            Output::Pull,
        )?;
        let mut engine = Engine { process };
        engine.send(&Command::Pion)?;
        engine.read_until(|h| *h == Heard::PionOk, REPLY_DEADLINE)?;
        Ok(engine)
    }

    /// Sends one command, printed by the protocol crate.
    pub fn send(&mut self, command: &Command) -> Result<()> {
        self.process
            .send_line(&command.to_string())
            .map_err(|e| anyhow!("the engine cannot be sent '{command}': {e}"))
    }

    /// The next reply line, within `wait`.
    fn recv(&mut self, wait: Duration) -> Result<String> {
        match self.process.read_line(Instant::now() + wait) {
            Ok((line, _)) => Ok(line),
            Err(ReadError::Timeout) => bail!("the engine did not answer within {wait:?}"),
            Err(ReadError::Exited(note)) => bail!("the engine exited{note}"),
            Err(ReadError::Interrupted) => bail!("interrupted"),
        }
    }

    /// Reads replies up to the first that `last` accepts; returns them all, parsed.
    fn read_until(&mut self, last: impl Fn(&Heard) -> bool, wait: Duration) -> Result<Vec<Heard>> {
        let deadline = Instant::now() + wait;
        let mut heard = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let reply = parse_heard(&self.recv(left)?);
            let done = last(&reply);
            heard.push(reply);
            if done {
                return Ok(heard);
            }
        }
    }

    /// Sends a command that prints nothing on success; returns the engine's `error` reply, without
    /// its `error ` prefix, as `Err`.
    pub fn command(&mut self, command: &Command) -> Result<std::result::Result<(), String>> {
        self.send(command)?;
        self.send(&Command::IsReady)?;
        let heard = self.read_until(|h| *h == Heard::ReadyOk, REPLY_DEADLINE)?;
        Ok(match heard.into_iter().find_map(error_of) {
            Some(error) => Err(error),
            None => Ok(()),
        })
    }

    /// Sends a command and returns its one reply, which `pick` must accept.
    fn ask<T>(&mut self, command: &Command, pick: impl Fn(Heard) -> Option<T>) -> Result<T> {
        self.send(command)?;
        let line = self.recv(REPLY_DEADLINE)?;
        pick(parse_heard(&line))
            .ok_or_else(|| anyhow!("the engine answered '{command}' with '{line}'"))
    }

    /// The state of the game: whose turn, the score, the result.
    pub fn status(&mut self) -> Result<Status> {
        self.ask(&Command::Status, |heard| match heard {
            Heard::Status(status) => Some(status),
            _ => None,
        })
    }

    /// The legal moves.
    pub fn legal(&mut self) -> Result<Vec<String>> {
        self.ask(&Command::Legal, |heard| match heard {
            Heard::Legal(moves) => Some(moves),
            _ => None,
        })
    }

    /// The position string of the current position (the last line of `show`).
    pub fn position(&mut self) -> Result<String> {
        self.send(&Command::Show)?;
        let heard = self.read_until(|h| matches!(h, Heard::Position(_)), REPLY_DEADLINE)?;
        match heard.into_iter().last() {
            Some(Heard::Position(position)) => Ok(position),
            _ => unreachable!("read_until ends with the reply it waits for"),
        }
    }

    /// Searches the current position for `movetime_ms` and returns the move and its score.
    pub fn search(&mut self, movetime_ms: u64) -> Result<Answer> {
        let go = Command::Go(GoParams {
            movetime: Some(movetime_ms),
            ..GoParams::default()
        });
        self.send(&go)?;
        let wait = Duration::from_millis(movetime_ms) + REPLY_DEADLINE;
        let heard = self.read_until(|h| matches!(h, Heard::BestMove(_)), wait)?;
        if let Some(error) = heard.iter().cloned().find_map(error_of) {
            bail!("the engine answered 'go' with 'error {error}'");
        }
        let score = heard.iter().rev().find_map(|h| match h {
            Heard::Info(Info { score, .. }) => *score,
            _ => None,
        });
        let best = match heard.into_iter().last() {
            Some(Heard::BestMove(best)) => best.unwrap_or_else(|| "none".to_string()),
            _ => unreachable!("read_until ends with the reply it waits for"),
        };
        Ok(Answer { best, score })
    }
}

/// The message of an `error` reply.
fn error_of(heard: Heard) -> Option<String> {
    match heard {
        Heard::Error(message) => Some(message),
        _ => None,
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send(&Command::Quit);
        self.process.close(Duration::from_secs(1));
    }
}
