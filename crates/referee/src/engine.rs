//! One engine process: spawning it in its own process group, talking the protocol with a deadline
//! on every read, and making sure it and its children are gone when we are done with it.
//!
//! A reader thread turns the engine's stdout into a channel of lines, so that every wait is a
//! `recv_timeout` and a silent or stuck engine can never block the referee. Stderr goes straight
//! to the engine's log file (no pipe to fill), and the protocol traffic is logged there too.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{self, Child, ChildStdin, ChildStdout, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::thread;
use std::time::{Duration, Instant};

use pion_protocol::engine_info::MoveData;
use pion_protocol::{Command, GoParams, Heard, parse_heard};
use pion_rules::GameKind;

use super::config::EngineSpec;
use super::handshake::{AUTO_WAIT, Handshake, Identity, Proto, Step};
use super::openings::Opening;
use super::signal;

/// A line longer than this is cut: no reply of the protocol comes near it, and it bounds memory.
const MAX_LINE: u64 = 64 * 1024;
/// How often a wait wakes up to look at the Ctrl-C flag.
const POLL: Duration = Duration::from_millis(25);
/// Lines read this long after an engine's exit was seen still count: it wrote them before.
const EXIT_GRACE: Duration = Duration::from_millis(100);

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

enum Event {
    Line(String, Instant),
    Eof,
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

/// A running engine process.
pub struct Engine {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    log: Option<File>,
    reaped: bool,
    /// When the process was first seen to have exited (see [`Engine::read_line`]).
    exit_seen: Option<Instant>,
    /// What the handshake told.
    pub identity: Identity,
    /// The protocol it speaks (known after the handshake).
    pub proto: Proto,
}

/// Opens (appending) the log file of an engine, creating its directory.
fn open_log(path: &Path) -> Result<File, EngineError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| {
            EngineError::Spawn(format!(
                "cannot create log directory {}: {e}",
                dir.display()
            ))
        })?;
    }
    File::options()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| EngineError::Spawn(format!("cannot open log {}: {e}", path.display())))
}

/// An engine's stdout that remembers when it last delivered bytes. A line is stamped with the
/// time of the read that brought its end, not with the time the reader thread got round to it:
/// two lines that came in one write are stamped alike, however late the thread looks at the
/// second (a `bestmove` sent twice for one `go` must not pass for the answer to the next).
struct TimedRead<R> {
    inner: R,
    last_read: Instant,
}

impl<R: Read> Read for TimedRead<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.last_read = Instant::now();
        Ok(n)
    }
}

