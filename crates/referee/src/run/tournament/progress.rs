//! The progress line of a run, shown on a terminal (or every twentieth game in a log), kept
//! up to date one game at a time: a long run costs one game's work per game, not a pass over
//! every record.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::config::MatchConfig;
use crate::record::GameRecord;
use crate::report::results::ResultTable;
use crate::report::summary::Counts;
use crate::report::tally::Tally;

pub(super) fn progress_bar(total: u64, done: u64) -> ProgressBar {
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

/// The numbers of the progress line: a match's counts, or a tournament's table of results.
pub(super) enum Progress {
    /// A match: the first engine's counts.
    Match { names: [String; 2], tally: Tally },
    /// A tournament: the table so far, `None` once a record did not fit it (no line then).
    Tournament { table: Option<ResultTable> },
}

impl Progress {
    /// The progress over `records`, the games recorded before this run's.
    pub(super) fn new(config: &MatchConfig, records: &[GameRecord]) -> Progress {
        let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
        let mut progress = if config.tournament.is_some() {
            Progress::Tournament {
                table: Some(ResultTable::new(names)),
            }
        } else {
            Progress::Match {
                names: [names[0].clone(), names[1].clone()],
                tally: Tally::default(),
            }
        };
        for record in records {
            progress.add(record);
        }
        progress
    }

    /// Counts one more game.
    pub(super) fn add(&mut self, record: &GameRecord) {
        match self {
            Progress::Match { tally, .. } => tally.add(record),
            Progress::Tournament { table } => {
                if let Some(t) = table
                    && t.add_record(record).is_err()
                {
                    *table = None;
                }
            }
        }
    }

    /// A match's counts (the SPRT's input), `None` in a tournament.
    pub(super) fn counts(&self) -> Option<&Counts> {
        match self {
            Progress::Match { tally, .. } => Some(tally.counts()),
            Progress::Tournament { .. } => None,
        }
    }

    /// The line: a match's wins, draws, losses, score and Elo; a tournament's standings by
    /// points, compact enough for one line.
    pub(super) fn message(&self) -> String {
        match self {
            Progress::Tournament { table: None } => String::new(),
            Progress::Tournament { table: Some(table) } => {
                let names = &table.names;
                let mut order: Vec<usize> = (0..names.len()).collect();
                order.sort_by(|&a, &b| table.points(b).total_cmp(&table.points(a)));
                let parts: Vec<String> = order
                    .iter()
                    .map(|&e| format!("{} {}/{}", names[e], table.points(e), table.games(e)))
                    .collect();
                parts.join("  ")
            }
            Progress::Match { names, tally } => {
                let w = tally.counts().wdl;
                let played = w.wins + w.draws + w.losses;
                let score = (w.wins as f64 + w.draws as f64 / 2.0) / played.max(1) as f64;
                format!(
                    "{} +{} ={} -{} ({:.1}%)  Elo {}",
                    names[0],
                    w.wins,
                    w.draws,
                    w.losses,
                    score * 100.0,
                    tally.progress_elo()
                )
            }
        }
    }
}
