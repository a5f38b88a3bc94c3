//! A child process spoken to in lines: started in its own process group, its stdout read by a
//! thread into lines, its stdin written by a thread from a bounded queue, its exit watched by a
//! third thread that alone reaps it, and killed with everything it started when its owner is
//! done with it.
//!
//! The exit watcher waits for the child without reaping it (`waitid` with `WNOWAIT`), kills
//! its group, then reaps it, all under the lock that [`Process::kill`] takes: so the group is
//! never signalled after its pid was given back to the system, and an exit is seen even when
//! something the child started still holds its output open.

use std::collections::VecDeque;
use std::fs::File;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{self, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::registry;
use crate::threads::{
    Pipe, Sink, keep_stderr, open_log, read_lines, stamp, watch, write_lines, write_now,
};

/// How often a wait wakes up to look at the interrupt flag.
const POLL: Duration = Duration::from_millis(25);
/// Lines read this long after the child's exit was seen still count: it wrote them before.
const EXIT_GRACE: Duration = Duration::from_millis(100);
/// Lines waiting to be written to the child; past this the child is not reading its input.
const WRITE_QUEUE: usize = 256;

/// Why no line came.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// None before the deadline.
    #[error("no line before the deadline")]
    Timeout,
    /// The child exited or closed its output; how it ended, as a note to append (or empty).
    #[error("the process ended{0}")]
    Exited(String),
    /// The owner was interrupted (its `interrupt` flag) while waiting.
    #[error("interrupted")]
    Interrupted,
}

/// Why a line could not be sent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// The child's input was closed already.
    #[error("its input is closed")]
    Closed,
    /// The child exited; how it ended, as a note to append (or empty).
    #[error("it exited{0}")]
    Exited(String),
    /// The child does not read its input: the queue is full or a write passed its deadline.
    #[error("it does not read its input")]
    Stalled,
}

/// Why a process could not be started.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    /// The command line is empty.
    #[error("engine '{0}': no command to start")]
    NoCommand(String),
    /// The program did not start (not found, not executable, bad directory).
    #[error("engine '{name}': cannot start '{shown}'{place}: {error}")]
    Start {
        /// The name given in the launch.
        name: String,
        /// The command line, as a shell would write it.
        shown: String,
        /// ` in DIR` when a directory was given.
        place: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// The log file cannot be opened.
    #[error("{0}")]
    Log(String),
    /// A reader or writer thread cannot be started.
    #[error("cannot start a thread for engine '{0}': {1}")]
    Thread(String, std::io::Error),
}

/// One line of the child's stdout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line without its end (its first `max_line` bytes, when it was longer).
    pub text: String,
    /// When the read that brought its end returned.
    pub at: Instant,
    /// Whether it was longer than `max_line` and cut.
    pub cut: bool,
}

/// What happens to a child, as its threads report it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A line of its stdout.
    Line(Line),
    /// The end of its stdout.
    End,
    /// It exited and was reaped: its status, when the system gave one.
    Exited(Option<ExitStatus>),
    /// It stopped reading its input: a write passed its deadline.
    Stalled,
}

/// Where the events of a child go.
pub enum Output {
    /// Into the process, to be read with [`Process::read_line`] (a synchronous owner).
    Pull,
    /// To this function, from the reader threads (an asynchronous owner forwards them to its
    /// channel); it returns false when nobody listens any more.
    Push(Sink),
}

/// How a child is started.
pub struct Launch<'a> {
    /// Its name, for the threads and the error messages.
    pub name: &'a str,
    /// The program and its arguments.
    pub command: &'a [String],
    /// Where it runs, if not in the current directory.
    pub dir: Option<&'a Path>,
    /// A log file for the traffic both ways and its stderr, appended to (its directory is
    /// created); without one stderr is only kept in memory (see [`Process::stderr_tail`]).
    pub log: Option<&'a Path>,
    /// Lines that are logged only if the next line is of another kind (a search's reports: its
    /// last one is kept, not the hundreds before); `None` logs every line.
    pub hold: Option<fn(&str) -> bool>,
    /// The longest stdout line kept, in bytes; the rest of a longer line is dropped.
    pub max_line: usize,
    /// A flag that ends a wait in [`Process::read_line`] (Ctrl-C).
    pub interrupt: Option<fn() -> bool>,
}

