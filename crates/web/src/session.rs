//! One browser connection: a WebSocket whose JSON messages start engines by name, carry lines
//! to them and bring their lines back. The server understands nothing of the protocol itself.
//!
//! The page sends `{"t":"start","id":"rules","engine":"pion"}`, `{"t":"send","id":"rules",
//! "line":"legal"}`, `{"t":"kill","id":"rules"}` and `{"t":"stderr","id":"rules"}`; the server
//! answers `hello` (the engines it may start), `started`, `line`, `exit` (with the tail of the
//! engine's stderr), `stderr` and `error`.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use pion_process::{Event, Process, SendError};
use pion_referee::engine::handshake::{Proto, ProtoChoice};

use crate::oware_uci::OwareUci;
use crate::process::{self, Tagged};
use crate::server::Settings;

/// Engines one page may have at once: the rules, two players and an analyser.
pub const MAX_ENGINES: usize = 4;

/// What the page sends.
#[derive(Debug, Deserialize)]
#[serde(tag = "t", rename_all = "lowercase")]
enum FromPage {
    Start { id: String, engine: String },
    Send { id: String, line: String },
    Kill { id: String },
    Stderr { id: String },
}

/// What the server sends.
#[derive(Debug, Serialize)]
#[serde(tag = "t", rename_all = "lowercase")]
pub enum ToPage<'a> {
    /// The first message: the engines that may be started, in `--engine` order.
    Hello {
        /// Their names.
        engines: Vec<&'a str>,
        /// The name to start the rules process by.
        rules: &'a str,
        /// Whether `--records` gave a file (at `/api/records`).
        records: bool,
    },
    /// An engine was started under `id`.
    Started {
        /// The page's name for this process.
        id: &'a str,
        /// The configured engine.
        engine: &'a str,
        /// Its process id.
        pid: i32,
        /// The `option.X=` settings of its spec, for the page to send after the handshake.
        options: &'a [(String, String)],
    },
    /// A line of the engine's output.
    Line {
        /// The page's name for this process.
        id: &'a str,
        /// The line, without its end.
        line: &'a str,
    },
    /// The engine ended on its own (crash, closed output, a line too long).
    Exit {
        /// The page's name for this process.
        id: &'a str,
        /// What happened, as a sentence.
        message: &'a str,
        /// The last lines of its stderr.
        stderr: &'a [String],
    },
    /// The last lines of an engine's stderr, on request.
    Stderr {
        /// The page's name for this process.
        id: &'a str,
        /// The lines.
        lines: &'a [String],
    },
    /// A request the server refused, or a session that ends.
    Error {
        /// The page's name for the process concerned, if any.
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a str>,
        /// What is wrong, as a sentence.
        message: &'a str,
    },
}

/// A token bucket: `rate` messages a second on average, bursts of twice that.
struct RateLimit {
    tokens: f64,
    rate: f64,
    last: Instant,
}

impl RateLimit {
    fn new(rate: u32) -> RateLimit {
        RateLimit {
            tokens: 2.0 * f64::from(rate),
            rate: f64::from(rate),
            last: Instant::now(),
        }
    }

    fn allow(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + refill).min(2.0 * self.rate);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// One engine of the page: its generation under the page's id, its process, and why the
/// session stopped it, if it did (said to the page when its exit comes).
struct Slot {
    generation: u64,
    process: Process,
    stopped: Option<String>,
    /// Whether its output ended (its exit, with the status, usually follows at once).
    ended: bool,
    /// The translation for an engine of the Oware UCI dialect (`proto=uci`).
    uci: Option<OwareUci>,
}

impl Slot {
    /// Stops the engine for `why` without waiting; its exit is reported with that sentence.
    fn stop(&mut self, why: String) {
        if self.stopped.is_none() {
            self.stopped = Some(why);
        }
        self.process.stop();
    }
}

/// The session's state: its engines, and the channel their threads report on.
struct Session {
    settings: Arc<Settings>,
    engines: HashMap<String, Slot>,
    events: mpsc::Sender<Tagged>,
    generation: u64,
}

/// The sentence for an engine that exited with `status` (none: the system gave no status).
/// A kill the page asked for is never reported: its slot is gone before the exit comes.
fn exit_sentence(status: Option<std::process::ExitStatus>) -> String {
    use std::os::unix::process::ExitStatusExt;
    let Some(status) = status else {
        return "ended (the system gave no exit status)".to_string();
    };
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(signal)) => {
            let name = match signal {
                libc::SIGKILL => " (SIGKILL)",
                libc::SIGTERM => " (SIGTERM)",
                libc::SIGSEGV => " (SIGSEGV: a crash)",
                libc::SIGABRT => " (SIGABRT: a crash)",
                libc::SIGINT => " (SIGINT)",
                _ => "",
            };
            format!("was killed by signal {signal}{name}")
        }
        (None, None) => "ended without an exit status".to_string(),
    }
}

