//! The engine the terminal game plays against: a child `pion` process spoken to through the
//! protocol, as any front end does, with a deadline on every reply.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};

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
    /// The words after `score` in the last info line that had one (`cp 35`, `win 3 lowerbound`).
    pub score: Option<String>,
}

impl Engine {
    /// Starts this program again with no arguments (the protocol loop) and checks that it
    /// answers `pion` with `pionok`.
    pub fn start() -> Result<Engine> {
        let exe = std::env::current_exe().context("cannot find the pion program to start")?;
        let mut child = Command::new(&exe)
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
        engine.send("pion")?;
        engine.read_until("pionok", REPLY_DEADLINE)?;
        Ok(engine)
    }

    /// Sends one command line.
    pub fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}")
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

    /// Reads reply lines up to the first that starts with `prefix`; returns them all.
    fn read_until(&mut self, prefix: &str, wait: Duration) -> Result<Vec<String>> {
        let deadline = Instant::now() + wait;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.recv(left)?;
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return Ok(lines);
            }
        }
    }

    /// Sends a command that prints nothing on success; returns the engine's `error` reply, without
    /// its `error ` prefix, as `Err`.
    pub fn command(&mut self, line: &str) -> Result<std::result::Result<(), String>> {
        self.send(line)?;
        self.send("isready")?;
        let lines = self.read_until("readyok", REPLY_DEADLINE)?;
        Ok(match lines.iter().find_map(|l| l.strip_prefix("error ")) {
            Some(error) => Err(error.to_string()),
            None => Ok(()),
        })
    }

    /// Sends a command and returns its one reply line, which must start with `prefix`.
    pub fn ask(&mut self, line: &str, prefix: &str) -> Result<String> {
        self.send(line)?;
        let reply = self.recv(REPLY_DEADLINE)?;
        if !reply.starts_with(prefix) {
            bail!("the engine answered '{line}' with '{reply}'");
        }
        Ok(reply)
    }

    /// The position string of the current position (the last line of `show`).
    pub fn position(&mut self) -> Result<String> {
        self.send("show")?;
        let lines = self.read_until("position ", REPLY_DEADLINE)?;
        let last = lines.last().expect("read_until returns its last line");
        Ok(last["position ".len()..].to_string())
    }

    /// Searches the current position for `movetime_ms` and returns the move and its score.
    pub fn search(&mut self, movetime_ms: u64) -> Result<Answer> {
        self.send(&format!("go movetime {movetime_ms}"))?;
        let wait = Duration::from_millis(movetime_ms) + REPLY_DEADLINE;
        let lines = self.read_until("bestmove", wait)?;
        if let Some(error) = lines.iter().find(|l| l.starts_with("error ")) {
            bail!("the engine answered 'go' with '{error}'");
        }
        let best = lines.last().expect("read_until returns its last line");
        let best = best.split_whitespace().nth(1).unwrap_or("none").to_string();
        let score = lines.iter().rev().find_map(|line| score_of(line));
        Ok(Answer { best, score })
    }
}

/// The score of an `info` line: the words after `score` up to the next field.
fn score_of(line: &str) -> Option<String> {
    let rest = line.strip_prefix("info ")?.split_once(" score ")?.1;
    let words: Vec<&str> = rest
        .split_whitespace()
        .take_while(|w| {
            !matches!(
                *w,
                "nodes" | "nps" | "time" | "hashfull" | "pv" | "playouts"
            )
        })
        .collect();
    Some(words.join(" "))
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
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

#[cfg(test)]
mod tests {
    use super::score_of;

    #[test]
    fn the_score_of_an_info_line() {
        let line = "info depth 10 seldepth 10 score cp 112 lowerbound nodes 26624 pv a B";
        assert_eq!(score_of(line).as_deref(), Some("cp 112 lowerbound"));
        assert_eq!(
            score_of("info depth 3 score win 4 nodes 9").as_deref(),
            Some("win 4")
        );
        assert_eq!(score_of("info depth 0 nodes 1 pv a"), None);
        assert_eq!(score_of("bestmove a"), None);
    }
}
