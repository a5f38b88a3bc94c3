//! Reports built from records alone: a match's summary or a tournament's standings, for the
//! end of a run, `referee merge` and `referee summary`; and the check that records found in an
//! `--out` file belong to the run that resumes them.

pub mod crosstable;
pub mod ratings;
pub mod results;
pub mod stats;
pub mod summary;
pub mod tally;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use serde::Serialize;
use serde_json::Value;

use crate::config::{MatchConfig, SprtSpec};
use crate::record::conditions::first_difference;
use crate::record::{GameRecord, check_consistent, read_one_match};
use crate::report::crosstable::{Standings, standings};
use crate::report::ratings::Zero;
use crate::report::results::from_records;
use crate::report::summary::{Summary, forfeits_line};

/// A tournament's report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentReport {
    /// `round-robin` or `gauntlet`.
    pub format: String,
    /// Games recorded.
    pub games: u64,
    /// Games of the whole tournament.
    pub planned: u64,
    /// The standings and the crosstable.
    pub standings: Standings,
    /// Forfeits by reason.
    pub forfeits: BTreeMap<String, u64>,
    /// Forfeits by engine name, then reason.
    pub forfeits_by_engine: BTreeMap<String, BTreeMap<String, u64>>,
    /// Adjudicated games by the rule that ended them.
    pub adjudications: BTreeMap<String, u64>,
}

/// The report of a match or of a tournament.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Report {
    /// Two engines, no `--tournament`.
    Match(Summary),
    /// A tournament.
    Tournament(TournamentReport),
}

impl Report {
    /// The report for a terminal.
    pub fn text(&self) -> String {
        match self {
            Report::Match(summary) => summary.table(),
            Report::Tournament(t) => t.text(),
        }
    }
}

impl TournamentReport {
    /// The report for a terminal: standings, crosstable, forfeits, adjudications.
    pub fn text(&self) -> String {
        let mut out = format!(
            "Tournament ({}): {} of {} games\n",
            self.format, self.games, self.planned
        );
        out += &self.standings.table();
        out += "\nCrosstable (points/games of each row against each column):\n";
        out += &self.standings.crosstable_text();
        out += &forfeits_line(&self.forfeits, &self.forfeits_by_engine);
        if !self.adjudications.is_empty() {
            let list: Vec<String> = self
                .adjudications
                .iter()
                .map(|(rule, n)| format!("{rule} {n}"))
                .collect();
            out += &format!("Adjudicated: {}\n", list.join(", "));
        }
        out
    }
}

/// The engines' names as the conditions of a tournament list them.
pub fn tournament_names(conditions: &Value) -> Option<Vec<String>> {
    conditions.get("tournament")?;
    conditions
        .get("engines")?
        .as_array()?
        .iter()
        .map(|e| e.get("name").and_then(Value::as_str).map(str::to_string))
        .collect()
}

/// The report of a tournament's records (all of one tournament).
pub fn tournament_report(
    names: &[String],
    records: &[GameRecord],
    zero: Zero,
) -> Result<TournamentReport> {
    let table = from_records(names, records).map_err(anyhow::Error::msg)?;
    let conditions = records.first().map(|r| &r.conditions);
    let format = conditions
        .and_then(|c| c["tournament"]["format"].as_str())
        .unwrap_or("round-robin")
        .to_string();
    let faults = summary::faults(records);
    let mut adjudications = BTreeMap::new();
    for record in records.iter().filter(|r| r.rule.is_some()) {
        *adjudications
            .entry(record.rule.clone().unwrap_or_default())
            .or_insert(0) += 1;
    }
    Ok(TournamentReport {
        format,
        games: records.len() as u64,
        planned: records.first().map_or(0, |r| r.match_games),
        standings: standings(&table, zero),
        forfeits: faults.forfeits,
        forfeits_by_engine: faults.by_engine,
        adjudications,
    })
}

