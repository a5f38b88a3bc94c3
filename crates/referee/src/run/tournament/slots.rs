//! The game slots of a run: worker threads that take jobs, seat engines from the shared pool,
//! play the games and send their records to the main thread.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::Duration;

use anyhow::{Result, anyhow};
use serde_json::Value;

use super::RunEnd;
use super::collect::Collector;
use super::plan::Job;
use super::progress::{Progress, progress_bar};
use crate::config::MatchConfig;
use crate::engine::pool::Pool;
use crate::engine::seat::StartSettings;
use crate::engine::signal;
use crate::engine::{EngineError, log_path};
use crate::record::{GameRecord, Reason, RecordWriter, result_string};
use crate::run::game::{self, GameOutcome, GameSettings};
use crate::run::openings::{Opening, Openings, STREAM_GAME, derive_seed};
use pion_process::utc_timestamp;
use pion_rules::game::Game;

pub(super) enum Message {
    Record(Box<GameRecord>),
    /// A pair is finished; the worker waits for the answer on the sender before it starts
    /// another, so that a decided SPRT stops every worker before its next pair.
    PairDone(std::sync::mpsc::Sender<()>),
}

pub(super) struct Shared {
    pub(super) jobs: Vec<Job>,
    pub(super) next: AtomicUsize,
    pub(super) stop: AtomicBool,
}

/// Starts one process of every engine: one that cannot start at all ends the run before any
/// game, with its error. The processes stay in the pool for the first games.
fn check_engines(config: &MatchConfig, pool: &Pool) -> Result<(), String> {
    for (e, spec) in config.engines.iter().enumerate() {
        let mut seat = pool.take(e);
        if let Err(error) = seat.start() {
            let hint = match &error {
                EngineError::Spawn(_) => String::new(),
                _ => format!(
                    " (its stderr is in {})",
                    log_path(&config.log_dir, &spec.name, 0).display()
                ),
            };
            return Err(match error {
                EngineError::Spawn(what) => what,
                other => format!("engine '{}' failed to start: {other}{hint}", spec.name),
            });
        }
        pool.give_back(e, seat);
    }
    Ok(())
}

/// What every game slot of a run shares.
pub(super) struct Run<'a, G: Game> {
    pub(super) config: &'a MatchConfig,
    pub(super) variant: G::Variant,
    pub(super) openings: Openings,
    pub(super) conditions: Value,
}

