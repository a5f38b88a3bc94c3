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
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::Duration;

use anyhow::{Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::Value;

use super::config::MatchConfig;
use super::engine::{EngineError, log_path};
use super::export::utc_timestamp;
use super::game::{self, GameSettings};
use super::openings::{Openings, STREAM_GAME, derive_seed};
use super::pool::Pool;
use super::record::{GameRecord, Reason, RecordWriter, read_records, result_string};
use super::report::{Report, check_resumed, conditions_for, tournament_report};
use super::results::from_records;
use super::schedule;
use super::seat::StartSettings;
use super::signal;
use super::stats::SprtDecision;
use super::summary;
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
    let (records, valid) = read_records(path)?;
    let file = std::fs::OpenOptions::new().write(true).open(path)?;
    file.set_len(valid)?;
    super::record::check_consistent(&records)?;
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
    let mut seen = HashSet::new();
    if let Some(twice) = config.engines.iter().find(|e| !seen.insert(&e.name)) {
        bail!(
            "two engines are named '{}': give them different name=",
            twice.name
        );
    }
    let openings = Openings::load::<G>(
        &config.openings,
        config.shuffle_openings,
        config.seed,
        variant,
    )?;
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

    let mut records = Vec::new();
    let mut conditions = config.conditions();
    // Opened (and locked) before it is read, so that no other run can start on it meanwhile.
    let mut writer = config.out.as_deref().map(RecordWriter::open).transpose()?;
    if let (Some(out), Some(writer)) = (&config.out, &writer) {
        let exists = !writer.is_empty()?;
        if exists && !config.resume {
            bail!(
                "{} already holds games: pass --resume to continue that run, or choose another --out",
                out.display()
            );
        }
        if exists {
            (records, conditions) = resume_records::<G>(config, &openings, variant, out)?;
        }
    } else if config.resume {
        bail!("--resume needs --out FILE (the records to continue)");
    }

    let done: HashSet<u64> = records.iter().map(|r| r.game).collect();
    let jobs = plan_jobs(config, &done);
    let to_play: u64 = jobs.iter().map(|j| j.games.len() as u64).sum();

    let names2 = [
        config.engines[0].name.clone(),
        config.engines[1].name.clone(),
    ];
    let sprt_of = |records: &[GameRecord]| {
        config
            .sprt
            .as_ref()
            .map(|spec| summary::sprt(spec, &summary::counts(&names2, records)))
    };
    let already_decided = sprt_of(&records).is_some_and(|s| s.decision != SprtDecision::Continue);
    let mut interrupted = false;
    let mut sprt_stopped = already_decided;
    let mut after_decision = 0;

    if !jobs.is_empty() && !already_decided {
        let slots = config.concurrency.max(1).min(to_play as usize);
        let settings = StartSettings {
            game: G::KIND,
            variant: config.variant.clone(),
            startup_timeout: config.startup_timeout,
            isready_timeout: config.isready_timeout,
            quit_timeout: config.quit_timeout,
            log_all_info: config.log_all_info,
        };
        let pool = Arc::new(Pool::new(
            config.engines.clone(),
            settings,
            config.log_dir.clone(),
            slots,
        ));
        if let Err(error) = check_engines(config, &pool) {
            pool.close_all(true);
            if !signal::interrupted() {
                return Err(anyhow!(error));
            }
            // Ctrl-C during the start: not the engine's fault; report what is recorded.
            records.sort_by_key(|r| r.game);
            return Ok(MatchOutcome {
                report: final_report(config, &records)?,
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
        let openings = Arc::new(openings);
        let conditions = Arc::new(conditions);
        // An engine started by a slot's thread gets SIGKILL when that thread ends (Linux's
        // parent-death signal follows the thread), and other slots may be using it: the slots
        // wait here until the main thread has closed the pool.
        let release = Arc::new(Barrier::new(slots + 1));
        let mut handles = Vec::new();
        for w in 0..slots {
            let tx = tx.clone();
            let shared = Arc::clone(&shared);
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
        drop(tx);
        let end = |handles: Vec<thread::JoinHandle<()>>, kill: bool| {
            pool.close_all(kill);
            release.wait();
            for handle in handles {
                let _ = handle.join();
            }
        };

        let total = records.len() as u64 + to_play;
        let bar = progress_bar(total, records.len() as u64);
        bar.set_message(progress_message(config, &records));
        let every = (total / 20).max(1);
        let every_table = (total / 5).max(1);
        loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                // The SPRT has decided: games that end after the decision are not part of the
                // test (and would move its LLR away from the bound that stopped it).
                Ok(Message::Record(_)) if sprt_stopped => after_decision += 1,
                Ok(Message::Record(record)) => {
                    if let Some(writer) = writer.as_mut()
                        && let Err(error) = writer.append(&record)
                    {
                        // Losing records silently is the one thing a referee must not do.
                        shared.stop.store(true, Ordering::SeqCst);
                        bar.abandon();
                        // Workers waiting for a pair's answer see the channel close and end.
                        drop(rx);
                        end(handles, true);
                        return Err(error);
                    }
                    records.push(*record);
                    bar.inc(1);
                    let message = progress_message(config, &records);
                    let done = records.len() as u64;
                    let milestone = done.is_multiple_of(every) || done == total;
                    if bar.is_hidden() && milestone {
                        // Without a terminal (a log, nohup, CI), a line every twentieth.
                        eprintln!("referee: {done}/{total} games  {message}");
                    } else if done.is_multiple_of(every_table) && config.tournament.is_some() {
                        let table = final_report(config, &records).map(|r| r.text());
                        if let Ok(table) = table {
                            bar.suspend(|| eprint!("{table}"));
                        }
                    }
                    bar.set_message(message);
                }
                Ok(Message::PairDone(done)) => {
                    if let Some(state) = sprt_of(&records) {
                        bar.suspend(|| eprintln!("{}", summary::sprt_line(&state)));
                        if state.decision != SprtDecision::Continue
                            && !shared.stop.swap(true, Ordering::SeqCst)
                        {
                            sprt_stopped = true;
                        }
                    }
                    let _ = done.send(());
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if signal::interrupted() && !interrupted {
                interrupted = true;
                shared.stop.store(true, Ordering::SeqCst);
            }
        }
        bar.finish_and_clear();
        interrupted |= signal::interrupted();
        end(handles, interrupted);
        if after_decision > 0 {
            eprintln!(
                "referee: {after_decision} game(s) in progress when the SPRT decided were not recorded"
            );
        }
    }

    records.sort_by_key(|r| r.game);
    Ok(MatchOutcome {
        report: final_report(config, &records)?,
        interrupted,
        sprt_stopped,
    })
}

fn play_jobs<G: Game>(
    config: &MatchConfig,
    variant: G::Variant,
    shared: &Shared,
    openings: &Openings,
    pool: &Pool,
    conditions: &Value,
    tx: &Sender<Message>,
) {
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let tcs: Vec<_> = config
        .engines
        .iter()
        .map(|e| e.tc.unwrap_or(config.tc))
        .collect();
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
            let settings = GameSettings {
                opening: opening.clone(),
                seed: derive_seed(config.seed, STREAM_GAME, g),
                tc: players.map(|p| tcs[p]),
                time_margin: config.time_margin,
                hang_timeout: config.hang_timeout,
                isready_timeout: config.isready_timeout,
                max_plies: config.max_plies,
                max_plies_rule: config.max_plies_rule,
                adjudication: config.adjudication,
            };
            let mut seats = players.map(|p| pool.take(p));
            let [a, b] = &mut seats;
            let outcome = game::play::<G>([a, b], &settings, variant);
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
                    pool.give_back(p, seat);
                }
            }
            let Ok(outcome) = outcome else { return };
            if cut {
                return;
            }
            let pairing = if config.tournament.is_some() {
                let (lo, hi) = (players[0].min(players[1]), players[0].max(players[1]));
                [names[lo].clone(), names[hi].clone()]
            } else {
                [names[0].clone(), names[1].clone()]
            };
            let record = GameRecord {
                game: g,
                pair: job.pair,
                round: job.round,
                engines: pairing,
                first: names[players[0]].clone(),
                second: names[players[1]].clone(),
                rules: G::NAME.to_string(),
                variant: G::variant_name(variant).to_string(),
                start: opening.start.clone(),
                opening: opening.moves.clone(),
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
                conditions: conditions.clone(),
                match_games: config.games,
                openings: Some(openings.describe()),
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
