//! The match viewer's data: a referee `--out` file read with the referee's own record type,
//! checked as the referee checks a merge, and summarized by the referee's own statistics (one
//! source of truth for Elo and its interval).

use pion_referee::record::{GameRecord, check_consistent};
pub use pion_referee::record::{MAX_RECORDS_BYTES, records_too_large};
use pion_referee::summary::{Summary, summarize};
use serde::Serialize;

/// The games the page can replay: those whose rules a pion process knows.
const GAMES: [&str; 2] = ["avalam", "awale"];

/// What the page receives for a records file.
#[derive(Debug, Serialize)]
pub struct MatchView {
    /// Where the records came from (a file name).
    pub source: String,
    /// The referee's summary (W/D/L, Elo with its interval, forfeits by reason).
    pub summary: Summary,
    /// The referee's own summary table, as it prints it at the end of a match.
    pub table: String,
    /// Every game, in file order.
    pub games: Vec<GameRecord>,
    /// Things the reader skipped, as sentences.
    pub warnings: Vec<String>,
}

/// Reads the text of a records file into a [`MatchView`], or says in one sentence why it cannot.
pub fn read(text: &[u8], source: &str) -> Result<MatchView, String> {
    if text.len() > MAX_RECORDS_BYTES {
        return Err(records_too_large(source, Some(text.len() as u64)));
    }
    let text = std::str::from_utf8(text).map_err(|e| {
        format!(
            "{source} is not a text file (not UTF-8 at byte {})",
            e.valid_up_to()
        )
    })?;
    let mut games = Vec::new();
    let mut warnings = Vec::new();
    for (number, chunk) in text.split_inclusive('\n').enumerate() {
        let line = chunk.trim();
        if line.is_empty() {
            continue;
        }
        let record: GameRecord = match serde_json::from_str(line) {
            Ok(record) => record,
            // A referee still running (or killed) may have left half a last line.
            Err(_) if !chunk.ends_with('\n') => {
                warnings.push(format!(
                    "line {}: an unfinished last line was skipped",
                    number + 1
                ));
                break;
            }
            Err(e) => {
                return Err(format!(
                    "{source}, line {}: not a game record of the referee's --out file ({e})",
                    number + 1
                ));
            }
        };
        if !GAMES.contains(&record.rules.as_str()) {
            return Err(format!(
                "{source}, line {}: a game of '{}', not one of {}",
                number + 1,
                record.rules.chars().take(40).collect::<String>(),
                GAMES.join(" or ")
            ));
        }
        games.push(record);
    }
    if games.is_empty() {
        return Err(format!("{source} holds no game record"));
    }
    check_consistent(&games).map_err(|e| format!("{source}: {e:#}"))?;
    let engines = games[0].engines.clone();
    let summary = summarize(&engines, &games, None);
    Ok(MatchView {
        source: source.to_string(),
        table: summary.table(),
        summary,
        games,
        warnings,
    })
}
