//! A child process spoken to in lines: started in its own process group, read with a deadline
//! on every line, logged, and killed with everything it started when we are done with it. What
//! the lines mean is the business of [`crate::engine`]; nothing here knows the protocol.
//!
//! A reader thread turns the child's stdout into a channel of lines, so that every wait is a
//! `recv_timeout` and a silent or stuck child can never block the referee. Stderr goes straight
//! to the log file (no pipe to fill), and the traffic both ways is logged there too.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{self, Child, ChildStderr, ChildStdin, ChildStdout, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::thread;
use std::time::{Duration, Instant};

use super::signal;

/// A line longer than this is cut: no reply of the protocol comes near it, and it bounds memory.
const MAX_LINE: u64 = 64 * 1024;
/// How often a wait wakes up to look at the Ctrl-C flag.
const POLL: Duration = Duration::from_millis(25);
/// Lines read this long after the child's exit was seen still count: it wrote them before.
const EXIT_GRACE: Duration = Duration::from_millis(100);

/// Why no line came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// None before the deadline.
    Timeout,
    /// The child exited or closed its output; how it ended, as a note to append (or empty).
    Exited(String),
    /// The referee was interrupted (Ctrl-C) while waiting.
    Interrupted,
}

/// Why a line could not be sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SendError {
    /// The child's input was closed already.
    Closed,
    /// The child exited; how it ended, as a note to append (or empty).
    Exited(String),
}

/// What the child wrote to its stdout.
enum Event {
    /// A line without its end, and when the read that brought its end returned.
    Line(String, Instant),
    Eof,
}

/// How a child is started.
pub struct Launch<'a> {
    /// Its name, for the reader threads and the error message.
    pub name: &'a str,
    /// The program and its arguments.
    pub command: &'a [String],
    /// Where it runs, if not in the referee's directory.
    pub dir: Option<&'a Path>,
    /// The log file, appended to (its directory is created).
    pub log: &'a Path,
    /// Lines that are logged only if the next line is of another kind (a search's reports: its
    /// last one is kept, not the hundreds before); `None` logs every line.
    pub hold: Option<fn(&str) -> bool>,
}

/// A running child process and the lines it wrote.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    log: Option<File>,
    reaped: bool,
    /// When the process was first seen to have exited (see [`Process::read_line`]).
    exit_seen: Option<Instant>,
}

impl Process {
    /// Starts `launch.command` in its own process group, its stderr and the traffic appended to
    /// the log. The error is one line naming the child and the command.
    pub fn spawn(launch: &Launch) -> Result<Process, String> {
        let log = open_log(launch.log)?;
        let stderr_log = log
            .try_clone()
            .map_err(|e| format!("cannot share log file: {e}"))?;
        let (program, args) = launch
            .command
            .split_first()
            .ok_or_else(|| format!("'{}': no command to start", launch.name))?;
        let mut command = process::Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own group: a Ctrl-C at the terminal does not reach it behind our back, and
            // killpg takes down whatever it started too.
            .process_group(0);
        if let Some(dir) = launch.dir {
            command.current_dir(dir);
        }
        #[cfg(target_os = "linux")]
        // SAFETY: prctl is async-signal-safe and touches no memory of the parent. It asks the
        // kernel to kill the child if the referee dies without cleaning up (e.g. SIGKILL).
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let shown = shlex::try_join(launch.command.iter().map(String::as_str))
            .unwrap_or_else(|_| launch.command.join(" "));
        let mut child = command.spawn().map_err(|e| {
            let place = launch
                .dir
                .map(|d| format!(" in {}", d.display()))
                .unwrap_or_default();
            format!(
                "engine '{}': cannot start '{shown}'{place}: {e}",
                launch.name
            )
        })?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let stdin = child.stdin.take();
        // From here on the child runs: a failure to start a thread must not leave it behind.
        let mut process = Process {
            child,
            stdin,
            events: sync_channel(0).1,
            log: None,
            reaped: false,
            exit_seen: None,
        };
        thread::Builder::new()
            .name(format!("{}-stderr", launch.name))
            .spawn(move || copy_stderr(stderr, stderr_log))
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        let (tx, events) = sync_channel(1024);
        let reader_log = log.try_clone().ok();
        let hold = launch.hold;
        thread::Builder::new()
            .name(format!("{}-stdout", launch.name))
            .spawn(move || read_lines(stdout, tx, reader_log, hold))
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        process.events = events;
        process.log = Some(log);
        process.note(&format!("started pid {}: {shown}", process.pid()));
        Ok(process)
    }

