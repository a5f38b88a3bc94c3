//! Engine processes for browser sessions: started from a configured spec, each in its own process
//! group, their stdout relayed line by line (with a length limit) and the tail of their stderr
//! kept for the page's error messages.
//!
//! Every group that is alive is listed in one registry, so that a shutdown (Ctrl-C, SIGTERM) can
//! kill them all whatever the sessions are doing.

use std::collections::{HashSet, VecDeque};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pion_referee::config::EngineSpec;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;

/// Lines of an engine's stderr kept for the page.
const STDERR_TAIL: usize = 20;

/// Characters of one stderr line kept for the page.
const STDERR_LINE_CHARS: usize = 300;

/// The process groups of every engine started and not yet reaped.
static LIVE_GROUPS: Mutex<Option<HashSet<i32>>> = Mutex::new(None);

fn register(pid: i32) {
    LIVE_GROUPS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashSet::new)
        .insert(pid);
}

fn unregister(pid: i32) {
    if let Some(set) = LIVE_GROUPS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_mut()
    {
        set.remove(&pid);
    }
}

/// Sends SIGKILL to a process group that has not been reaped (so its id is still ours).
fn kill_group(pid: i32) {
    // SAFETY: killpg only sends a signal.
    unsafe {
        libc::killpg(pid, libc::SIGKILL);
    }
}

/// Kills every engine process group still alive: the last thing the server does on shutdown.
pub fn kill_all() -> usize {
    let groups: Vec<i32> = LIVE_GROUPS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .map(|set| set.iter().copied().collect())
        .unwrap_or_default();
    for &pid in &groups {
        kill_group(pid);
    }
    groups.len()
}

/// The number of engine processes alive now (started and not yet reaped).
pub fn live_count() -> usize {
    LIVE_GROUPS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .map_or(0, HashSet::len)
}

/// What an engine's reader reports to its session.
#[derive(Debug)]
pub enum Event {
    /// One line of the engine's stdout, without its line end.
    Line(String),
    /// The engine is gone: why, and the last lines of its stderr. Not sent after [`Engine::kill`].
    Exit {
        /// A sentence for the page.
        message: String,
        /// The last lines the engine wrote on stderr.
        stderr: Vec<String>,
    },
}

/// A running engine: its stdin, and what is needed to kill it.
pub struct Engine {
    pid: i32,
    stdin: Option<ChildStdin>,
    killed: Arc<AtomicBool>,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

/// A line too long for the relay, or the engine's output that is not text.
enum ReadError {
    TooLong,
    Io(std::io::Error),
}

/// Reads one line of at most `limit` bytes (without its end); `None` at end of output.
async fn read_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    limit: usize,
) -> Result<Option<String>, ReadError> {
    let mut line = Vec::new();
    loop {
        let buf = reader.fill_buf().await.map_err(ReadError::Io)?;
        if buf.is_empty() {
            return Ok((!line.is_empty()).then(|| finish(line)));
        }
        let (take, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(end) => (end, true),
            None => (buf.len(), false),
        };
        // What is read is consumed even past the limit, so a caller that goes on reading
        // starts after it rather than on the same bytes.
        let fits = line.len() + take <= limit;
        if fits {
            line.extend_from_slice(&buf[..take]);
        }
        reader.consume(take + usize::from(end));
        if !fits {
            return Err(ReadError::TooLong);
        }
        if end {
            return Ok(Some(finish(line)));
        }
    }
}

/// A line as text: a trailing `\r` dropped, bytes that are not UTF-8 shown as U+FFFD.
fn finish(mut line: Vec<u8>) -> String {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    String::from_utf8_lossy(&line).into_owned()
}

