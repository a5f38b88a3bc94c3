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

use crate::process::{Engine, Event};
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

/// An engine's event with the page's name for it and the engine's generation under that name
/// (a restarted engine's late lines are not the new one's).
type Tagged = (String, u64, Event);

/// The session's state: its engines, and the channel their readers report on.
struct Session {
    settings: Arc<Settings>,
    engines: HashMap<String, (u64, Engine)>,
    events: mpsc::Sender<Tagged>,
    generation: u64,
}

/// Sends one message to the page; false when the socket is gone.
async fn send(socket: &mut WebSocket, message: &ToPage<'_>) -> bool {
    let text = serde_json::to_string(message).expect("messages serialize");
    socket
        .send(Message::Text(Utf8Bytes::from(text)))
        .await
        .is_ok()
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
                if session.engines.get(&id).is_none_or(|(g, _)| *g != generation) {
                    continue;
                }
                let alive = match &event {
                    Event::Line(line) => send(&mut socket, &ToPage::Line { id: &id, line }).await,
                    Event::Exit { message, stderr } => {
                        session.engines.remove(&id);
                        send(&mut socket, &ToPage::Exit { id: &id, message, stderr }).await
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
    for (_, engine) in session.engines.values_mut() {
        engine.kill();
    }
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
                    // A failed write means the engine is dying: its reader reports the exit.
                    Some((_, engine)) => {
                        let _ = engine.send(&line).await;
                        true
                    }
                    None => {
                        let message = format!("no engine '{id}' is running in this page");
                        refuse(socket, Some(&id), &message).await
                    }
                }
            }
            FromPage::Kill { id } => {
                if let Some((_, mut engine)) = self.engines.remove(&id) {
                    engine.kill();
                }
                true
            }
            FromPage::Stderr { id } => {
                let lines = self
                    .engines
                    .get(&id)
                    .map(|(_, engine)| engine.stderr_tail())
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
        let Some(spec) = self.settings.engines.iter().find(|e| e.name == name) else {
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
        if let Some((_, mut old)) = self.engines.remove(&id) {
            old.kill();
        }
        if self.engines.len() >= MAX_ENGINES {
            let message = format!("a page may run at most {MAX_ENGINES} engines at once");
            return refuse(socket, Some(&id), &message).await;
        }
        let (tx, mut rx) = mpsc::channel::<Event>(256);
        let engine = match Engine::spawn(spec, self.settings.max_line, tx) {
            Ok(engine) => engine,
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
        let pid = engine.pid();
        // One channel for the session: each engine's events are tagged with the page's id.
        let events = self.events.clone();
        let tag = id.clone();
        self.generation += 1;
        let generation = self.generation;
        tokio::spawn(async move {
            while let Some(event) = rx.recv().await {
                if events.send((tag.clone(), generation, event)).await.is_err() {
                    break;
                }
            }
        });
        self.engines.insert(id.clone(), (generation, engine));
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
