//! A match or a tournament: games played by game slots (worker threads) with engine processes
//! taken from a shared pool, recorded as they finish, reported at the end.
//!
//! A match is two engines in pairs of games: game `g` belongs to pair `g / 2`; in the even game
//! the first engine is player 1, in the odd one the second is. A tournament plays the games of
//! [`schedule::plan`], numbered the same way. The opening of a pair (of a round, in a
//! tournament) and the seed of a game depend on the seed and their indices only, so a shard, a
//! resume and the whole run agree on every game.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::Value;

use crate::config::{EngineSpec, MatchConfig};
use crate::engine::pool::Pool;
use crate::engine::seat::StartSettings;
use crate::engine::signal;
use crate::engine::{EngineError, log_path};
use crate::record::export::utc_timestamp;
use crate::record::{GameRecord, Reason, RecordWriter, read_records_file, result_string};
use crate::report::results::from_records;
use crate::report::stats::SprtDecision;
use crate::report::summary;
use crate::report::{Report, check_resumed, conditions_for, tournament_report};
use crate::run::game::{self, GameOutcome, GameSettings};
use crate::run::openings::{Opening, Openings, STREAM_GAME, derive_seed};
use crate::run::schedule;
use pion_rules::game::Game;

/// How a run ended.
#[derive(Clone, Debug)]
pub struct MatchOutcome {
    /// The report over every recorded game (those of earlier runs included).
    pub report: Report,
    /// Whether Ctrl-C cut the run short.
    pub interrupted: bool,
    /// Whether the SPRT stopped the match.
    pub sprt_stopped: bool,
}

/// Games still to play that share an opening: a pair of a match, or one game of a tournament.
#[derive(Clone, Debug)]
struct Job {
    pair: u64,
    /// The index of the opening: the pair in a match, the round in a tournament.
    opening: u64,
    round: Option<u64>,
    /// Each game with the engine indices of player 1 and player 2.
    games: Vec<(u64, [usize; 2])>,
}

enum Message {
    Record(Box<GameRecord>),
    /// A pair is finished; the worker waits for the answer on the sender before it starts
    /// another, so that a decided SPRT stops every worker before its next pair.
    PairDone(std::sync::mpsc::Sender<()>),
}

struct Shared {
    jobs: Vec<Job>,
    next: AtomicUsize,
    stop: AtomicBool,
}

/// The games still to play in this run.
fn plan_jobs(config: &MatchConfig, done: &HashSet<u64>) -> Vec<Job> {
    let shard = config.shard;
    match config.tournament {
        Some(t) => schedule::plan(t.format, config.engines.len(), t.rounds, shard)
            .into_iter()
            .filter(|g| !done.contains(&g.game))
            .map(|g| Job {
                pair: g.pair,
                opening: g.round,
                round: Some(g.round),
                games: vec![(g.game, g.players)],
            })
            .collect(),
        None => (0..config.games.div_ceil(2))
            .filter(|&p| shard.is_none_or(|s| s.owns(p)))
            .map(|p| Job {
                pair: p,
                opening: p,
                round: None,
                games: [(2 * p, [0, 1]), (2 * p + 1, [1, 0])]
                    .into_iter()
                    .filter(|&(g, _)| g < config.games && !done.contains(&g))
                    .collect(),
            })
            .filter(|job| !job.games.is_empty())
            .collect(),
    }
}

