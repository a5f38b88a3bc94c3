//! The engine session: the state behind the protocol and the dispatch of commands.
//!
//! Data flows one way: a line of text becomes a typed [`Command`](pion_protocol::Command) (by
//! the protocol crate's parser), the session runs it (`handlers.rs`, on the game state of
//! `state.rs`), and typed [`Reply`] values become text in the [`Output`]. A search, `perft` or
//! `bench` runs on its own thread (`jobs.rs`) and writes its replies to the same output.
//!
//! Every command either changes the state completely or not at all: a command that fails sends
//! one `error` line and leaves everything as it was.

mod handlers;
mod jobs;
mod output;
mod state;

use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::atomic::Ordering;
use std::sync::mpsc;

use crate::search::Settings;
use jobs::RunningSearch;
pub use output::Output;
use pion_protocol::{Command, Dialect, GameKind, Line, LineReader, MAX_LINE, Reply, parse_in};
use state::AnyTable;

/// The deepest `go depth` the protocol accepts.
pub const MAX_GO_DEPTH: u32 = crate::search::MAX_DEPTH;

/// The deepest `perft` the protocol and the command line accept.
pub const MAX_PERFT_DEPTH: u32 = 16;

/// The deepest `bench` the protocol and the command line accept (as for `go`).
pub const MAX_BENCH_DEPTH: u32 = MAX_GO_DEPTH;

/// What the input loop should do after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// Exit.
    Quit,
}

/// An error reply's text.
type CommandResult = Result<(), String>;

/// The engine session: options, the current game, and the running search if any.
pub struct Session {
    out: Output,
    settings: Settings,
    table: AnyTable,
    search: Option<RunningSearch>,
    /// A `Variant` of the other game only, kept for that game's next start (see
    /// [`Session::choose_variant`]).
    kept_variant: Option<(GameKind, String)>,
    /// The protocol the front end speaks, chosen by its handshake (`pion`, `ugi` or `uci`).
    dialect: Dialect,
    /// Commands that wait for the running search, `perft` or `bench` to end, in order.
    waiting: VecDeque<Command>,
    /// Where a finished search says so, when [`Session::run`] reads the input.
    wake: Option<mpsc::Sender<Event>>,
}

/// What the input loop of [`Session::run`] hears: a line, the end of a search, or the end of
/// input.
enum Event {
    Line(std::io::Result<Line>),
    Finished,
    End,
}

const ENGINE_NAME: &str = "pion";
const ENGINE_AUTHOR: &str = "the pion developers";

impl Session {
    /// A session that replies to `out`, playing Avalam from the start position.
    pub fn new(out: Output) -> Session {
        let settings = Settings::default();
        Session {
            out,
            settings,
            table: AnyTable::new(GameKind::Avalam, settings),
            search: None,
            kept_variant: None,
            dialect: Dialect::Pion,
            waiting: VecDeque::new(),
            wake: None,
        }
    }

    /// Reads commands from `input` until `quit` or end of input. Lines are read on a thread of
    /// their own, so that `stop` is read while commands wait for a search, and commands that
    /// wait run as soon as it ends, with no more input needed. At end of input a search with a
    /// limit, a `perft` or a `bench` runs to its end and the commands waiting for it are carried
    /// out (so `printf 'go depth 5\n' | pion` prints its result); an unlimited search is stopped.
    pub fn run(&mut self, input: impl BufRead + Send + 'static) {
        let (events, inbox) = mpsc::channel();
        self.wake = Some(events.clone());
        std::thread::spawn(move || {
            for line in LineReader::new(input, MAX_LINE) {
                if events.send(Event::Line(line)).is_err() {
                    return;
                }
            }
            let _ = events.send(Event::End);
        });
        for event in inbox {
            let flow = match event {
                Event::Line(Ok(Line::Text(text))) => self.handle_line(&text),
                Event::Line(Ok(Line::TooLong)) => {
                    self.error(format!("line too long: the limit is {MAX_LINE} bytes"));
                    Flow::Continue
                }
                Event::Line(Ok(Line::NotUtf8)) => {
                    self.error("line is not valid UTF-8".to_string());
                    Flow::Continue
                }
                Event::Line(Err(e)) => {
                    eprintln!("pion: reading input failed: {e}");
                    break;
                }
                Event::Finished => {
                    self.run_waiting();
                    Flow::Continue
                }
                Event::End => break,
            };
            if flow == Flow::Quit {
                self.stop_search();
                return;
            }
        }
        if let Some(search) = &self.search
            && !search.bounded
        {
            search.stop.store(true, Ordering::Relaxed);
        }
        self.join_search();
        while !self.waiting.is_empty() {
            self.run_waiting();
            self.join_search();
        }
    }

    /// Handles one input line: parses it and runs the command, replying on the output.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        if line.trim().is_empty() {
            return Flow::Continue;
        }
        match parse_in(self.dialect, line) {
            Ok(Some(command)) => self.handle(command),
            Ok(None) => Flow::Continue,
            Err(e) => {
                self.error(e.0);
                Flow::Continue
            }
        }
    }

    fn error(&self, message: String) {
        self.out.send(&Reply::Error(message));
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop_search();
    }
}
