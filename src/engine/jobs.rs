//! Work on its own thread: a search (`go`), `perft` or `bench`, and how it is stopped and
//! joined. The input loop stays free to read `stop` and to keep later commands waiting; the
//! thread says when it has finished, so that they run at once.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use super::output::Output;
use super::state::Table;
use super::{Event, Session};
use crate::search::{self, Limits, SearchGame};
use pion_protocol::Reply;
use std::sync::mpsc::Sender;

/// The command whose work runs on its own thread through [`Session::spawn_job`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Work {
    Perft,
    Bench,
}

impl Work {
    /// The command's name, for its replies.
    fn name(self) -> &'static str {
        match self {
            Work::Perft => "perft",
            Work::Bench => "bench",
        }
    }
}

/// A search, `perft` or `bench` running on its own thread.
pub(super) struct RunningSearch {
    pub(super) stop: Arc<AtomicBool>,
    /// Set, under the output lock, right after its last reply (`bestmove`, say) is written.
    pub(super) finished: Arc<AtomicBool>,
    pub(super) handle: JoinHandle<()>,
    /// Whether it ends by itself (a depth, node or time limit; `perft` and `bench` always do).
    pub(super) bounded: bool,
}

/// The work of a `perft` or `bench` command, given its stop flag: its one reply.
pub(super) type Job = Box<dyn FnOnce(&AtomicBool) -> Reply + Send>;

impl Session {
    /// Runs `job` on its own thread as the work of command `work`: its one reply line is written
    /// when it ends, and `stop` or `quit` end it sooner.
    pub(super) fn spawn_job(
        &mut self,
        work: Work,
        job: impl FnOnce(&AtomicBool) -> Reply + Send + 'static,
    ) {
        let stop = Arc::new(AtomicBool::new(false));
        let finished = Arc::new(AtomicBool::new(false));
        let (out, thread_stop, thread_finished, wake) = (
            self.out.clone(),
            stop.clone(),
            finished.clone(),
            self.wake.clone(),
        );
        let handle = std::thread::spawn(move || {
            let reply = catch_unwind(AssertUnwindSafe(|| job(&thread_stop)))
                .unwrap_or_else(|_| Reply::Error(format!("{} failed", work.name())));
            let mut sink = out.lock();
            Output::write(&mut sink, &reply);
            thread_finished.store(true, Ordering::Release);
            say_finished(wake);
        });
        self.search = Some(RunningSearch {
            stop,
            finished,
            handle,
            bounded: true,
        });
    }

    /// Forgets a search whose `bestmove` has been sent, so that the next command may change state.
    pub(super) fn reap_search(&mut self) {
        let finished = match &self.search {
            // Read under the output lock: a front end that has seen `bestmove` is never refused.
            Some(search) => {
                let _guard = self.out.lock();
                search.finished.load(Ordering::Acquire)
            }
            None => return,
        };
        if finished {
            self.join_search();
        }
    }

    pub(super) fn stop_search(&mut self) {
        if let Some(search) = &self.search {
            search.stop.store(true, Ordering::Relaxed);
        }
        self.join_search();
    }

    pub(super) fn join_search(&mut self) {
        if let Some(search) = self.search.take() {
            let _ = search.handle.join();
        }
    }
}

pub(super) fn spawn_search<G: SearchGame>(
    table: &Table<G>,
    limits: Limits,
    out: Output,
    stop: Arc<AtomicBool>,
    finished: Arc<AtomicBool>,
    wake: Option<Sender<Event>>,
) -> JoinHandle<()> {
    let history = table.history.clone();
    let searcher = table.searcher.clone();
    std::thread::spawn(move || {
        let report = |info: &search::Info| out.send(&Reply::Info(info.clone()));
        let result = catch_unwind(AssertUnwindSafe(|| {
            let mut searcher = searcher
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let mut report = report;
            searcher.search(&history, &limits, &stop, &mut report)
        }));
        let best = match result {
            Ok(best) => best,
            Err(_) => {
                // Never leave a front end waiting: fall back to the first legal move.
                out.send(&Reply::Error(
                    "search failed; playing the first legal move".into(),
                ));
                let mut moves = G::Moves::default();
                history.legal_moves(&mut moves);
                moves.as_ref().first().copied()
            }
        };
        let mut sink = out.lock();
        Output::write(&mut sink, &Reply::BestMove(best.map(G::format_move)));
        finished.store(true, Ordering::Release);
        say_finished(wake);
    })
}

/// Tells the input loop that work has finished, so that the commands waiting for it run.
fn say_finished(wake: Option<Sender<Event>>) {
    if let Some(wake) = wake {
        let _ = wake.send(Event::Finished);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{self, Write};
    use std::sync::Mutex;

    /// A writer whose bytes the test reads back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_job_that_panics_replies_with_an_error_and_the_session_goes_on() {
        let sink = Shared::default();
        let mut session = Session::new(Output::new(Box::new(sink.clone())));
        session.spawn_job(Work::Perft, |_| panic!("a bug in the count"));
        session.join_search();
        session.handle_line("perft 1");
        session.join_search();
        let text = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "error perft failed");
        assert!(lines[1].starts_with("perft depth 1 nodes 292 "), "{text}");
        assert_eq!(lines.len(), 2, "{text}");
    }
}
