//! The match viewer's data: a referee `--out` file read with the referee's own record type,
//! checked as the referee checks a merge, and summarized by the referee's own statistics (one
//! source of truth for Elo and its interval).

use pion_referee::record::{GameRecord, parse_records};
pub use pion_referee::record::{MAX_RECORDS_BYTES, records_too_large};
use pion_referee::report::ratings::Zero;
use pion_referee::report::{Report, report_of};
use pion_rules::GameKind;
use serde::Serialize;

/// What the page receives for a records file.
#[derive(Debug, Serialize)]
pub struct MatchView {
    /// Where the records came from (a file name).
    pub source: String,
    /// `match` or `tournament`.
    pub kind: &'static str,
    /// The referee's report: a match's summary (W/D/L, Elo with its interval, forfeits), or a
    /// tournament's standings, crosstable and ratings.
    pub report: Report,
    /// The referee's own report, as `referee summary` prints it.
    pub table: String,
    /// Every game, in game order.
    pub games: Vec<GameRecord>,
    /// Things the reader skipped or noticed, as sentences.
    pub warnings: Vec<String>,
}

/// Reads the text of a records file into a [`MatchView`] with the referee's own reader and
/// report (`referee summary`), or says why not in the sentence `referee summary` says.
pub fn read(text: &[u8], source: &str) -> Result<MatchView, String> {
    if text.len() > MAX_RECORDS_BYTES {
        return Err(records_too_large(source, Some(text.len() as u64)));
    }
    let parsed = parse_records(text, source).map_err(|e| format!("{e:#}"))?;
    let mut games = parsed.records;
    let mut warnings = parsed.warnings;
    if games.is_empty() {
        return Err(format!("{source} holds no game record"));
    }
    let (report, note) =
        report_of(&mut games, None, Zero::Average).map_err(|e| format!("{source}: {e:#}"))?;
    warnings.extend(note);
    // The page replays games with a pion process, which knows the registry's games only.
    let known = |rules: &str| GameKind::ALL.iter().any(|g| g.name() == rules);
    if let Some(other) = games.iter().find(|g| !known(&g.rules)) {
        return Err(format!(
            "{source}: game {} is of '{}', not one of {}: the viewer cannot replay it",
            other.game,
            other.rules.chars().take(40).collect::<String>(),
            GameKind::names().join(" or ")
        ));
    }
    let kind = match report {
        Report::Match(_) => "match",
        Report::Tournament(_) => "tournament",
    };
    Ok(MatchView {
        source: source.to_string(),
        kind,
        table: report.text(),
        report,
        games,
        warnings,
    })
}