/// How long a message to the page may wait for the page to read: a page that stops reading
/// its socket would otherwise hold the session (and its engines) for ever.
const SEND_DEADLINE: std::time::Duration = std::time::Duration::from_secs(10);

/// Sends one message to the page; false when the socket is gone or the page does not read.
async fn send(socket: &mut WebSocket, message: &ToPage<'_>) -> bool {
    let text = serde_json::to_string(message).expect("messages serialize");
    let sent = socket.send(Message::Text(Utf8Bytes::from(text)));
    matches!(tokio::time::timeout(SEND_DEADLINE, sent).await, Ok(Ok(())))
}

/// Tells the page a request was refused; false when the socket is gone.
async fn refuse(socket: &mut WebSocket, id: Option<&str>, message: &str) -> bool {
    send(socket, &ToPage::Error { id, message }).await
}

/// A name the page may give a process: short, letters, digits, '-' and '_'.
fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 16
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Kills an engine the page is done with, its reaping off the async threads.
fn retire(mut slot: Slot) {
    slot.process.stop();
    tokio::task::spawn_blocking(move || drop(slot));
}

/// Runs one session until the socket closes, the page is idle too long or breaks a limit; every
/// engine it started is killed when it returns.
pub async fn run(mut socket: WebSocket, settings: Arc<Settings>) {
    let (events, mut incoming) = mpsc::channel::<Tagged>(256);
    let mut session = Session {
        settings: settings.clone(),
        engines: HashMap::new(),
        events,
        generation: 0,
    };
    let names: Vec<&str> = settings.engines.iter().map(|e| e.name.as_str()).collect();
    let hello = ToPage::Hello {
        engines: names,
        rules: crate::server::RULES,
        records: settings.records.is_some(),
    };
    if !send(&mut socket, &hello).await {
        return;
    }
    let mut limit = RateLimit::new(settings.max_messages);
    let idle = settings.idle_timeout;
    let mut deadline = tokio::time::Instant::now() + idle;
    loop {
        tokio::select! {
            message = socket.recv() => {
                let text = match message {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Binary(_))) => {
                        let message = "the page sent a binary message; the server takes JSON text";
                        refuse(&mut socket, None, message).await;
                        break;
                    }
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                };
                deadline = tokio::time::Instant::now() + idle;
                if !limit.allow() {
                    let message = format!(
                        "more than {} messages a second from the page: the session is closed",
                        settings.max_messages
                    );
                    refuse(&mut socket, None, &message).await;
                    break;
                }
                if !session.handle(&mut socket, &text).await {
                    break;
                }
            }
            Some((id, generation, event)) = incoming.recv() => {
                let Some(slot) = session.engines.get_mut(&id).filter(|s| s.generation == generation) else {
                    continue;
                };
                let alive = match event {
                    Event::Line(line) if slot.stopped.is_some() => { let _ = line; true }
                    Event::Line(line) if line.cut => {
                        slot.stop(format!(
                            "printed a line longer than {} bytes, so it was stopped",
                            settings.max_line
                        ));
                        true
                    }
                    Event::Line(line) => match &mut slot.uci {
                        None => send(&mut socket, &ToPage::Line { id: &id, line: &line.text }).await,
                        Some(uci) => {
                            let mut alive = true;
                            for line in uci.to_page(&line.text) {
                                alive = alive && send(&mut socket, &ToPage::Line { id: &id, line: &line }).await;
                            }
                            alive
                        }
                    },
                    // An engine that exits closes its output just before: give its exit (and
                    // status) a moment, then stop one that only closed its output. The second
                    // `End` is the session's own reminder.
                    Event::End if !slot.ended => {
                        slot.ended = true;
                        let events = session.events.clone();
                        tokio::spawn(async move {
                            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
                            let _ = events.send((id, generation, Event::End)).await;
                        });
                        true
                    }
                    Event::End => {
                        slot.stop("closed its output".to_string());
                        true
                    }
                    Event::Stalled => {
                        slot.stop("stopped reading its input, so it was stopped".to_string());
                        true
                    }
                    Event::Exited(status) => {
                        let slot = session.engines.remove(&id).expect("looked up above");
                        let stderr = slot.process.stderr_tail();
                        let why = slot.stopped.unwrap_or_else(|| exit_sentence(status));
                        let message = format!("engine '{}' {why}", slot.process.name());
                        send(&mut socket, &ToPage::Exit { id: &id, message: &message, stderr: &stderr }).await
                    }
                };
                if !alive {
                    break;
                }
            }
            _ = tokio::time::sleep_until(deadline) => {
                let message = format!(
                    "the page was idle for {} s: its engines were stopped (reload to start again)",
                    idle.as_secs()
                );
                refuse(&mut socket, None, &message).await;
                break;
            }
        }
    }
    for slot in session.engines.values_mut() {
        slot.process.stop();
    }
    // Dropping a process waits for its reaping, a moment after SIGKILL: off the async threads.
    let engines = std::mem::take(&mut session.engines);
    tokio::task::spawn_blocking(move || drop(engines));
    let _ = socket.send(Message::Close(None)).await;
}