/// Reads the records of an earlier run, checks they belong to this one, and cuts an unfinished
/// last line so that new records start on a line of their own.
fn resume_records<G: Game>(
    config: &MatchConfig,
    openings: &Openings,
    variant: G::Variant,
    path: &std::path::Path,
) -> Result<(Vec<GameRecord>, Value)> {
    let read = read_records_file(path)?;
    for warning in &read.warnings {
        eprintln!("referee: {warning}: it is cut off");
    }
    let records = read.records;
    crate::record::check_consistent(&records)?;
    let conditions = conditions_for(config, &records);
    check_resumed(config, &conditions, G::NAME, path, &records)?;
    for record in &records {
        let opening = openings.for_pair::<G>(record.round.unwrap_or(record.pair), variant);
        if opening.start != record.start || opening.moves != record.opening {
            bail!(
                "{}: game {} has another opening than this run gives it (different --seed or --openings?)",
                path.display(),
                record.game
            );
        }
    }
    // Only now, with every check passed, is the file changed: a cut record is dropped.
    let mut file = std::fs::OpenOptions::new().write(true).open(path)?;
    file.set_len(read.valid)?;
    if read.open_line {
        use std::io::{Seek, Write};
        file.seek(std::io::SeekFrom::End(0))?;
        file.write_all(b"\n")?;
    }
    Ok((records, conditions))
}

fn progress_bar(total: u64, done: u64) -> ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_position(done);
    bar
}

fn progress_message(config: &MatchConfig, records: &[GameRecord]) -> String {
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    if config.tournament.is_some() {
        // The standings by points, compact enough for one line.
        let Ok(table) = from_records(&names, records) else {
            return String::new();
        };
        let mut order: Vec<usize> = (0..names.len()).collect();
        order.sort_by(|&a, &b| table.points(b).total_cmp(&table.points(a)));
        let parts: Vec<String> = order
            .iter()
            .map(|&e| format!("{} {}/{}", names[e], table.points(e), table.games(e)))
            .collect();
        return parts.join("  ");
    }
    let names = [names[0].clone(), names[1].clone()];
    let c = summary::counts(&names, records);
    let played = c.wdl.wins + c.wdl.draws + c.wdl.losses;
    let score = (c.wdl.wins as f64 + c.wdl.draws as f64 / 2.0) / played.max(1) as f64;
    let elo = summary::summarize(&names, records, None).progress_elo();
    format!(
        "{} +{} ={} -{} ({:.1}%)  Elo {elo}",
        names[0],
        c.wdl.wins,
        c.wdl.draws,
        c.wdl.losses,
        score * 100.0
    )
}