    /// The process id (also its process group id).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Writes one line to the child, logged.
    pub fn send_line(&mut self, line: &str) -> Result<(), SendError> {
        self.log_entry(&format!("> {line}"));
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(SendError::Closed);
        };
        let sent = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        sent.map_err(|_| SendError::Exited(self.exit_note()))
    }

    /// Writes a referee's note into the log.
    pub fn note(&mut self, text: &str) {
        self.log_entry(&format!("# {text}"));
    }

    fn log_entry(&mut self, entry: &str) {
        if let Some(log) = self.log.as_mut() {
            let _ = log.write_all(format!("{} {entry}\n", stamp(Instant::now())).as_bytes());
        }
    }

    /// Describes how the process ended, if it has (waiting a moment for the kernel to tell).
    pub fn exit_note(&mut self) -> String {
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

    fn exited(&mut self) -> ReadError {
        ReadError::Exited(self.exit_note())
    }

    /// The next line and when it was read, or an error at `deadline`, at the end of the output,
    /// or on Ctrl-C.
    ///
    /// A child that exited while a process it started still holds its output open sends no
    /// end of output: its exit says it. The exit is looked for whenever a line arrives and
    /// whenever none has for a while; lines read up to [`EXIT_GRACE`] after it was seen (written
    /// just before it) are still delivered, and any later one is the started process talking:
    /// the child has ended, however quickly that process answers.
    pub fn read_line(&mut self, deadline: Instant) -> Result<(String, Instant), ReadError> {
        loop {
            if signal::interrupted() {
                return Err(ReadError::Interrupted);
            }
            let now = Instant::now();
            let event = if now >= deadline {
                // A line may have arrived just in time while we were not looking.
                match self.events.try_recv() {
                    Ok(event) => Ok(event),
                    Err(_) if self.exited_since().is_some() => return Err(self.exited()),
                    Err(_) => return Err(ReadError::Timeout),
                }
            } else {
                self.events.recv_timeout((deadline - now).min(POLL))
            };
            let exited_since = self.exited_since();
            match event {
                Ok(Event::Line(line, at)) => {
                    if exited_since.is_some_and(|seen| at > seen + EXIT_GRACE) {
                        return Err(self.exited());
                    }
                    return Ok((line, at));
                }
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.exited());
                }
                Err(RecvTimeoutError::Timeout) => {
                    if exited_since.is_some_and(|seen| Instant::now() > seen + EXIT_GRACE) {
                        return Err(self.exited());
                    }
                }
            }
        }
    }

    /// A line already read, if there is one, without waiting. The error is a note on how the
    /// child ended, at the end of its output.
    pub fn try_line(&mut self) -> Result<Option<String>, String> {
        match self.events.try_recv() {
            Ok(Event::Line(line, _)) => Ok(Some(line)),
            Ok(Event::Eof) => Err(self.exit_note()),
            Err(_) => Ok(None),
        }
    }

    /// When the referee first saw that the process had exited, if it has.
    fn exited_since(&mut self) -> Option<Instant> {
        if self.exit_seen.is_none() && !self.reaped && self.has_exited() {
            self.exit_seen = Some(Instant::now());
        }
        self.exit_seen
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

    /// Closes the child's input, waits up to `grace` for it to exit, then kills its group.
    pub fn close(&mut self, grace: Duration) {
        if self.reaped {
            return;
        }
        // Closing its input is a way of saying quit to programs that read until its end.
        self.stdin = None;
        let until = Instant::now() + grace;
        while !self.has_exited() && Instant::now() < until {
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Sends SIGKILL to the process group. Only called while the child is not reaped, so its
    /// pid (= the group id) cannot have been reused by another process.
    fn kill_group(&self) {
        // SAFETY: killpg only sends a signal.
        unsafe {
            libc::killpg(self.child.id() as libc::pid_t, libc::SIGKILL);
        }
    }

    /// Kills the process group (the child and anything it started) and reaps the child.
    pub fn kill(&mut self) {
        if self.reaped {
            return;
        }
        self.stdin = None;
        self.kill_group();
        let _ = self.child.wait();
        self.reaped = true;
        self.note(&format!("stopped pid {}", self.child.id()));
    }

    /// Whether the child was killed or reaped.
    pub fn reaped(&self) -> bool {
        self.reaped
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Opens (appending) a log file, creating its directory.
fn open_log(path: &Path) -> Result<File, String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create log directory {}: {e}", dir.display()))?;
    }
    File::options()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open log {}: {e}", path.display()))
}

/// A child's stdout that remembers when it last delivered bytes. A line is stamped with the
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

/// Reads the child's stdout into events, logging each line; a line that `hold` picks is logged
/// only when the next line of another kind comes (or the output ends), and only if no later
/// line it picks came first.
fn read_lines(
    stdout: ChildStdout,
    tx: SyncSender<Event>,
    mut log: Option<File>,
    hold: Option<fn(&str) -> bool>,
) {
    let mut reader = BufReader::new(TimedRead {
        inner: stdout,
        last_read: Instant::now(),
    });
    let mut buf = Vec::new();
    let mut held: Option<String> = None;
    while let Some(cut) = read_capped_line(&mut reader, &mut buf) {
        let at = reader.get_ref().last_read;
        let line = String::from_utf8_lossy(&buf)
            .trim_end_matches(['\n', '\r'])
            .to_string();
        if let Some(log) = log.as_mut() {
            let note = if cut { " [line cut at 64 KiB]" } else { "" };
            let entry = format!("{} < {line}{note}\n", stamp(at));
            if hold.is_some_and(|hold| hold(&line)) {
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
    if let (Some(log), Some(held)) = (log.as_mut(), held.take()) {
        let _ = log.write_all(held.as_bytes());
    }
    let _ = tx.send(Event::Eof);
}

/// Copies the child's stderr into its log, a line at a time marked `! `, so that it never
/// splits the lines written there by the other threads (each line is one append).
fn copy_stderr(stderr: ChildStderr, mut log: File) {
    let mut reader = BufReader::new(stderr);
    let mut buf = Vec::new();
    while read_capped_line(&mut reader, &mut buf).is_some() {
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim_end_matches(['\n', '\r']);
        let _ = log.write_all(format!("{} ! {line}\n", stamp(Instant::now())).as_bytes());
    }
}

/// The stamp of a log line: seconds from the first stamp the referee took (about when its first
/// engine started) to `at`, to the millisecond, so that a time forfeit can be traced in the log.
fn stamp(at: Instant) -> String {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let start = *START.get_or_init(Instant::now);
    format!("{:.3}", at.saturating_duration_since(start).as_secs_f64())
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    /// A scratch directory for one test, emptied first.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pion-process-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// `sh -c script`, logged to `dir/child.log`.
    fn shell(dir: &Path, script: &str, hold: Option<fn(&str) -> bool>) -> Process {
        let command = ["sh".to_string(), "-c".into(), script.into()];
        Process::spawn(&Launch {
            name: "child",
            command: &command,
            dir: Some(dir),
            log: &dir.join("child.log"),
            hold,
        })
        .expect("sh starts")
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(20)
    }

    fn line(process: &mut Process) -> String {
        process.read_line(soon()).expect("a line").0
    }

    /// Whether a process runs (a zombie runs nothing).
    fn alive(pid: u32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z') && !state.starts_with('X')
        })
    }

    /// Waits (10 s at most: SIGKILL is delivered asynchronously) until `pid` has ended.
    fn assert_gone(pid: u32) {
        let give_up = Instant::now() + Duration::from_secs(10);
        while alive(pid) && Instant::now() < give_up {
            thread::sleep(Duration::from_millis(10));
        }
        assert!(!alive(pid), "process {pid} was left running");
    }

    #[test]
    fn lines_come_in_order_then_the_end_with_the_exit_status() {
        let dir = scratch("lines");
        let mut child = shell(&dir, "echo one; printf 'two\\r\\n'; exit 3", None);
        assert_eq!(line(&mut child), "one");
        assert_eq!(line(&mut child), "two");
        match child.read_line(soon()) {
            Err(ReadError::Exited(note)) => assert!(note.contains('3'), "{note}"),
            other => panic!("expected the end of output, got {other:?}"),
        }
    }

    #[test]
    fn a_silent_child_times_out_and_still_runs() {
        let dir = scratch("silent");
        let mut child = shell(&dir, "exec sleep 30", None);
        let deadline = Instant::now() + Duration::from_millis(50);
        assert_eq!(child.read_line(deadline), Err(ReadError::Timeout));
        assert!(alive(child.pid()));
        let pid = child.pid();
        child.kill();
        assert_gone(pid);
    }

    #[test]
    fn what_the_child_echoes_is_read_back() {
        let dir = scratch("echo");
        let mut child = shell(&dir, "while read l; do echo \"got $l\"; done", None);
        child.send_line("hello").unwrap();
        assert_eq!(line(&mut child), "got hello");
        child.close(Duration::from_secs(5));
        assert!(child.reaped());
        assert_eq!(child.send_line("late"), Err(SendError::Closed));
    }

    #[test]
    fn a_kill_takes_down_what_the_child_started() {
        let dir = scratch("group");
        let mut child = shell(&dir, "sleep 30 & echo $!; wait", None);
        let grandchild: u32 = line(&mut child).parse().unwrap();
        assert!(alive(grandchild));
        let pid = child.pid();
        child.kill();
        assert_gone(grandchild);
        let log = std::fs::read_to_string(dir.join("child.log")).unwrap();
        assert!(log.ends_with(&format!(" # stopped pid {pid}\n")), "{log}");
    }

    #[test]
    fn a_child_that_exits_while_its_child_holds_the_output_has_ended() {
        let dir = scratch("held");
        // The background sleep keeps stdout open: no end of output comes, only the exit.
        let mut child = shell(&dir, "sleep 30 & echo $!; exit 0", None);
        let grandchild: u32 = line(&mut child).parse().unwrap();
        assert!(matches!(child.read_line(soon()), Err(ReadError::Exited(_))));
        assert_gone(grandchild);
    }

    #[test]
    fn a_child_that_exits_at_once_cannot_be_written_to() {
        let dir = scratch("early");
        let mut child = shell(&dir, "exit 0", None);
        assert!(matches!(child.read_line(soon()), Err(ReadError::Exited(_))));
        // The pipe's reader is gone, so a write fails (perhaps only the second: a pipe buffers).
        let sent = child.send_line("one").and_then(|()| child.send_line("two"));
        assert!(sent.is_err(), "{sent:?}");
    }

    #[test]
    fn garbage_bytes_and_a_line_too_long_are_read_as_one_line_each() {
        let dir = scratch("garbage");
        let mut child = shell(
            &dir,
            "printf 'a\\377\\376b\\n'; head -c 70000 /dev/zero | tr '\\0' x; echo; echo next",
            None,
        );
        assert_eq!(line(&mut child), "a\u{fffd}\u{fffd}b");
        let long = line(&mut child);
        assert_eq!(long.len() as u64, MAX_LINE);
        assert!(long.bytes().all(|b| b == b'x'));
        assert_eq!(line(&mut child), "next");
        assert!(matches!(child.read_line(soon()), Err(ReadError::Exited(_))));
        let log = std::fs::read_to_string(dir.join("child.log")).unwrap();
        assert!(log.contains("[line cut at 64 KiB]"), "{log}");
    }

    #[test]
    fn try_line_returns_what_was_read_without_waiting() {
        let dir = scratch("try");
        let mut child = shell(&dir, "echo ready; exec sleep 30", None);
        assert_eq!(line(&mut child), "ready");
        assert_eq!(child.try_line(), Ok(None));
        child.kill();
    }

    #[test]
    fn the_log_has_the_traffic_stderr_and_only_the_last_held_line() {
        let dir = scratch("log");
        fn report(line: &str) -> bool {
            line.starts_with("report")
        }
        let mut child = shell(
            &dir,
            "read l; echo report 1; echo report 2; echo 'done' $l; echo oops >&2; exit 0",
            Some(report),
        );
        child.send_line("go").unwrap();
        assert_eq!(line(&mut child), "report 1");
        assert_eq!(line(&mut child), "report 2");
        assert_eq!(line(&mut child), "done go");
        assert!(child.read_line(soon()).is_err());
        let pid = child.pid();
        drop(child);
        // The stderr thread writes on its own time: wait for its line.
        let give_up = Instant::now() + Duration::from_secs(10);
        let log = loop {
            let log = std::fs::read_to_string(dir.join("child.log")).unwrap();
            if log.contains(" ! oops") || Instant::now() > give_up {
                break log;
            }
            thread::sleep(Duration::from_millis(10));
        };
        let entries: Vec<&str> = log
            .lines()
            .map(|l| l.split_once(' ').expect("a stamp first").1)
            .collect();
        let started = format!("# started pid {pid}: sh -c ");
        assert!(entries[0].starts_with(&started), "{log}");
        for entry in ["> go", "< report 2", "< done go", "! oops"] {
            assert!(entries.contains(&entry), "{entry} missing from {log}");
        }
        assert!(!entries.contains(&"< report 1"), "{log}");
        for l in log.lines() {
            let stamp = l.split(' ').next().unwrap();
            assert!(stamp.parse::<f64>().is_ok_and(|s| s >= 0.0), "{l}");
        }
    }

    #[test]
    fn a_program_that_cannot_start_is_one_line_naming_it() {
        let dir = scratch("nostart");
        let command = ["/no/such/program".to_string(), "--flag".into()];
        let error = Process::spawn(&Launch {
            name: "ghost",
            command: &command,
            dir: None,
            log: &dir.join("ghost.log"),
            hold: None,
        })
        .err()
        .expect("no such program");
        assert!(
            error.starts_with("engine 'ghost': cannot start '/no/such/program --flag': "),
            "{error}"
        );
        assert_eq!(error.lines().count(), 1);
    }

    #[test]
    fn a_capped_read_drops_the_rest_of_a_long_line() {
        let long = vec![b'y'; MAX_LINE as usize + 10];
        let mut input = long.clone();
        input.extend(b"\nshort\n");
        let mut reader = std::io::Cursor::new(input);
        let mut buf = Vec::new();
        assert_eq!(read_capped_line(&mut reader, &mut buf), Some(true));
        assert_eq!(buf.len() as u64, MAX_LINE);
        assert_eq!(read_capped_line(&mut reader, &mut buf), Some(false));
        assert_eq!(buf, b"short\n");
        assert_eq!(read_capped_line(&mut reader, &mut buf), None);
    }
}