/// Reads one line into `buf`, keeping its first [`MAX_LINE`] bytes: the rest of a longer line
/// is read and dropped, so that it never comes back as lines of its own. `None` at the end of
/// the output; otherwise whether the line was cut.
fn read_capped_line(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> Option<bool> {
    buf.clear();
    let n = reader.take(MAX_LINE).read_until(b'\n', buf).ok()?;
    if n == 0 {
        return None;
    }
    let cut = n as u64 == MAX_LINE && buf.last() != Some(&b'\n');
    if cut {
        while let Ok(rest) = reader.fill_buf() {
            if rest.is_empty() {
                break;
            }
            match rest.iter().position(|&b| b == b'\n') {
                Some(end) => {
                    reader.consume(end + 1);
                    break;
                }
                None => {
                    let len = rest.len();
                    reader.consume(len);
                }
            }
        }
    }
    Some(cut)
}

/// Reads the engine's stdout into events, logging each line; unless `all_info`, an `info` line
/// is logged only when the next line of another kind comes (or the output ends), and only if
/// no later `info` line came first: a search's last report, not the hundreds before it.
fn read_lines(stdout: ChildStdout, tx: SyncSender<Event>, mut log: Option<File>, all_info: bool) {
    let mut reader = BufReader::new(TimedRead {
        inner: stdout,
        last_read: Instant::now(),
    });
    let mut buf = Vec::new();
    let mut held: Option<String> = None;
    loop {
        match read_capped_line(&mut reader, &mut buf) {
            None => {
                if let (Some(log), Some(info)) = (log.as_mut(), held.take()) {
                    let _ = log.write_all(info.as_bytes());
                }
                let _ = tx.send(Event::Eof);
                return;
            }
            Some(cut) => {
                let at = reader.get_ref().last_read;
                let line = String::from_utf8_lossy(&buf)
                    .trim_end_matches(['\n', '\r'])
                    .to_string();
                if let Some(log) = log.as_mut() {
                    let note = if cut { " [line cut at 64 KiB]" } else { "" };
                    let entry = format!("{} < {line}{note}\n", stamp(at));
                    if !all_info && matches!(parse_heard(&line), Heard::Info(_)) {
                        held = Some(entry);
                    } else {
                        let entry = held.take().unwrap_or_default() + &entry;
                        let _ = log.write_all(entry.as_bytes());
                    }
                }
                if tx.send(Event::Line(line, at)).is_err() {
                    return;
                }
            }
        }
    }
}

/// Copies the engine's stderr into its log, a line at a time marked `! `, so that it never
/// splits the protocol lines written there by the other threads (each line is one append).
fn copy_stderr(stderr: std::process::ChildStderr, mut log: File) {
    let mut reader = BufReader::new(stderr);
    let mut buf = Vec::new();
    loop {
        match read_capped_line(&mut reader, &mut buf) {
            None => return,
            Some(_) => {
                let line = String::from_utf8_lossy(&buf);
                let line = line.trim_end_matches(['\n', '\r']);
                let _ = log.write_all(format!("{} ! {line}\n", stamp(Instant::now())).as_bytes());
            }
        }
    }
}

impl Engine {
    /// Starts the program of `spec` in its own process group, stderr and the protocol traffic
    /// appended to `log_path` (its `info` lines all with `all_info`, otherwise the last before
    /// each other line, see `read_lines`). Only a failure to start the program at all is an
    /// error here; the handshake is separate.
    pub fn spawn(
        spec: &EngineSpec,
        log_path: &Path,
        all_info: bool,
    ) -> Result<Engine, EngineError> {
        let log = open_log(log_path)?;
        let stderr_log = log
            .try_clone()
            .map_err(|e| EngineError::Spawn(format!("cannot share log file: {e}")))?;
        let mut command = process::Command::new(&spec.command[0]);
        command
            .args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own group: a Ctrl-C at the terminal does not reach it behind our back, and
            // killpg takes down whatever it started too.
            .process_group(0);
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        #[cfg(target_os = "linux")]
        // SAFETY: prctl is async-signal-safe and touches no memory of the parent. It asks the
        // kernel to kill the engine if the referee dies without cleaning up (e.g. SIGKILL).
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let shown = shlex::try_join(spec.command.iter().map(String::as_str))
            .unwrap_or_else(|_| spec.command.join(" "));
        let mut child = command.spawn().map_err(|e| {
            let place = spec
                .dir
                .as_ref()
                .map(|d| format!(" in {}", d.display()))
                .unwrap_or_default();
            EngineError::Spawn(format!(
                "engine '{}': cannot start '{shown}'{place}: {e}",
                spec.name
            ))
        })?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        thread::Builder::new()
            .name(format!("{}-stderr", spec.name))
            .spawn(move || copy_stderr(stderr, stderr_log))
            .map_err(|e| EngineError::Spawn(format!("cannot start a reader thread: {e}")))?;
        let stdin = child.stdin.take();
        let (tx, events) = sync_channel(1024);
        let reader_log = log.try_clone().ok();
        thread::Builder::new()
            .name(format!("{}-stdout", spec.name))
            .spawn(move || read_lines(stdout, tx, reader_log, all_info))
            .map_err(|e| EngineError::Spawn(format!("cannot start a reader thread: {e}")))?;
        let mut log = Some(log);
        if let Some(log) = log.as_mut() {
            let _ = log.write_all(
                format!(
                    "{} # started pid {}: {shown}\n",
                    stamp(Instant::now()),
                    child.id()
                )
                .as_bytes(),
            );
        }
        Ok(Engine {
            name: spec.name.clone(),
            child,
            stdin,
            events,
            log,
            reaped: false,
            exit_seen: None,
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
        self.child.id()
    }

    /// Sends one command, printed by the protocol's own printer.
    pub fn send(&mut self, command: &Command) -> Result<(), EngineError> {
        let line = command.to_string();
        if let Some(log) = self.log.as_mut() {
            let _ = log.write_all(format!("{} > {line}\n", stamp(Instant::now())).as_bytes());
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(EngineError::Crash("its input is closed".into()));
        };
        let sent = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        match sent {
            Ok(()) => Ok(()),
            Err(_) => Err(EngineError::Crash(format!(
                "exited before reading '{line}'{}",
                self.exit_note()
            ))),
        }
    }

    /// Describes how the process ended, if it has (waiting a moment for the kernel to tell).
    fn exit_note(&mut self) -> String {
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            if self.reaped {
                return String::new();
            }
            if self.has_exited() {
                // Whatever it started dies with it, then the zombie is reaped for its status.
                self.kill_group();
                self.reaped = true;
                return match self.child.wait() {
                    Ok(status) => format!(" ({status})"),
                    Err(_) => String::new(),
                };
            }
            if Instant::now() >= until {
                return String::new();
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// The crash of an engine that exited while the referee waited for `waiting_for`.
    fn exited_while(&mut self, waiting_for: &str) -> EngineError {
        let note = self.exit_note();
        EngineError::Crash(format!(
            "exited while the referee waited for {waiting_for}{note}"
        ))
    }

    /// The next line, or an error at `deadline`, at end of output, or on Ctrl-C.
    ///
    /// An engine that exited while a process it started still holds its output open sends no
    /// end of output: its exit says it. The exit is looked for whenever a line arrives and
    /// whenever none has for a while; lines read up to [`EXIT_GRACE`] after it was seen (written
    /// just before it) are still delivered, and any later one is the started process talking:
    /// the engine has crashed, however quickly that process answers.
    pub fn read_line(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
    ) -> Result<(String, Instant), EngineError> {
        loop {
            if signal::interrupted() {
                return Err(EngineError::Interrupted);
            }
            let now = Instant::now();
            let event = if now >= deadline {
                // A line may have arrived just in time while we were not looking.
                match self.events.try_recv() {
                    Ok(event) => Ok(event),
                    Err(_) if self.exited_since().is_some() => {
                        return Err(self.exited_while(waiting_for));
                    }
                    Err(_) => {
                        return Err(EngineError::Timeout(format!(
                            "sent no {waiting_for} in time"
                        )));
                    }
                }
            } else {
                self.events.recv_timeout((deadline - now).min(POLL))
            };
            let exited_since = self.exited_since();
            match event {
                Ok(Event::Line(line, at)) => {
                    if exited_since.is_some_and(|seen| at > seen + EXIT_GRACE) {
                        return Err(self.exited_while(waiting_for));
                    }
                    return Ok((line, at));
                }
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.exited_while(waiting_for));
                }
                Err(RecvTimeoutError::Timeout) => {
                    if exited_since.is_some_and(|seen| Instant::now() > seen + EXIT_GRACE) {
                        return Err(self.exited_while(waiting_for));
                    }
                }
            }
        }
    }

    /// When the referee first saw that the process had exited, if it has.
    fn exited_since(&mut self) -> Option<Instant> {
        if self.exit_seen.is_none() && !self.reaped && self.has_exited() {
            self.exit_seen = Some(Instant::now());
        }
        self.exit_seen
    }

    /// Throws away lines the engine sent unasked (late `info` lines), noticing an exit and a
    /// `bestmove` nobody asked for.
    pub fn drain(&mut self) -> Result<(), EngineError> {
        while let Ok(event) = self.events.try_recv() {
            match event {
                Event::Eof => {
                    let note = self.exit_note();
                    return Err(EngineError::Crash(format!("exited between commands{note}")));
                }
                Event::Line(line, _) if is_bestmove(&line) => return Err(unasked_bestmove(&line)),
                Event::Line(..) => {}
            }
        }
        Ok(())
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
                        "{}: asking ugi",
                        handshake.fallback.as_deref().unwrap_or("no answer")
                    ));
                    self.send(&line)?;
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
        if let Some(log) = self.log.as_mut() {
            let _ = log.write_all(format!("{} # {text}\n", stamp(Instant::now())).as_bytes());
        }
    }

    /// Starts a new game of `game`: `newgame <game>`, or `uginewgame` for a UGI engine (whose
    /// game is its `Game` option, set when it was configured).
    pub fn new_game(&mut self, game: GameKind) -> Result<(), EngineError> {
        match self.proto {
            Proto::Pion => self.send(&Command::NewGame(Some(game))),
            Proto::Ugi => self.send(&Command::UgiNewGame),
        }
    }

    /// Sends the `position` command of `opening` followed by `later` moves, written as this
    /// engine's protocol wants it: UGI names a position string with `fen`.
    pub fn position(&mut self, opening: &Opening, later: &[String]) -> Result<(), EngineError> {
        self.send(&opening.position_command(later, self.proto == Proto::Ugi))
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
                _ => {
                    return Err(EngineError::Protocol(format!(
                        "sent '{}' instead of bestmove",
                        pion_rules::game::shorten(&line)
                    )));
                }
            }
        }
    }

    /// Whether the process has exited, without reaping it (so its pid stays ours).
    fn has_exited(&self) -> bool {
        // SAFETY: waitid with WNOWAIT only reads the child's state into `info`.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let rc = libc::waitid(
                libc::P_PID,
                self.child.id() as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            rc != 0 || info.si_pid() != 0
        }
    }

    /// Asks the engine to quit, waits up to `grace` for it, then kills its whole process group.
    pub fn shutdown(&mut self, grace: Duration) {
        if self.reaped {
            return;
        }
        let _ = self.send(&Command::Quit);
        // Closing stdin is a second way of saying quit, for engines that read until EOF.
        self.stdin = None;
        let until = Instant::now() + grace;
        while !self.has_exited() && Instant::now() < until {
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Sends SIGKILL to the engine's process group. Only called while the engine is not reaped,
    /// so its pid (= the group id) cannot have been reused by another process.
    fn kill_group(&self) {
        // SAFETY: killpg only sends a signal.
        unsafe {
            libc::killpg(self.child.id() as libc::pid_t, libc::SIGKILL);
        }
    }

    /// Kills the process group (the engine and anything it started) and reaps the engine.
    pub fn kill(&mut self) {
        if self.reaped {
            return;
        }
        self.stdin = None;
        self.kill_group();
        let _ = self.child.wait();
        self.reaped = true;
        if let Some(log) = self.log.as_mut() {
            let _ = log.write_all(
                format!(
                    "{} # stopped pid {}\n",
                    stamp(Instant::now()),
                    self.child.id()
                )
                .as_bytes(),
            );
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The stamp of a log line: seconds from the first stamp the referee took (about when its first
/// engine started) to `at`, to the millisecond, so that a time forfeit can be traced in the log.
fn stamp(at: Instant) -> String {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let start = *START.get_or_init(Instant::now);
    format!("{:.3}", at.saturating_duration_since(start).as_secs_f64())
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