impl<G: Game> Run<'_, G> {
    /// Plays `jobs` in game slots, appending each record to `writer` and `records` as it comes.
    pub(super) fn play(
        self,
        jobs: Vec<Job>,
        writer: Option<&mut RecordWriter>,
        records: &mut Vec<GameRecord>,
    ) -> Result<RunEnd> {
        let config = self.config;
        let to_play: u64 = jobs.iter().map(|j| j.games.len() as u64).sum();
        let slots = config.concurrency.max(1).min(to_play as usize);
        let pool = Arc::new(start_pool::<G>(config, slots));
        if let Err(error) = check_engines(config, &pool) {
            pool.close_all(true);
            if !signal::interrupted() {
                return Err(anyhow!(error));
            }
            // Ctrl-C during the start: not the engine's fault; report what is recorded.
            return Ok(RunEnd {
                interrupted: true,
                sprt_stopped: false,
            });
        }
        let shared = Arc::new(Shared {
            jobs,
            next: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
        });
        let (tx, rx) = channel();
        let slots = self.spawn_slots(slots, &shared, pool, tx)?;
        let total = records.len() as u64 + to_play;
        let mut collector = Collector {
            config,
            bar: progress_bar(total, records.len() as u64),
            progress: Progress::new(config, records),
            records,
            writer,
            total,
            end: RunEnd {
                interrupted: false,
                sprt_stopped: false,
            },
            after_decision: 0,
        };
        if let Err(error) = collector.collect(&rx, &shared) {
            // Losing records silently is the one thing a referee must not do.
            shared.stop.store(true, Ordering::SeqCst);
            collector.bar.abandon();
            // Workers waiting for a pair's answer see the channel close and end.
            drop(rx);
            slots.end(true);
            return Err(error);
        }
        collector.bar.finish_and_clear();
        collector.end.interrupted |= signal::interrupted();
        slots.end(collector.end.interrupted);
        if collector.after_decision > 0 {
            eprintln!(
                "referee: {} game(s) in progress when the SPRT decided were not recorded",
                collector.after_decision
            );
        }
        Ok(collector.end)
    }

    /// Starts `count` game slots, each playing jobs from `shared` with engines from `pool`
    /// and sending what it plays on `tx`.
    fn spawn_slots(
        self,
        count: usize,
        shared: &Arc<Shared>,
        pool: Arc<Pool>,
        tx: Sender<Message>,
    ) -> Result<Slots> {
        let (config, variant) = (self.config, self.variant);
        let openings = Arc::new(self.openings);
        let conditions = Arc::new(self.conditions);
        // An engine started by a slot's thread gets SIGKILL when that thread ends (Linux's
        // parent-death signal follows the thread), and other slots may be using it: the slots
        // wait here until the main thread has closed the pool.
        let release = Arc::new(Barrier::new(count + 1));
        let mut handles = Vec::new();
        for w in 0..count {
            let tx = tx.clone();
            let shared = Arc::clone(shared);
            let openings = Arc::clone(&openings);
            let pool = Arc::clone(&pool);
            let conditions = Arc::clone(&conditions);
            let release = Arc::clone(&release);
            let config = config.clone();
            let handle = thread::Builder::new()
                .name(format!("slot-{w}"))
                .spawn(move || {
                    play_jobs::<G>(
                        &config,
                        variant,
                        &shared,
                        &openings,
                        &pool,
                        &conditions,
                        &tx,
                    );
                    drop(tx);
                    release.wait();
                })?;
            handles.push(handle);
        }
        Ok(Slots {
            pool,
            release,
            handles,
        })
    }
}

/// The running game slots.
struct Slots {
    pool: Arc<Pool>,
    release: Arc<Barrier>,
    handles: Vec<thread::JoinHandle<()>>,
}

impl Slots {
    /// Closes the pool (killing the engines with `kill`, else asking them to quit), then lets
    /// the slots end and waits for them.
    fn end(self, kill: bool) {
        self.pool.close_all(kill);
        self.release.wait();
        for handle in self.handles {
            let _ = handle.join();
        }
    }
}

/// The pool of engine processes for `slots` game slots.
fn start_pool<G: Game>(config: &MatchConfig, slots: usize) -> Pool {
    let settings = StartSettings {
        game: G::KIND,
        variant: config.variant.clone(),
        startup_timeout: config.startup_timeout,
        isready_timeout: config.isready_timeout,
        quit_timeout: config.quit_timeout,
        log_all_info: config.log_all_info,
    };
    Pool::new(
        config.engines.clone(),
        settings,
        config.log_dir.clone(),
        slots,
    )
}

/// One game slot: takes jobs from `shared` until none is left or the run stops, plays their
/// games with engines from `pool`, and sends the records on `tx`.
fn play_jobs<G: Game>(
    config: &MatchConfig,
    variant: G::Variant,
    shared: &Shared,
    openings: &Openings,
    pool: &Pool,
    conditions: &Value,
    tx: &Sender<Message>,
) {
    let slot = Slot::<G> {
        config,
        variant,
        openings,
        pool,
        conditions,
        names: config.engines.iter().map(|e| e.name.clone()).collect(),
    };
    let stopped = || shared.stop.load(Ordering::SeqCst) || signal::interrupted();
    loop {
        if stopped() {
            return;
        }
        let index = shared.next.fetch_add(1, Ordering::SeqCst);
        let Some(job) = shared.jobs.get(index) else {
            return;
        };
        let opening = openings.for_pair::<G>(job.opening, variant);
        for &(g, players) in &job.games {
            if stopped() {
                return;
            }
            let Some(record) = slot.play(job, g, players, &opening) else {
                return;
            };
            if tx.send(Message::Record(Box::new(record))).is_err() {
                return;
            }
        }
        if config.sprt.is_some() {
            let (done, answered) = std::sync::mpsc::channel();
            if tx.send(Message::PairDone(done)).is_err() || answered.recv().is_err() {
                return;
            }
        }
    }
}