impl Session {
    /// Carries out one message of the page; false to end the session.
    async fn handle(&mut self, socket: &mut WebSocket, text: &str) -> bool {
        let request: FromPage = match serde_json::from_str(text) {
            Ok(request) => request,
            Err(e) => {
                let message = format!("a message the server does not understand: {e}");
                return refuse(socket, None, &message).await;
            }
        };
        match request {
            FromPage::Start { id, engine } => self.start(socket, id, &engine).await,
            FromPage::Send { id, line } => {
                let fault = if line.len() > self.settings.max_line {
                    Some(format!(
                        "a line of {} bytes is longer than the {} allowed to an engine",
                        line.len(),
                        self.settings.max_line
                    ))
                } else if line.contains(['\n', '\r']) {
                    Some("a line to an engine cannot hold a line break".to_string())
                } else {
                    None
                };
                if let Some(message) = fault {
                    return refuse(socket, Some(&id), &message).await;
                }
                match self.engines.get_mut(&id) {
                    // The line is queued, never awaited: an engine that does not read is stopped,
                    // and one that is dying is reported by its exit.
                    Some(slot) => {
                        let line = match slot.uci.as_mut().map(|uci| uci.to_engine(&line)) {
                            None => line,
                            Some(Ok(Some(line))) => line,
                            Some(Ok(None)) => return true,
                            Some(Err(error)) => {
                                return send(
                                    socket,
                                    &ToPage::Line {
                                        id: &id,
                                        line: &error,
                                    },
                                )
                                .await;
                            }
                        };
                        if let Err(SendError::Stalled) = slot.process.send_line(&line) {
                            slot.stop("stopped reading its input, so it was stopped".to_string());
                        }
                        true
                    }
                    None => {
                        let message = format!("no engine '{id}' is running in this page");
                        refuse(socket, Some(&id), &message).await
                    }
                }
            }
            FromPage::Kill { id } => {
                if let Some(slot) = self.engines.remove(&id) {
                    retire(slot);
                }
                true
            }
            FromPage::Stderr { id } => {
                let lines = self
                    .engines
                    .get(&id)
                    .map(|slot| slot.process.stderr_tail())
                    .unwrap_or_default();
                send(
                    socket,
                    &ToPage::Stderr {
                        id: &id,
                        lines: &lines,
                    },
                )
                .await
            }
        }
    }

    /// Starts the configured engine `name` under the page's `id`, replacing one of that id.
    async fn start(&mut self, socket: &mut WebSocket, id: String, name: &str) -> bool {
        if !valid_id(&id) {
            let message = "an engine id is 1 to 16 letters, digits, '-' or '_'";
            return refuse(socket, None, message).await;
        }
        let settings = self.settings.clone();
        let rules = (name == crate::server::RULES).then_some(&settings.rules);
        let Some(spec) = rules.or_else(|| settings.engines.iter().find(|e| e.name == name)) else {
            let known: Vec<&str> = self
                .settings
                .engines
                .iter()
                .map(|e| e.name.as_str())
                .collect();
            let message = format!(
                "no engine named '{}' is configured (this server starts only: {})",
                name.chars().take(40).collect::<String>(),
                known.join(", ")
            );
            return refuse(socket, Some(&id), &message).await;
        };
        if let Some(old) = self.engines.remove(&id) {
            retire(old);
        }
        if self.engines.len() >= MAX_ENGINES {
            let message = format!("a page may run at most {MAX_ENGINES} engines at once");
            return refuse(socket, Some(&id), &message).await;
        }
        self.generation += 1;
        let generation = self.generation;
        let process = match process::spawn(
            spec,
            self.settings.max_line,
            &id,
            generation,
            self.events.clone(),
        ) {
            Ok(process) => process,
            Err(message) => {
                return send(
                    socket,
                    &ToPage::Exit {
                        id: &id,
                        message: &message,
                        stderr: &[],
                    },
                )
                .await;
            }
        };
        let pid = process.pid() as i32;
        self.engines.insert(
            id.clone(),
            Slot {
                generation,
                process,
                stopped: None,
                ended: false,
                uci: (spec.proto == ProtoChoice::Only(Proto::Uci)).then(OwareUci::default),
            },
        );
        send(
            socket,
            &ToPage::Started {
                id: &id,
                engine: &spec.name,
                pid,
                options: &spec.options,
            },
        )
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::exit_sentence;
    use std::os::unix::process::ExitStatusExt;
    use std::process::ExitStatus;

    #[test]
    fn an_exit_is_said_with_its_status_or_its_signal() {
        assert_eq!(
            exit_sentence(Some(ExitStatus::from_raw(3 << 8))),
            "exited with status 3"
        );
        assert_eq!(
            exit_sentence(Some(ExitStatus::from_raw(libc::SIGSEGV))),
            format!("was killed by signal {} (SIGSEGV: a crash)", libc::SIGSEGV)
        );
        assert_eq!(
            exit_sentence(None),
            "ended (the system gave no exit status)"
        );
    }
}
