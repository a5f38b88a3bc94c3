//! A match: pairs of games with colours swapped on the same opening, played by worker threads
//! that each own two engine processes, recorded as they finish, summarised at the end.
//!
//! Game `g` belongs to pair `g / 2`; in the even game the first engine is player 1, in the odd
//! one the second is. The opening of a pair and the seed of a game depend on the match seed and
//! their indices only, so a shard, a resume and the whole match agree on every game.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::Duration;

use anyhow::{Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::config::MatchConfig;
use super::engine::{EngineError, log_path};
use super::game::{self, GameSettings};
use super::openings::{Openings, STREAM_GAME, derive_seed};
use super::record::{
    GameRecord, Reason, RecordWriter, check_consistent, read_records, result_string,
};
use super::seat::{Seat, StartSettings};
use super::signal;
use super::stats::SprtDecision;
use super::summary::{self, Summary};
use pion_rules::game::Game;

/// How a match run ended.
#[derive(Clone, Debug)]
pub struct MatchOutcome {
    /// The report over every recorded game (those of earlier runs included).
    pub summary: Summary,
    /// Whether Ctrl-C cut the match short.
    pub interrupted: bool,
    /// Whether the SPRT stopped the match.
    pub sprt_stopped: bool,
}

/// The games of one pair still to play.
#[derive(Clone, Debug)]
struct Job {
    pair: u64,
    games: Vec<u64>,
}

enum Message {
    Ready,
    Fatal(String),
    Record(Box<GameRecord>),
    /// A pair is finished; the worker waits for the answer on the sender before it starts
    /// another, so that a decided SPRT stops every worker before its next pair.
    PairDone(std::sync::mpsc::Sender<()>),
}

struct Shared {
    jobs: Vec<Job>,
    next: AtomicUsize,
    stop: AtomicBool,
    /// Set by the main thread once every worker started its engines: `Some(true)` to play.
    go: (Mutex<Option<bool>>, Condvar),
}

/// Reads the records of an earlier run and checks they belong to this match.
fn resume_records<G: Game>(
    config: &MatchConfig,
    openings: &Openings,
    variant: G::Variant,
    path: &Path,
) -> Result<Vec<GameRecord>> {
    let (records, valid) = read_records(path)?;
    // Cut an unfinished last line, so that new records start on a line of their own.
    let file = std::fs::OpenOptions::new().write(true).open(path)?;
    file.set_len(valid)?;
    check_consistent(&records)?;
    let names = [
        config.engines[0].name.clone(),
        config.engines[1].name.clone(),
    ];
    for record in &records {
        if record.engines != names {
            bail!(
                "{}: game {} was played by {:?}, not by this match's engines {:?}",
                path.display(),
                record.game,
                record.engines,
                names
            );
        }
        if record.conditions != config.conditions() {
            bail!(
                "{}: game {} was played under other conditions: '{}', not '{}'",
                path.display(),
                record.game,
                record.conditions,
                config.conditions()
            );
        }
        if record.rules != G::NAME {
            bail!(
                "{}: game {} is {}, not {}",
                path.display(),
                record.game,
                record.rules,
                G::NAME
            );
        }
        if record.game >= config.games {
            bail!(
                "{}: game {} is beyond this match of {} games",
                path.display(),
                record.game,
                config.games
            );
        }
        let opening = openings.for_pair::<G>(record.pair, variant);
        if opening.start != record.start || opening.moves != record.opening {
            bail!(
                "{}: game {} has another opening than this match gives it (different --seed or --openings?)",
                path.display(),
                record.game
            );
        }
    }
    Ok(records)
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

fn progress_message(names: &[String; 2], records: &[GameRecord]) -> String {
    let c = summary::counts(names, records);
    let played = c.wdl.wins + c.wdl.draws + c.wdl.losses;
    let score = (c.wdl.wins as f64 + c.wdl.draws as f64 / 2.0) / played.max(1) as f64;
    let elo = summary::summarize(names, records, None).progress_elo();
    format!(
        "{} +{} ={} -{} ({:.1}%)  Elo {elo}",
        names[0],
        c.wdl.wins,
        c.wdl.draws,
        c.wdl.losses,
        score * 100.0
    )
}

/// Plays the match (or this shard of it) and returns the report.
pub fn run<G: Game>(config: &MatchConfig, variant: G::Variant) -> Result<MatchOutcome> {
    let names = [
        config.engines[0].name.clone(),
        config.engines[1].name.clone(),
    ];
    if names[0] == names[1] {
        bail!(
            "the two engines are both named '{}': give them different name=",
            names[0]
        );
    }
    let openings = Openings::load::<G>(
        &config.openings,
        config.shuffle_openings,
        config.seed,
        variant,
    )?;
    let pairs = config.games.div_ceil(2);
    if let Some(book) = openings.book_len()
        && pairs > book as u64
    {
        eprintln!(
            "referee: note: {pairs} pairs from {book} openings: openings are played up to {} times; engines that play the same moves again (a nodes or depth limit, a fixed seed) repeat whole games, which counts them as new evidence and makes the error bars too narrow",
            pairs.div_ceil(book as u64)
        );
    }

    let mut records = Vec::new();
    // Opened (and locked) before it is read, so that no other run can start on it meanwhile.
    let mut writer = config.out.as_deref().map(RecordWriter::open).transpose()?;
    if let (Some(out), Some(writer)) = (&config.out, &writer) {
        let exists = !writer.is_empty()?;
        if exists && !config.resume {
            bail!(
                "{} already holds games: pass --resume to continue that match, or choose another --out",
                out.display()
            );
        }
        if exists {
            records = resume_records::<G>(config, &openings, variant, out)?;
        }
    } else if config.resume {
        bail!("--resume needs --out FILE (the records to continue)");
    }

    let done: std::collections::HashSet<u64> = records.iter().map(|r| r.game).collect();
    let jobs: Vec<Job> = (0..pairs)
        .filter(|&p| config.shard.is_none_or(|s| s.owns(p)))
        .map(|p| Job {
            pair: p,
            games: [2 * p, 2 * p + 1]
                .into_iter()
                .filter(|&g| g < config.games && !done.contains(&g))
                .collect(),
        })
        .filter(|job| !job.games.is_empty())
        .collect();
    let to_play: u64 = jobs.iter().map(|j| j.games.len() as u64).sum();

    let sprt_of = |records: &[GameRecord]| {
        config
            .sprt
            .as_ref()
            .map(|spec| summary::sprt(spec, &summary::counts(&names, records)))
    };
    let already_decided = sprt_of(&records).is_some_and(|s| s.decision != SprtDecision::Continue);
    let mut interrupted = false;
    let mut sprt_stopped = already_decided;
    let mut after_decision = 0;

    if !jobs.is_empty() && !already_decided {
        let workers = config.concurrency.max(1).min(jobs.len());
        let shared = Arc::new(Shared {
            jobs,
            next: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            go: (Mutex::new(None), Condvar::new()),
        });
        let (tx, rx) = channel();
        let openings = Arc::new(openings);
        let mut handles = Vec::new();
        for w in 0..workers {
            let tx = tx.clone();
            let shared = Arc::clone(&shared);
            let openings = Arc::clone(&openings);
            let config = config.clone();
            let handle = thread::Builder::new()
                .name(format!("worker-{w}"))
                .spawn(move || worker::<G>(w, &config, variant, &shared, &openings, &tx))?;
            handles.push(handle);
        }
        drop(tx);

        // Every worker first starts its two engines: one that cannot start at all ends the match
        // before any game, with its error.
        let mut fatal = None;
        let mut ready = 0;
        while ready < workers && fatal.is_none() {
            match rx.recv() {
                Ok(Message::Ready) => ready += 1,
                Ok(Message::Fatal(e)) => fatal = Some(e),
                Ok(_) => {}
                Err(_) => fatal = Some("a worker stopped before starting its engines".to_string()),
            }
        }
        {
            let (lock, cvar) = &shared.go;
            *lock.lock().unwrap_or_else(|e| e.into_inner()) = Some(fatal.is_none());
            cvar.notify_all();
        }
        if let Some(error) = fatal {
            drop(rx);
            for handle in handles {
                let _ = handle.join();
            }
            if !signal::interrupted() {
                return Err(anyhow!(error));
            }
            // Ctrl-C during the start: not the engine's fault; report what is recorded.
            records.sort_by_key(|r| r.game);
            return Ok(MatchOutcome {
                summary: summary::summarize(&names, &records, config.sprt.as_ref()),
                interrupted: true,
                sprt_stopped: false,
            });
        }

        let bar = progress_bar(records.len() as u64 + to_play, records.len() as u64);
        let total = records.len() as u64 + to_play;
        bar.set_message(progress_message(&names, &records));
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
                        for handle in handles {
                            let _ = handle.join();
                        }
                        return Err(error);
                    }
                    records.push(*record);
                    bar.inc(1);
                    let message = progress_message(&names, &records);
                    // Without a terminal (a log, nohup, CI), a line every twentieth of the match.
                    let done = records.len() as u64;
                    if bar.is_hidden()
                        && (done.is_multiple_of((total / 20).max(1)) || done == total)
                    {
                        eprintln!("referee: {done}/{total} games  {message}");
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
                Ok(Message::Ready | Message::Fatal(_)) => {}
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if signal::interrupted() && !interrupted {
                interrupted = true;
                shared.stop.store(true, Ordering::SeqCst);
            }
        }
        bar.finish_and_clear();
        for handle in handles {
            let _ = handle.join();
        }
        interrupted |= signal::interrupted();
        if after_decision > 0 {
            eprintln!(
                "referee: {after_decision} game(s) in progress when the SPRT decided were not recorded"
            );
        }
    }

    records.sort_by_key(|r| r.game);
    Ok(MatchOutcome {
        summary: summary::summarize(&names, &records, config.sprt.as_ref()),
        interrupted,
        sprt_stopped,
    })
}

fn worker<G: Game>(
    w: usize,
    config: &MatchConfig,
    variant: G::Variant,
    shared: &Shared,
    openings: &Openings,
    tx: &Sender<Message>,
) {
    let settings = StartSettings {
        game: G::KIND,
        variant: config.variant.clone(),
        startup_timeout: config.startup_timeout,
        isready_timeout: config.isready_timeout,
        quit_timeout: config.quit_timeout,
        log_all_info: config.log_all_info,
    };
    let mut seats = config.engines.clone().map(|spec| {
        let log = log_path(&config.log_dir, &spec.name, w);
        Seat::new(spec, log, settings.clone())
    });
    let mut started = Ok(());
    for seat in seats.iter_mut() {
        if let Err(error) = seat.start() {
            let hint = match &error {
                EngineError::Spawn(_) => String::new(),
                _ => format!(
                    " (its stderr is in {})",
                    log_path(&config.log_dir, &seat.spec.name, w).display()
                ),
            };
            started = Err(match error {
                EngineError::Spawn(what) => what,
                other => format!("engine '{}' failed to start: {other}{hint}", seat.spec.name),
            });
            break;
        }
    }
    let _ = tx.send(match started {
        Ok(()) => Message::Ready,
        Err(e) => Message::Fatal(e),
    });
    let play = {
        let (lock, cvar) = &shared.go;
        let mut go = lock.lock().unwrap_or_else(|e| e.into_inner());
        while go.is_none() {
            go = cvar.wait(go).unwrap_or_else(|e| e.into_inner());
        }
        go.unwrap_or(false)
    };
    if play {
        play_jobs::<G>(config, variant, shared, openings, tx, &mut seats);
    }
    for seat in seats.iter_mut() {
        if signal::interrupted() {
            seat.discard();
        } else {
            seat.close();
        }
    }
}

fn play_jobs<G: Game>(
    config: &MatchConfig,
    variant: G::Variant,
    shared: &Shared,
    openings: &Openings,
    tx: &Sender<Message>,
    seats: &mut [Seat; 2],
) {
    let names = [
        config.engines[0].name.clone(),
        config.engines[1].name.clone(),
    ];
    let tcs = [
        config.engines[0].tc.unwrap_or(config.tc),
        config.engines[1].tc.unwrap_or(config.tc),
    ];
    loop {
        if shared.stop.load(Ordering::SeqCst) || signal::interrupted() {
            return;
        }
        let index = shared.next.fetch_add(1, Ordering::SeqCst);
        let Some(job) = shared.jobs.get(index) else {
            return;
        };
        let opening = openings.for_pair::<G>(job.pair, variant);
        for &g in &job.games {
            if shared.stop.load(Ordering::SeqCst) || signal::interrupted() {
                return;
            }
            // Even games: the first engine is player 1; odd games: colours swapped.
            let order = if g % 2 == 0 { [0, 1] } else { [1, 0] };
            let settings = GameSettings {
                opening: opening.clone(),
                seed: derive_seed(config.seed, STREAM_GAME, g),
                tc: [tcs[order[0]], tcs[order[1]]],
                time_margin: config.time_margin,
                hang_timeout: config.hang_timeout,
                isready_timeout: config.isready_timeout,
                max_plies: config.max_plies,
                max_plies_rule: config.max_plies_rule,
            };
            let [a, b] = seats;
            let players = if order[0] == 0 { [a, b] } else { [b, a] };
            let Ok(outcome) = game::play::<G>(players, &settings, variant) else {
                return;
            };
            if outcome.reason == Reason::Crash && crash_from_interrupt() {
                // SIGTERM sent to every process of a job (Slurm's scancel, systemd) reaches the
                // engines too: their exits are the interrupt's doing, not forfeits.
                return;
            }
            let record = GameRecord {
                game: g,
                pair: job.pair,
                engines: names.clone(),
                first: names[order[0]].clone(),
                second: names[order[1]].clone(),
                rules: G::NAME.to_string(),
                variant: G::variant_name(variant).to_string(),
                start: opening.start.clone(),
                opening: opening.moves.clone(),
                moves: outcome.moves,
                result: result_string(outcome.winner).to_string(),
                reason: outcome.reason,
                detail: outcome.detail,
                loser: outcome.loser.map(|p| names[order[p]].clone()),
                score: outcome.score,
                times_ms: outcome.times_ms,
                seed: settings.seed,
                conditions: config.conditions(),
                match_games: config.games,
                openings: Some(openings.describe()),
            };
            if tx.send(Message::Record(Box::new(record))).is_err() {
                return;
            }
        }
        let (done, answered) = std::sync::mpsc::channel();
        if tx.send(Message::PairDone(done)).is_err() || answered.recv().is_err() {
            return;
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

/// Combines the records of shards (or of any runs of one match) into one report.
pub fn merge(
    paths: &[std::path::PathBuf],
    sprt: Option<&super::config::SprtSpec>,
) -> Result<Summary> {
    let mut records = Vec::new();
    for path in paths {
        records.extend(read_records(path)?.0);
    }
    if records.is_empty() {
        bail!("no game records in the files given");
    }
    check_consistent(&records)?;
    records.sort_by_key(|r| r.game);
    let expected = records[0].match_games;
    if (records.len() as u64) < expected {
        // A report of part of a match is still a report, but say so: a shard may be missing.
        eprintln!(
            "referee merge: {} of the match's {expected} games are in these files (a shard missing or unfinished, or a match stopped early by the SPRT or Ctrl-C?)",
            records.len()
        );
    }
    let names = records[0].engines.clone();
    Ok(summary::summarize(&names, &records, sprt))
}
