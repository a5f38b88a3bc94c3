//! Where replies go: one sink shared by the session and the threads that search.

use std::io::{self, Write};
use std::sync::{Arc, Mutex, MutexGuard};

use pion_protocol::Reply;

/// Where replies go: shared by the session and the search thread, flushed after every reply.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Replies to standard output.
    pub fn stdout() -> Output {
        Output::new(Box::new(io::stdout()))
    }

    /// Replies to any writer (tests).
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Arc::new(Mutex::new(sink)),
        }
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, Box<dyn Write + Send>> {
        self.sink
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Sends one reply. A closed output is ignored: the front end has gone, and EOF on input
    /// will end the session.
    pub fn send(&self, reply: &Reply) {
        let mut sink = self.lock();
        Self::write(&mut sink, reply);
    }

    pub(super) fn write(sink: &mut MutexGuard<'_, Box<dyn Write + Send>>, reply: &Reply) {
        let _ = writeln!(sink, "{reply}");
        let _ = sink.flush();
    }
}
