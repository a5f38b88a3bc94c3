//! Where replies go: one sink shared by the session and the threads that search, printing in
//! the session's dialect.

use std::io::{self, Write};
use std::sync::{Arc, Mutex, MutexGuard};

use pion_protocol::{Dialect, Reply, UciPrinter};

/// The writer and the printer of the session's dialect (`None`: pion's own).
pub(super) struct Sink {
    writer: Box<dyn Write + Send>,
    uci: Option<UciPrinter>,
}

/// Where replies go: shared by the session and the search thread, flushed after every reply.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Sink>>,
}

impl Output {
    /// Replies to standard output.
    pub fn stdout() -> Output {
        Output::new(Box::new(io::stdout()))
    }

    /// Replies to any writer (tests).
    pub fn new(writer: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Arc::new(Mutex::new(Sink { writer, uci: None })),
        }
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, Sink> {
        self.sink
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Prints the replies that follow in `dialect`.
    pub(super) fn set_dialect(&self, dialect: Dialect) {
        let mut sink = self.lock();
        match dialect {
            Dialect::Pion => sink.uci = None,
            Dialect::Uci => {
                sink.uci.get_or_insert_with(UciPrinter::default);
            }
        }
    }

    /// Sends one reply. A closed output is ignored: the front end has gone, and EOF on input
    /// will end the session.
    pub fn send(&self, reply: &Reply) {
        let mut sink = self.lock();
        Self::write(&mut sink, reply);
    }

    pub(super) fn write(sink: &mut MutexGuard<'_, Sink>, reply: &Reply) {
        let sink = &mut **sink;
        let line = match &mut sink.uci {
            None => Some(reply.to_string()),
            Some(printer) => printer.line(reply),
        };
        if let Some(line) = line {
            let _ = writeln!(sink.writer, "{line}");
            let _ = sink.writer.flush();
        }
    }
}
