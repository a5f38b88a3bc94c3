//! The threads of a child process: the exit watcher (the only one that reaps), the writer of
//! its input, the reader of its output and the keeper of its stderr.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::lines::{PipeRead, STDERR_TAIL, read_capped_line, text_of};
use crate::process::{Event, Line, Shared, SpawnError};
use crate::registry;

/// How long one line may take to be written before the child counts as not reading.
const WRITE_DEADLINE: Duration = Duration::from_secs(5);
/// Characters of one stderr line kept in memory.
const STDERR_LINE_CHARS: usize = 300;

/// Where a child's events go.
pub type Sink = Arc<dyn Fn(Event) -> bool + Send + Sync>;

/// Waits for the child to exit without reaping it, kills its group, then reaps it, and says so.
pub(crate) fn watch(mut child: Child, shared: Arc<Shared>, sink: Sink) {
    let pid = child.id();
    loop {
        // SAFETY: waitid with WNOWAIT only reads the child's state into `info`.
        let rc = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if rc == 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            break;
        }
    }
    let status = {
        let mut state = shared.lock();
        state.exited_at = Some(Instant::now());
        // SAFETY: the child is a zombie, not reaped: its pid (= group id) is still ours.
        unsafe {
            libc::killpg(pid as libc::pid_t, libc::SIGKILL);
        }
        registry::unregister(pid as i32);
        let status = child.wait().ok();
        state.status = status;
        state.reaped = true;
        shared.changed.notify_all();
        status
    };
    sink(Event::Exited(status));
}

/// The child's input, shared by its owner (who writes at once when nothing waits) and the
/// writer thread (which writes what could not be written at once).
pub(crate) struct Pipe {
    /// The input, until it is closed.
    pub(crate) stdin: Mutex<Option<ChildStdin>>,
    /// Lines handed to the writer thread and not yet written: while any wait, the owner queues
    /// behind them rather than writing itself, so lines keep their order.
    pub(crate) queued: AtomicUsize,
}

impl Pipe {
    /// The input made non-blocking, so that no write can ever wait on the child.
    pub(crate) fn new(stdin: ChildStdin) -> Pipe {
        use std::os::fd::AsRawFd;
        let fd = stdin.as_raw_fd();
        // SAFETY: fcntl on a descriptor we own.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
        Pipe {
            stdin: Mutex::new(Some(stdin)),
            queued: AtomicUsize::new(0),
        }
    }
}

/// Writes as much of `bytes` as the pipe takes now; how much, or the error of a closed pipe.
pub(crate) fn write_now(stdin: &mut ChildStdin, bytes: &[u8]) -> std::io::Result<usize> {
    let mut written = 0;
    while written < bytes.len() {
        match stdin.write(&bytes[written..]) {
            Ok(n) => written += n,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(written)
}

/// Writes the queued lines to the child. A line that cannot be written within
/// [`WRITE_DEADLINE`] (the child does not read) marks the child stalled and ends, closing its
/// input; so does the end of the queue (the owner closed the input).
pub(crate) fn write_lines(
    pipe: Arc<Pipe>,
    queue: Receiver<Vec<u8>>,
    stop: Arc<AtomicBool>,
    stalled: Arc<AtomicBool>,
    sink: Sink,
) {
    use std::os::fd::AsRawFd;
    let close = || drop(pipe.stdin.lock().unwrap_or_else(|e| e.into_inner()).take());
    while let Ok(bytes) = queue.recv() {
        let deadline = Instant::now() + WRITE_DEADLINE;
        let mut rest: &[u8] = &bytes;
        while !rest.is_empty() {
            let (written, fd) = {
                let mut stdin = pipe.stdin.lock().unwrap_or_else(|e| e.into_inner());
                let Some(stdin) = stdin.as_mut() else { return };
                (write_now(stdin, rest), stdin.as_raw_fd())
            };
            match written {
                Ok(n) => rest = &rest[n..],
                // The child closed its input or exited: its watcher reports that.
                Err(_) => return close(),
            }
            if rest.is_empty() {
                break;
            }
            if stop.load(Ordering::SeqCst) {
                return close();
            }
            if Instant::now() >= deadline {
                stalled.store(true, Ordering::SeqCst);
                close();
                sink(Event::Stalled);
                return;
            }
            let mut poll = libc::pollfd {
                fd,
                events: libc::POLLOUT,
                revents: 0,
            };
            // SAFETY: one valid pollfd, owned by this frame.
            unsafe { libc::poll(&mut poll, 1, 50) };
        }
        pipe.queued.fetch_sub(1, Ordering::SeqCst);
    }
    close();
}

/// Opens (appending) a log file, creating its directory.
pub(crate) fn open_log(path: &Path) -> Result<File, SpawnError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| {
            SpawnError::Log(format!(
                "cannot create log directory {}: {e}",
                dir.display()
            ))
        })?;
    }
    File::options()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| SpawnError::Log(format!("cannot open log {}: {e}", path.display())))
}

