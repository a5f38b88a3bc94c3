//! A match or a tournament: games played by game slots (worker threads) with engine processes
//! taken from a shared pool, recorded as they finish, reported at the end.
//!
//! A match is two engines in pairs of games: game `g` belongs to pair `g / 2`; in the even game
//! the first engine is player 1, in the odd one the second is. A tournament plays the games of
//! [`crate::run::schedule::plan`], numbered the same way. The opening of a pair (of a round, in a
//! tournament) and the seed of a game depend on the seed and their indices only, so a shard, a
//! resume and the whole run agree on every game.

mod collect;
mod plan;
mod progress;
mod resume;
mod slots;

use std::collections::HashSet;

use anyhow::Result;

use crate::config::{EngineSpec, MatchConfig};
use crate::record::{GameRecord, RecordWriter};
use crate::report::stats::SprtDecision;
use crate::report::summary;
use crate::report::{Report, tournament_report};
use crate::run::openings::Openings;
use pion_rules::game::Game;
use plan::plan_jobs;
use resume::earlier_records;
use slots::Run;

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