/// The report of this run's records.
fn final_report(config: &MatchConfig, records: &[GameRecord]) -> Result<Report> {
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    Ok(match config.tournament {
        Some(_) => Report::Tournament(tournament_report(&names, records, config.zero)?),
        None => Report::Match(summary::summarize(
            &[names[0].clone(), names[1].clone()],
            records,
            config.sprt.as_ref(),
        )),
    })
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

/// Plays the match or tournament (or this shard of it) and returns the report.
pub fn run<G: Game>(config: &MatchConfig, variant: G::Variant) -> Result<MatchOutcome> {
    EngineSpec::check_names(&config.engines)?;
    let openings = Openings::load::<G>(
        &config.openings,
        config.shuffle_openings,
        config.seed,
        variant,
    )?;
    note_reused_openings(config, &openings);
    // Opened (and locked) before it is read, so that no other run can start on it meanwhile.
    let mut writer = config.out.as_deref().map(RecordWriter::open).transpose()?;
    let (mut records, conditions) = earlier_records::<G>(config, &openings, variant, &writer)?;
    let done: HashSet<u64> = records.iter().map(|r| r.game).collect();
    let jobs = plan_jobs(config, &done);
    let already_decided =
        sprt_state(config, &records).is_some_and(|s| s.decision != SprtDecision::Continue);
    let mut end = RunEnd {
        interrupted: false,
        sprt_stopped: already_decided,
    };
    if !jobs.is_empty() && !already_decided {
        let run = Run::<G> {
            config,
            variant,
            openings,
            conditions,
        };
        end = run.play(jobs, writer.as_mut(), &mut records)?;
    }
    records.sort_by_key(|r| r.game);
    Ok(MatchOutcome {
        report: final_report(config, &records)?,
        interrupted: end.interrupted,
        sprt_stopped: end.sprt_stopped,
    })
}

/// Warns when the book has fewer openings than the run has pairs (rounds, in a tournament).
fn note_reused_openings(config: &MatchConfig, openings: &Openings) {
    let uses = match config.tournament {
        Some(t) => t.rounds,
        None => config.games.div_ceil(2),
    };
    if let Some(book) = openings.book_len()
        && uses > book as u64
    {
        eprintln!(
            "referee: note: {uses} pairs from {book} openings: openings are played up to {} times; engines that play the same moves again (a nodes or depth limit, a fixed seed) repeat whole games, which counts them as new evidence and makes the error bars too narrow",
            uses.div_ceil(book as u64)
        );
    }
}

/// The records of an earlier run in `--out` (none without `--resume`, which a file that holds
/// games needs) and the conditions this run records.
fn earlier_records<G: Game>(
    config: &MatchConfig,
    openings: &Openings,
    variant: G::Variant,
    writer: &Option<RecordWriter>,
) -> Result<(Vec<GameRecord>, Value)> {
    let (Some(out), Some(writer)) = (&config.out, writer) else {
        if config.resume {
            bail!("--resume needs --out FILE (the records to continue)");
        }
        return Ok((Vec::new(), config.conditions()));
    };
    if writer.is_empty()? {
        return Ok((Vec::new(), config.conditions()));
    }
    if !config.resume {
        let held = read_records_file(out).with_context(|| {
            format!(
                "{} is not empty and not a records file: choose another --out",
                out.display()
            )
        })?;
        bail!(
            "{} already holds {} finished game{}: pass --resume to continue that run, or choose another --out",
            out.display(),
            held.records.len(),
            if held.records.len() == 1 { "" } else { "s" }
        );
    }
    resume_records::<G>(config, openings, variant, out)
}

/// The SPRT's state over `records`, if the run has a test.
fn sprt_state(config: &MatchConfig, records: &[GameRecord]) -> Option<summary::SprtState> {
    let names = [
        config.engines[0].name.clone(),
        config.engines[1].name.clone(),
    ];
    config
        .sprt
        .as_ref()
        .map(|spec| summary::sprt(spec, &summary::counts(&names, records)))
}

/// How the games of a run stopped.
struct RunEnd {
    /// Ctrl-C (or SIGTERM) cut the run short.
    interrupted: bool,
    /// The SPRT decided.
    sprt_stopped: bool,
}

/// What every game slot of a run shares.
struct Run<'a, G: Game> {
    config: &'a MatchConfig,
    variant: G::Variant,
    openings: Openings,
    conditions: Value,
}

impl<G: Game> Run<'_, G> {
    /// Plays `jobs` in game slots, appending each record to `writer` and `records` as it comes.
    fn play(
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

/// The main thread's side of a run: records each game as it comes, shows the progress, and
/// answers each finished pair with the SPRT's decision.
struct Collector<'a> {
    config: &'a MatchConfig,
    records: &'a mut Vec<GameRecord>,
    writer: Option<&'a mut RecordWriter>,
    bar: ProgressBar,
    total: u64,
    end: RunEnd,
    /// Games that ended after the SPRT decided, and are not recorded.
    after_decision: u64,
}

impl Collector<'_> {
    /// Takes the slots' messages until every slot has ended; an error if a record could not
    /// be written.
    fn collect(&mut self, rx: &Receiver<Message>, shared: &Shared) -> Result<()> {
        self.bar
            .set_message(progress_message(self.config, self.records));
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
        self.records.push(record);
        self.bar.inc(1);
        let message = progress_message(self.config, self.records);
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
        if let Some(state) = sprt_state(self.config, self.records) {
            self.bar
                .suspend(|| eprintln!("{}", summary::sprt_line(&state)));
            if state.decision != SprtDecision::Continue && !shared.stop.swap(true, Ordering::SeqCst)
            {
                self.end.sprt_stopped = true;
            }
        }
    }
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