/// Reads the child's stdout into events, logging each line; a line that `hold` picks is logged
/// only when the next line of another kind comes (or the output ends), and only if no later
/// line it picks came first.
pub(crate) fn read_lines(
    stdout: ChildStdout,
    stop: Arc<AtomicBool>,
    sink: Sink,
    log: Option<Arc<Mutex<File>>>,
    hold: Option<fn(&str) -> bool>,
    max_line: usize,
) {
    let mut reader = BufReader::new(PipeRead::new(stdout, stop));
    let mut buf = Vec::new();
    let mut held: Option<String> = None;
    let write = |entry: &str| {
        if let Some(log) = &log {
            let _ = log
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .write_all(entry.as_bytes());
        }
    };
    while let Some(cut) = read_capped_line(&mut reader, &mut buf, max_line) {
        let at = reader.get_ref().last_read;
        let text = text_of(&buf);
        if log.is_some() {
            let note = if cut { " [line cut]" } else { "" };
            let entry = format!("{} < {text}{note}\n", stamp(at));
            if hold.is_some_and(|hold| hold(&text)) {
                held = Some(entry);
            } else {
                write(&(held.take().unwrap_or_default() + &entry));
            }
        }
        if !sink(Event::Line(Line { text, at, cut })) {
            return;
        }
    }
    if let Some(held) = held.take() {
        write(&held);
    }
    sink(Event::End);
}

/// Keeps the last [`STDERR_TAIL`] lines of the child's stderr, and copies each into the log
/// marked `! ` (one append a line, so that it never splits the lines of the other threads).
pub(crate) fn keep_stderr(
    stderr: ChildStderr,
    stop: Arc<AtomicBool>,
    tail: Arc<Mutex<VecDeque<String>>>,
    log: Option<Arc<Mutex<File>>>,
) {
    let mut reader = BufReader::new(PipeRead::new(stderr, stop));
    let mut buf = Vec::new();
    while let Some(cut) = read_capped_line(&mut reader, &mut buf, 64 * 1024) {
        let text = text_of(&buf);
        if let Some(log) = &log {
            let entry = format!("{} ! {text}\n", stamp(Instant::now()));
            let _ = log
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .write_all(entry.as_bytes());
        }
        let kept = if cut {
            "(a line too long to show)".to_string()
        } else {
            text.chars().take(STDERR_LINE_CHARS).collect()
        };
        let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
        if tail.len() == STDERR_TAIL {
            tail.pop_front();
        }
        tail.push_back(kept);
    }
}

/// The stamp of a log line: seconds from the first stamp taken (about when the first child
/// started) to `at`, to the millisecond, so that a time forfeit can be traced in the log.
pub(crate) fn stamp(at: Instant) -> String {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let start = *START.get_or_init(Instant::now);
    format!("{:.3}", at.saturating_duration_since(start).as_secs_f64())
}
