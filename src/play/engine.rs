//! The engine the terminal game plays against: a child `pion` process spoken to through the
//! protocol, as any front end does, with a deadline on every reply.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use pion_protocol::{Command, EngineScore, GoParams, Heard, Info, Status, parse_heard};

/// How long a reply that needs no search may take (a loaded machine, a large `Hash` to clear).
const REPLY_DEADLINE: Duration = Duration::from_secs(30);

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
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
        let mut child = std::process::Command::new(&exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start {}", exe.display()))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines,
        };
        engine.send(&Command::Pion)?;
        engine.read_until(|h| *h == Heard::PionOk, REPLY_DEADLINE)?;
        Ok(engine)
    }

    /// Sends one command, printed by the protocol crate.
    pub fn send(&mut self, command: &Command) -> Result<()> {
        writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| anyhow!("the engine exited"))
    }

    /// The next reply line, within `wait`.
    fn recv(&mut self, wait: Duration) -> Result<String> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => bail!("the engine did not answer within {wait:?}"),
            Err(RecvTimeoutError::Disconnected) => bail!("the engine exited"),
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
        let deadline = Instant::now() + Duration::from_secs(1);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