/// What the exit watcher learnt, shared with the owner.
#[derive(Default)]
pub(crate) struct State {
    /// When the child was seen to have exited.
    pub(crate) exited_at: Option<Instant>,
    /// How it ended.
    pub(crate) status: Option<ExitStatus>,
    /// Whether it was reaped (its pid is no longer ours).
    pub(crate) reaped: bool,
}

/// The state and the condition its changes are signalled on.
#[derive(Default)]
pub(crate) struct Shared {
    state: Mutex<State>,
    pub(crate) changed: Condvar,
}

impl Shared {
    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits up to `wait` for the watcher to reap the child; the state, reaped or not.
    fn wait_reaped<'a>(
        &'a self,
        mut state: std::sync::MutexGuard<'a, State>,
        wait: Duration,
    ) -> std::sync::MutexGuard<'a, State> {
        let until = Instant::now() + wait;
        while !state.reaped && Instant::now() < until {
            state = self
                .changed
                .wait_timeout(state, Duration::from_millis(5))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        state
    }
}

/// A running child process and the lines it wrote.
pub struct Process {
    pid: i32,
    name: String,
    input: Option<SyncSender<Vec<u8>>>,
    pipe: Arc<Pipe>,
    stalled: Arc<AtomicBool>,
    events: Option<Receiver<Event>>,
    shared: Arc<Shared>,
    stop: Arc<AtomicBool>,
    tail: Arc<Mutex<VecDeque<String>>>,
    log: Option<Arc<Mutex<File>>>,
    interrupt: Option<fn() -> bool>,
    /// Whether the owner killed it (then its end is not news).
    killed: bool,
    /// Whether the note on how it ended was given once already.
    told: bool,
}

impl Process {
    /// Starts `launch.command` in its own process group. The error is one line naming the child
    /// and the command.
    ///
    /// Linux's parent-death signal is tied to the thread that starts the child: start children
    /// from a thread that lives as long as they should (not a pool thread that may retire).
    pub fn spawn(launch: &Launch, output: Output) -> Result<Process, SpawnError> {
        let log = launch
            .log
            .map(open_log)
            .transpose()?
            .map(|f| Arc::new(Mutex::new(f)));
        let (program, args) = launch
            .command
            .split_first()
            .ok_or_else(|| SpawnError::NoCommand(launch.name.to_string()))?;
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
        // kernel to kill the child if its parent dies without cleaning up (e.g. SIGKILL).
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let shown = shlex::try_join(launch.command.iter().map(String::as_str))
            .unwrap_or_else(|_| launch.command.join(" "));
        let mut child = command.spawn().map_err(|error| SpawnError::Start {
            name: launch.name.to_string(),
            shown: shown.clone(),
            place: launch
                .dir
                .map(|d| format!(" in {}", d.display()))
                .unwrap_or_default(),
            error,
        })?;
        let pid = child.id() as i32;
        registry::register(pid);
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let stdin = child.stdin.take().expect("stdin is piped");
        let (sink, events): (Sink, _) = match output {
            Output::Pull => {
                let (tx, rx) = sync_channel(1024);
                (Arc::new(move |event| tx.send(event).is_ok()), Some(rx))
            }
            Output::Push(sink) => (sink, None),
        };
        let (input, queue) = sync_channel::<Vec<u8>>(WRITE_QUEUE);
        let mut process = Process {
            pid,
            name: launch.name.to_string(),
            input: Some(input),
            pipe: Arc::new(Pipe::new(stdin)),
            stalled: Arc::new(AtomicBool::new(false)),
            events,
            shared: Arc::new(Shared::default()),
            stop: Arc::new(AtomicBool::new(false)),
            tail: Arc::new(Mutex::new(VecDeque::new())),
            log,
            interrupt: launch.interrupt,
            killed: false,
            told: false,
        };
        // From here on the child runs: a failure to start a thread must not leave it behind
        // (the watcher is started first, so that a drop can kill and reap).
        let thread = |what: &str| thread::Builder::new().name(format!("{}-{what}", launch.name));
        let (shared, watcher_sink) = (process.shared.clone(), sink.clone());
        let started = thread("exit")
            .spawn(move || watch(child, shared, watcher_sink))
            .map_err(|e| SpawnError::Thread(launch.name.to_string(), e));
        if let Err(e) = started {
            // No watcher: kill here (the pid is ours: nothing reaped it). Dropping the `Child`
            // leaves a zombie, which is better than a running orphan.
            // SAFETY: killpg only sends a signal.
            unsafe { libc::killpg(pid, libc::SIGKILL) };
            registry::unregister(pid);
            process.shared.lock().reaped = true;
            return Err(e);
        }
        let (stop, tail, log) = (
            process.stop.clone(),
            process.tail.clone(),
            process.log.clone(),
        );
        thread("stderr")
            .spawn(move || keep_stderr(stderr, stop, tail, log))
            .map_err(|e| SpawnError::Thread(launch.name.to_string(), e))?;
        let (stop, log, hold, max) = (
            process.stop.clone(),
            process.log.clone(),
            launch.hold,
            launch.max_line,
        );
        let reader_sink = sink.clone();
        thread("stdout")
            .spawn(move || read_lines(stdout, stop, reader_sink, log, hold, max))
            .map_err(|e| SpawnError::Thread(launch.name.to_string(), e))?;
        let (stop, stalled, pipe) = (
            process.stop.clone(),
            process.stalled.clone(),
            process.pipe.clone(),
        );
        thread("stdin")
            .spawn(move || write_lines(pipe, queue, stop, stalled, sink))
            .map_err(|e| SpawnError::Thread(launch.name.to_string(), e))?;
        // Runs append to one log: each start says when, by the wall clock, as a separator.
        let now = crate::utc_timestamp(std::time::SystemTime::now());
        process.note(&format!("started pid {pid} at {now}: {shown}"));
        Ok(process)
    }

