//! Engine processes for browser sessions, through pion's one process layer (`pion-process`):
//! started from a configured spec, their events pushed into the session's channel, tagged with
//! the page's name for the engine and the engine's generation under that name.

use std::sync::Arc;

use pion_process::{Event, Launch, Output, Process};
use pion_referee::config::EngineSpec;
use tokio::sync::mpsc;

/// An engine's event with the page's name for it and the engine's generation under that name
/// (a restarted engine's late lines are not the new one's).
pub type Tagged = (String, u64, Event);

/// Starts `spec`'s program for the page's `id`; its stdout lines (at most `max_line` bytes
/// each) and its end go to `events`, tagged. Call it from the session's task, not from a
/// blocking pool thread: the parent-death signal follows the thread that starts a child.
pub fn spawn(
    spec: &EngineSpec,
    max_line: usize,
    id: &str,
    generation: u64,
    events: mpsc::Sender<Tagged>,
) -> Result<Process, String> {
    let tag = id.to_string();
    // Called from the process layer's threads, never from the runtime: a full channel makes
    // the reader wait (so the engine waits on its pipe), it never blocks the session.
    let sink = Arc::new(move |event: Event| {
        events
            .blocking_send((tag.clone(), generation, event))
            .is_ok()
    });
    Process::spawn(
        &Launch {
            name: &spec.name,
            command: &spec.command,
            dir: spec.dir.as_deref(),
            log: None,
            hold: None,
            max_line,
            interrupt: None,
        },
        Output::Push(sink),
    )
    .map_err(|e| e.to_string())
}

/// Kills every engine process group still alive: the last thing the server does on shutdown.
pub fn kill_all() -> usize {
    pion_process::kill_all()
}

/// The number of engine processes alive now (started and not yet reaped).
pub fn live_count() -> usize {
    pion_process::live_count()
}