/// What a game slot plays with.
struct Slot<'a, G: Game> {
    config: &'a MatchConfig,
    variant: G::Variant,
    openings: &'a Openings,
    pool: &'a Pool,
    conditions: &'a Value,
    names: Vec<String>,
}

impl<G: Game> Slot<'_, G> {
    /// Plays game `g` of `job` between the engines `players` from `opening`: its record, or
    /// `None` when the run was interrupted during it.
    fn play(
        &self,
        job: &Job,
        g: u64,
        players: [usize; 2],
        opening: &Opening,
    ) -> Option<GameRecord> {
        let config = self.config;
        let settings = GameSettings {
            opening: opening.clone(),
            seed: derive_seed(config.seed, STREAM_GAME, g),
            tc: players.map(|p| config.engines[p].tc.unwrap_or(config.tc)),
            time_margin: config.time_margin,
            hang_timeout: config.hang_timeout,
            isready_timeout: config.isready_timeout,
            max_plies: config.max_plies,
            max_plies_rule: config.max_plies_rule,
            adjudication: config.adjudication,
        };
        let mut seats = players.map(|p| self.pool.take(p));
        let [a, b] = &mut seats;
        let outcome = game::play::<G>([a, b], &settings, self.variant);
        // SIGTERM sent to every process of a job (Slurm's scancel, systemd) reaches the
        // engines too: their exits are the interrupt's doing, not forfeits.
        let cut = match &outcome {
            Err(_) => true,
            Ok(o) => o.reason == Reason::Crash && crash_from_interrupt(),
        };
        for (seat, p) in seats.into_iter().zip(players) {
            if cut || signal::interrupted() {
                let mut seat = seat;
                seat.discard();
            } else {
                self.pool.give_back(p, seat);
            }
        }
        let outcome = outcome.ok().filter(|_| !cut)?;
        Some(self.record(job, g, players, &settings, outcome))
    }

    /// The record of game `g` of `job`, played by `players` under `settings`.
    fn record(
        &self,
        job: &Job,
        g: u64,
        players: [usize; 2],
        settings: &GameSettings,
        outcome: GameOutcome,
    ) -> GameRecord {
        let names = &self.names;
        let pairing = if self.config.tournament.is_some() {
            let (lo, hi) = (players[0].min(players[1]), players[0].max(players[1]));
            [names[lo].clone(), names[hi].clone()]
        } else {
            [names[0].clone(), names[1].clone()]
        };
        GameRecord {
            game: g,
            pair: job.pair,
            round: job.round,
            engines: pairing,
            first: names[players[0]].clone(),
            second: names[players[1]].clone(),
            rules: G::NAME.to_string(),
            variant: G::variant_name(self.variant).to_string(),
            start: settings.opening.start.clone(),
            opening: settings.opening.moves.clone(),
            moves: outcome.moves,
            data: outcome.data,
            result: result_string(outcome.winner).to_string(),
            reason: outcome.reason,
            detail: outcome.detail,
            rule: outcome.rule,
            loser: outcome.loser.map(|p| names[players[p]].clone()),
            score: outcome.score,
            times_ms: outcome.times_ms,
            seed: settings.seed,
            started: Some(utc_timestamp(outcome.started)),
            ids: Some(outcome.players),
            conditions: self.conditions.clone(),
            match_games: self.config.games,
            openings: Some(self.openings.describe()),
        }
    }
}

/// Whether the referee is interrupted, or is about to be: a signal sent to the engines too may
/// end one a moment before the referee's own handler runs.
fn crash_from_interrupt() -> bool {
    let until = std::time::Instant::now() + Duration::from_millis(300);
    loop {
        if signal::interrupted() {
            return true;
        }
        if std::time::Instant::now() >= until {
            return false;
        }
        thread::sleep(Duration::from_millis(10));
    }
}