/// The report of any set of records of one match or tournament.
pub fn report(records: &[GameRecord], sprt: Option<&SprtSpec>, zero: Zero) -> Result<Report> {
    let Some(first) = records.first() else {
        bail!("no game records");
    };
    match tournament_names(&first.conditions) {
        Some(names) => {
            if sprt.is_some() {
                bail!("--sprt tests two engines: this file holds a tournament");
            }
            Ok(Report::Tournament(tournament_report(
                &names, records, zero,
            )?))
        }
        None => {
            // The same checks as a tournament's table: known players, known results.
            from_records(&first.engines, records).map_err(anyhow::Error::msg)?;
            Ok(Report::Match(summary::summarize(
                &first.engines,
                records,
                sprt,
            )))
        }
    }
}

/// Combines the records of shards (or of any runs of one match or tournament) into one report.
pub fn merge(paths: &[PathBuf], sprt: Option<&SprtSpec>, zero: Zero) -> Result<Report> {
    let mut records = read_one_match(paths)?;
    let (report, note) = report_of(&mut records, sprt, zero)?;
    if let Some(note) = note {
        eprintln!("referee: {note}");
    }
    Ok(report)
}

/// The report of the records of one match or tournament, checked as one (sorted by game on
/// the way), with a note when games are missing: what `referee summary` and `referee merge`
/// print, and what pion-web's viewer shows.
pub fn report_of(
    records: &mut [GameRecord],
    sprt: Option<&SprtSpec>,
    zero: Zero,
) -> Result<(Report, Option<String>)> {
    if records.is_empty() {
        bail!("no game records");
    }
    check_consistent(records)?;
    records.sort_by_key(|r| r.game);
    let expected = records[0].match_games;
    // A report of part of a match is still a report, but say so: a shard may be missing.
    let note = ((records.len() as u64) < expected).then(|| {
        let kind = if tournament_names(&records[0].conditions).is_some() {
            "tournament"
        } else {
            "match"
        };
        format!(
            "{} of the {kind}'s {expected} games are in these files (a shard missing or unfinished, or a run stopped early by the SPRT or Ctrl-C?)",
            records.len()
        )
    });
    Ok((report(records, sprt, zero)?, note))
}

/// The conditions a run writes into its records: the JSON object, or for a file of an earlier
/// version (whose records hold one line of text), that text, so that the file stays one match.
pub fn conditions_for(config: &MatchConfig, existing: &[GameRecord]) -> Value {
    match existing.first().map(|r| &r.conditions) {
        Some(Value::String(_)) if config.engines.len() == 2 && config.tournament.is_none() => {
            Value::String(config.legacy_conditions())
        }
        _ => config.conditions(),
    }
}

/// Checks that records read from `path` belong to this run: the same engines, conditions and
/// game; the opening of each game is checked by the caller, which knows the game type.
pub fn check_resumed(
    config: &MatchConfig,
    conditions: &Value,
    rules: &str,
    path: &Path,
    records: &[GameRecord],
) -> Result<()> {
    let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    for record in records {
        let players = [record.first.as_str(), record.second.as_str()];
        let ours = if config.tournament.is_some() {
            players.iter().all(|p| names.contains(p))
        } else {
            record
                .engines
                .iter()
                .map(String::as_str)
                .eq(names.iter().copied())
        };
        if !ours {
            bail!(
                "{}: game {} was played by {} and {}, not by this run's engines {}",
                path.display(),
                record.game,
                record.first,
                record.second,
                names.join(", ")
            );
        }
        if let Some(difference) = first_difference(&record.conditions, conditions) {
            bail!(
                "{}: game {} was played under other conditions: {difference} (the file's, then this run's)",
                path.display(),
                record.game
            );
        }
        if record.rules != rules {
            bail!(
                "{}: game {} is {}, not {rules}",
                path.display(),
                record.game,
                record.rules
            );
        }
        if record.game >= config.games {
            bail!(
                "{}: game {} is beyond this run of {} games",
                path.display(),
                record.game,
                config.games
            );
        }
    }
    Ok(())
}