impl Engine {
    /// Starts `spec`'s program in its own process group. Its stdout lines (at most `max_line`
    /// bytes each) and its end are sent to `events`.
    pub fn spawn(
        spec: &EngineSpec,
        max_line: usize,
        events: mpsc::Sender<Event>,
    ) -> Result<Engine, String> {
        let mut command = Command::new(&spec.command[0]);
        command
            .args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own group: killpg takes down whatever the engine started too.
            .process_group(0)
            .kill_on_drop(true);
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        #[cfg(target_os = "linux")]
        // SAFETY: prctl is async-signal-safe and touches no memory of the parent. It asks the
        // kernel to kill the engine if the server dies without cleaning up (e.g. SIGKILL).
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("engine '{}' cannot start: {e}", spec.name))?;
        let pid = child.id().ok_or("the engine exited at once")? as i32;
        register(pid);
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let killed = Arc::new(AtomicBool::new(false));
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let stderr_task = tokio::spawn(keep_tail(stderr, tail.clone()));
        tokio::spawn(relay(
            Relay {
                name: spec.name.clone(),
                pid,
                child,
                killed: killed.clone(),
                tail: tail.clone(),
                max_line,
                events,
            },
            BufReader::new(stdout),
            stderr_task,
        ));
        Ok(Engine {
            pid,
            stdin,
            killed,
            stderr: tail,
        })
    }

    /// The engine's process id (also its process group's).
    pub fn pid(&self) -> i32 {
        self.pid
    }

    /// Writes one line to the engine. An engine that no longer reads is reported by its
    /// reader when it ends, so a failed write is only returned, not reported twice.
    pub async fn send(&mut self, line: &str) -> std::io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::other("the engine's input is closed"))?;
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        stdin.write_all(&bytes).await?;
        stdin.flush().await
    }

    /// The last lines the engine wrote on stderr.
    pub fn stderr_tail(&self) -> Vec<String> {
        self.stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned()
            .collect()
    }

    /// Kills the engine's process group at once; its reader reaps it and says nothing more.
    pub fn kill(&mut self) {
        if !self.killed.swap(true, Ordering::SeqCst) {
            self.stdin = None;
            kill_group(self.pid);
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
    }
}

/// What the stdout reader of one engine needs.
struct Relay {
    name: String,
    pid: i32,
    child: Child,
    killed: Arc<AtomicBool>,
    tail: Arc<Mutex<VecDeque<String>>>,
    max_line: usize,
    events: mpsc::Sender<Event>,
}

/// Relays stdout lines until the end, then kills the group, reaps the engine and reports why it
/// ended (unless it was killed on purpose).
async fn relay(
    mut r: Relay,
    mut stdout: BufReader<tokio::process::ChildStdout>,
    stderr_task: tokio::task::JoinHandle<()>,
) {
    let why = loop {
        match read_line(&mut stdout, r.max_line).await {
            Ok(Some(line)) => {
                if r.events.send(Event::Line(line)).await.is_err() {
                    break None;
                }
            }
            Ok(None) => break Some("closed its output".to_string()),
            Err(ReadError::TooLong) => {
                break Some(format!(
                    "printed a line longer than {} bytes, so it was stopped",
                    r.max_line
                ));
            }
            Err(ReadError::Io(e)) => break Some(format!("could not be read ({e})")),
        }
    };
    // Whatever ended the relay, nothing of the group may outlive it.
    kill_group(r.pid);
    let status = r.child.wait().await;
    unregister(r.pid);
    // The stderr pipe ends with the group; a grandchild that escaped the group could hold it.
    let _ = tokio::time::timeout(Duration::from_millis(500), stderr_task).await;
    if r.killed.load(Ordering::SeqCst) {
        return;
    }
    let Some(why) = why else { return };
    let exit = match status {
        Ok(status) if why == "closed its output" => match status.code() {
            Some(code) => format!("exited with status {code}"),
            None => "was killed by a signal".to_string(),
        },
        _ => why,
    };
    let stderr = r
        .tail
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .cloned()
        .collect();
    let _ = r
        .events
        .send(Event::Exit {
            message: format!("engine '{}' {exit}", r.name),
            stderr,
        })
        .await;
}

/// Keeps the last [`STDERR_TAIL`] lines of an engine's stderr.
async fn keep_tail(stderr: tokio::process::ChildStderr, tail: Arc<Mutex<VecDeque<String>>>) {
    let mut lines = BufReader::new(stderr);
    loop {
        match read_line(&mut lines, 64 * 1024).await {
            Ok(Some(line)) => {
                let line: String = line.chars().take(STDERR_LINE_CHARS).collect();
                let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                if tail.len() == STDERR_TAIL {
                    tail.pop_front();
                }
                tail.push_back(line);
            }
            Ok(None) | Err(ReadError::Io(_)) => return,
            // A stderr line past the limit is cut: keep reading so the engine never blocks.
            Err(ReadError::TooLong) => {
                let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                tail.push_back("(a line too long to show)".to_string());
                if tail.len() > STDERR_TAIL {
                    tail.pop_front();
                }
            }
        }
    }
}
