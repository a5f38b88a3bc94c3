//! The main thread's side of a run: each game's record written as it comes, the progress
//! shown, and each finished pair answered with the SPRT's decision.

use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use anyhow::Result;
use indicatif::ProgressBar;

use super::progress::Progress;
use super::slots::{Message, Shared};
use super::{RunEnd, final_report};
use crate::config::MatchConfig;
use crate::engine::signal;
use crate::record::{GameRecord, RecordWriter};
use crate::report::stats::SprtDecision;
use crate::report::summary;

/// The main thread's side of a run: records each game as it comes, shows the progress, and
/// answers each finished pair with the SPRT's decision.
pub(super) struct Collector<'a> {
    pub(super) config: &'a MatchConfig,
    pub(super) records: &'a mut Vec<GameRecord>,
    pub(super) writer: Option<&'a mut RecordWriter>,
    pub(super) bar: ProgressBar,
    /// The numbers of the progress line, over `records`.
    pub(super) progress: Progress,
    pub(super) total: u64,
    pub(super) end: RunEnd,
    /// Games that ended after the SPRT decided, and are not recorded.
    pub(super) after_decision: u64,
}

impl Collector<'_> {
    /// Takes the slots' messages until every slot has ended; an error if a record could not
    /// be written.
    pub(super) fn collect(&mut self, rx: &Receiver<Message>, shared: &Shared) -> Result<()> {
        self.bar.set_message(self.progress.message());
        loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                // The SPRT has decided: games that end after the decision are not part of the
                // test (and would move its LLR away from the bound that stopped it).
                Ok(Message::Record(_)) if self.end.sprt_stopped => self.after_decision += 1,
                Ok(Message::Record(record)) => self.record(*record)?,
                Ok(Message::PairDone(done)) => {
                    self.pair_done(shared);
                    let _ = done.send(());
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Ok(()),
            }
            if signal::interrupted() && !self.end.interrupted {
                self.end.interrupted = true;
                shared.stop.store(true, Ordering::SeqCst);
            }
        }
    }

    /// Writes a game's record and shows the progress.
    fn record(&mut self, record: GameRecord) -> Result<()> {
        if let Some(writer) = self.writer.as_mut() {
            writer.append(&record)?;
        }
        self.progress.add(&record);
        self.records.push(record);
        self.bar.inc(1);
        let message = self.progress.message();
        let done = self.records.len() as u64;
        let total = self.total;
        let milestone = done.is_multiple_of((total / 20).max(1)) || done == total;
        if self.bar.is_hidden() && milestone {
            // Without a terminal (a log, nohup, CI), a line every twentieth.
            eprintln!("referee: {done}/{total} games  {message}");
        } else if done.is_multiple_of((total / 5).max(1)) && self.config.tournament.is_some() {
            let table = final_report(self.config, self.records).map(|r| r.text());
            if let Ok(table) = table {
                self.bar.suspend(|| eprint!("{table}"));
            }
        }
        self.bar.set_message(message);
        Ok(())
    }

    /// After a pair: prints the SPRT's state, and stops the run if it has decided.
    fn pair_done(&mut self, shared: &Shared) {
        let sprt = self.config.sprt.as_ref().zip(self.progress.counts());
        if let Some(state) = sprt.map(|(spec, counts)| summary::sprt(spec, counts)) {
            self.bar
                .suspend(|| eprintln!("{}", summary::sprt_line(&state)));
            if state.decision != SprtDecision::Continue && !shared.stop.swap(true, Ordering::SeqCst)
            {
                self.end.sprt_stopped = true;
            }
        }
    }
}