    /// The process id (also its process group id).
    pub fn pid(&self) -> u32 {
        self.pid as u32
    }

    /// Queues one line for the child, logged. It never waits: a child that has not read the
    /// lines before is [`SendError::Stalled`].
    pub fn send_line(&mut self, line: &str) -> Result<(), SendError> {
        self.log_entry(&format!("> {line}"));
        let Some(input) = self.input.as_ref() else {
            return Err(SendError::Closed);
        };
        if self.stalled.load(Ordering::SeqCst) {
            return Err(SendError::Stalled);
        }
        if self.shared.lock().exited_at.is_some() {
            return Err(SendError::Exited(self.exit_note()));
        }
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        // Nothing waits: write at once, from this thread (no hand-over to wait for). What the
        // pipe does not take now goes to the writer thread, and later lines queue behind it.
        if self.pipe.queued.load(Ordering::SeqCst) == 0 {
            let written = {
                let mut stdin = self.pipe.stdin.lock().unwrap_or_else(|e| e.into_inner());
                stdin.as_mut().map(|stdin| write_now(stdin, &bytes))
            };
            match written {
                None => return Err(SendError::Closed),
                Some(Ok(n)) if n == bytes.len() => return Ok(()),
                Some(Ok(n)) => {
                    bytes.drain(..n);
                }
                Some(Err(_)) => return Err(SendError::Exited(self.exit_note())),
            }
        }
        self.pipe.queued.fetch_add(1, Ordering::SeqCst);
        match input.try_send(bytes) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.pipe.queued.fetch_sub(1, Ordering::SeqCst);
                match e {
                    TrySendError::Full(_) => Err(SendError::Stalled),
                    TrySendError::Disconnected(_) => Err(SendError::Exited(self.exit_note())),
                }
            }
        }
    }

    /// Writes a note of the owner into the log.
    pub fn note(&mut self, text: &str) {
        self.log_entry(&format!("# {text}"));
    }

    fn log_entry(&self, entry: &str) {
        if let Some(log) = &self.log {
            let mut log = log.lock().unwrap_or_else(|e| e.into_inner());
            let _ = log.write_all(format!("{} {entry}\n", stamp(Instant::now())).as_bytes());
        }
    }

    /// Describes how the process ended, once (waiting a moment for the kernel to tell); empty
    /// when it was killed by its owner, is still running, or was described already.
    pub fn exit_note(&mut self) -> String {
        if self.told || self.killed {
            return String::new();
        }
        let state = self
            .shared
            .wait_reaped(self.shared.lock(), Duration::from_millis(200));
        match state.status {
            Some(status) if state.reaped => {
                self.told = true;
                format!(" ({status})")
            }
            _ => String::new(),
        }
    }

    fn exited(&mut self) -> ReadError {
        ReadError::Exited(self.exit_note())
    }

    /// Whether the process has not been seen to exit (it may still have closed its output).
    pub fn is_running(&self) -> bool {
        self.exited_since().is_none()
    }

    /// When the process was seen to have exited, if it has.
    fn exited_since(&self) -> Option<Instant> {
        self.shared.lock().exited_at
    }

    /// The next line and when it was read, or an error at `deadline`, at the end of the output,
    /// or on interrupt. Only for [`Output::Pull`]: a pushed process has nothing here.
    ///
    /// A child that exited while a process it started still holds its output open sends no
    /// end of output: its exit says it. Lines read up to [`EXIT_GRACE`] after the exit was seen
    /// (written just before it) are still delivered; any later one is the started process
    /// talking: the child has ended, however quickly that process answers.
    pub fn read_line(&mut self, deadline: Instant) -> Result<(String, Instant), ReadError> {
        loop {
            if self.interrupt.is_some_and(|interrupted| interrupted()) {
                return Err(ReadError::Interrupted);
            }
            let Some(events) = self.events.as_ref() else {
                return Err(self.exited());
            };
            let now = Instant::now();
            let event = if now >= deadline {
                // A line may have arrived just in time while we were not looking.
                match events.try_recv() {
                    Ok(event) => Ok(event),
                    Err(_) if self.exited_since().is_some() => return Err(self.exited()),
                    Err(_) => return Err(ReadError::Timeout),
                }
            } else {
                events.recv_timeout((deadline - now).min(POLL))
            };
            let exited_since = self.exited_since();
            match event {
                Ok(Event::Line(line)) => {
                    if exited_since.is_some_and(|seen| line.at > seen + EXIT_GRACE) {
                        return Err(self.exited());
                    }
                    return Ok((line.text, line.at));
                }
                Ok(Event::End) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.exited());
                }
                Ok(Event::Exited(_) | Event::Stalled) => {}
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
        let Some(events) = self.events.as_ref() else {
            return Err(self.exit_note());
        };
        loop {
            match events.try_recv() {
                Ok(Event::Line(line)) => return Ok(Some(line.text)),
                Ok(Event::End) => return Err(self.exit_note()),
                Ok(Event::Exited(_) | Event::Stalled) => {}
                Err(_) => return Ok(None),
            }
        }
    }

    /// The last lines the child wrote on stderr (at most [`crate::STDERR_TAIL`]).
    pub fn stderr_tail(&self) -> Vec<String> {
        self.tail
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned()
            .collect()
    }

    /// Closes the child's input (once the lines queued are written), waits up to `grace` for it
    /// to exit, then kills its group.
    pub fn close(&mut self, grace: Duration) {
        // Closing its input is a way of saying quit to programs that read until its end.
        self.input = None;
        drop(self.shared.wait_reaped(self.shared.lock(), grace));
        self.kill();
    }

    /// Sends SIGKILL to the process group without waiting: its watcher reaps the child and
    /// reports [`Event::Exited`]. For an owner that must not wait (an async task).
    pub fn stop(&mut self) {
        self.input = None;
        let state = self.shared.lock();
        if !state.reaped {
            // SAFETY: killpg only sends a signal; the pid is not reaped (we hold the lock the
            // watcher reaps under), so it is still this child's.
            unsafe {
                libc::killpg(self.pid, libc::SIGKILL);
            }
        }
    }

    /// Kills the process group (the child and anything it started) and waits for the watcher
    /// to reap the child. Nothing more is reported of it.
    pub fn kill(&mut self) {
        self.input = None;
        self.killed = true;
        let state = self.shared.lock();
        if state.reaped {
            return;
        }
        // SAFETY: as in `stop`.
        unsafe {
            libc::killpg(self.pid, libc::SIGKILL);
        }
        // SIGKILL cannot be refused: the watcher reaps it within moments.
        drop(self.shared.wait_reaped(state, Duration::from_secs(5)));
        self.note(&format!("stopped pid {}", self.pid));
    }

    /// Whether the child was killed or reaped.
    pub fn reaped(&self) -> bool {
        self.shared.lock().reaped
    }

    /// The name it was launched with.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let reaped = self.shared.lock().reaped;
        if !reaped {
            self.kill();
        }
        // The reader threads end even if a process that escaped the group holds the pipes.
        self.stop.store(true, Ordering::SeqCst);
    }
}
