//! The progress line of a run, shown on a terminal (or every twentieth game in a log).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::config::MatchConfig;
use crate::record::GameRecord;
use crate::report::results::from_records;
use crate::report::summary;

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

pub(super) fn progress_message(config: &MatchConfig, records: &[GameRecord]) -> String {
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
