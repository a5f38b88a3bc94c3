//! What the engine's end-to-end tests share: the binaries under test, a scratch directory per
//! test, and a real `pion` process driven through pipes with a deadline on every read.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::Duration;

/// The `pion` binary under test.
pub const PION: &str = env!("CARGO_BIN_EXE_pion");

/// The path of another package's binary (`referee`) built next to this test: Cargo gives a
/// test the path of its own package's binaries only. A clear failure when it was not built.
pub fn binary(name: &str) -> PathBuf {
    // The test executable is in `<target>/<profile>/deps/`; binaries are in `<profile>/`.
    let exe = std::env::current_exe().expect("the test knows its own path");
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("the test executable is in <profile>/deps/");
    let path = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "{} is missing: build it first (cargo build --workspace, or cargo test --workspace), \
         since a test builds only its own package's binaries",
        path.display()
    );
    path
}

/// A scratch directory for one test, named after it and emptied first.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pion-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// How long a test waits for one reply line before it calls the engine stuck.
pub const DEADLINE: Duration = Duration::from_secs(20);

/// A running `pion` process.
pub struct Pion {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Pion {
    /// Starts `pion` with no arguments (the protocol loop).
    pub fn start() -> Pion {
        // No default endgame databases, so no one-time hint after the handshake: the replies
        // are the same on every machine.
        Pion::start_with_env(&[("PION_EGTB", std::ffi::OsStr::new(""))])
    }

    /// Starts `pion` with these environment variables set.
    pub fn start_with_env(vars: &[(&str, &std::ffi::OsStr)]) -> Pion {
        let mut child = Command::new(PION)
            .envs(vars.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("pion starts");
        let stdin = child.stdin.take();
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
        Pion {
            child,
            stdin,
            lines,
        }
    }

    /// Sends raw bytes.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("pion reads its input");
        stdin.flush().expect("flush");
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// The next reply line; panics when none comes within the deadline.
    pub fn recv(&mut self) -> String {
        self.recv_within(DEADLINE)
            .unwrap_or_else(|| panic!("no reply from pion within {DEADLINE:?}"))
    }

    /// The next reply line, or `None` when none comes within `wait` (or pion closed stdout).
    pub fn recv_within(&mut self, wait: Duration) -> Option<String> {
        self.lines.recv_timeout(wait).ok()
    }

    /// Reads lines until one starts with `prefix`; returns all of them, that one last.
    pub fn recv_until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.recv();
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Sends a command and returns the first reply line that is not an `info` line.
    pub fn ask_skipping_info(&mut self, line: &str) -> String {
        self.send(line);
        loop {
            let reply = self.recv();
            if !reply.starts_with("info ") {
                return reply;
            }
        }
    }

    /// Sends a command and returns its one reply line.
    pub fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.recv()
    }

    /// Sends `isready` and checks that the next line is `readyok`: every earlier command was
    /// processed without printing anything.
    pub fn expect_silent(&mut self) {
        assert_eq!(self.ask("isready"), "readyok");
    }

    /// Closes stdin (end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Waits for the process to exit and returns whether it exited with status 0.
    pub fn wait_success(&mut self) -> bool {
        self.close_input();
        for _ in 0..200 {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status.success();
            }
            thread::sleep(Duration::from_millis(100));
        }
        panic!("pion did not exit within 20 s after end of input");
    }
}

impl Drop for Pion {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
