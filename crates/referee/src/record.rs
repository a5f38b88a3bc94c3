//! Game records: one JSON object per line, appended and written through at once, so that an
//! interrupted match loses at most the games that were still being played.

use std::fs::File;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::conditions::first_difference;
use super::handshake::Identity;
use pion_protocol::engine_info::MoveData;

/// Why a game ended.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// By the rules of the game.
    #[default]
    Normal,
    /// A move that is not legal, or not a move at all.
    IllegalMove,
    /// Out of time, or no answer to `pion`/`isready`/`go` before its deadline.
    Timeout,
    /// The engine exited or closed its output.
    Crash,
    /// A reply the protocol does not allow.
    ProtocolError,
    /// Ended by a rule of the referee's (`--maxplies`, `--draw`, `--resign`, proven results).
    Adjudication,
}

impl Reason {
    /// The word used in records and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Normal => "normal",
            Reason::IllegalMove => "illegal-move",
            Reason::Timeout => "timeout",
            Reason::Crash => "crash",
            Reason::ProtocolError => "protocol-error",
            Reason::Adjudication => "adjudication",
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Index of the game in the whole match (0-based): pair `p` holds games `2p` and `2p+1`.
    pub game: u64,
    /// Index of the pair of games sharing an opening.
    pub pair: u64,
    /// The tournament round (the index of the opening), absent in matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u64>,
    /// The match's two engines in `--engine` order (Elo is reported for the first); in a
    /// tournament, the two engines of the game's pairing.
    pub engines: [String; 2],
    /// The engine playing player 1.
    pub first: String,
    /// The engine playing player 2.
    pub second: String,
    /// The game's rules: `avalam` or `awale`.
    pub rules: String,
    /// The rule variant.
    pub variant: String,
    /// `startpos` or the position string the opening starts from.
    pub start: String,
    /// The opening moves, played by the referee.
    pub opening: Vec<String>,
    /// The moves the engines played, in order.
    pub moves: Vec<String>,
    /// What the engine said about each move (its last `info`'s score, depth, nodes and time).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub data: Vec<MoveData>,
    /// `1-0`, `0-1` or `1/2-1/2`, player 1 first.
    pub result: String,
    /// Why the game ended.
    pub reason: Reason,
    /// What exactly happened, for forfeits and adjudications.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The adjudication rule that ended the game: `maxplies`, `draw`, `resign` or `proven`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The engine that forfeited, if one did.
    pub loser: Option<String>,
    /// Final points of player 1 and player 2 (towers in Avalam, seeds in Awale).
    pub score: [u32; 2],
    /// Wall time of each engine move in milliseconds, as the referee measured it.
    pub times_ms: Vec<u64>,
    /// The seed the engines were given for this game (when they have a `Seed` option).
    pub seed: u64,
    /// When the game started, `YYYY-MM-DDTHH:MM:SSZ`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<String>,
    /// How player 1's and player 2's engines identified themselves (`id name`, `id version`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ids: Option<[Identity; 2]>,
    /// The conditions of the match (size, time controls, options, adjudication), which every
    /// game of one match shares: a resume or a merge refuses records of other conditions. A
    /// JSON object; one line of text in records of earlier versions.
    pub conditions: Value,
    /// The number of games of the whole match (all shards together).
    pub match_games: u64,
    /// The match's openings (see `Openings::describe`); absent from records of older versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<String>,
}

impl GameRecord {
    /// Points of the match's engine `k` (0 or 1) in this game: 1, 1/2 or 0, as a count of halves.
    pub fn half_points_of(&self, k: usize) -> u32 {
        let me = &self.engines[k];
        match self.result.as_str() {
            "1/2-1/2" => 1,
            "1-0" if &self.first == me => 2,
            "0-1" if &self.second == me => 2,
            _ => 0,
        }
    }
}

/// The result string for a winner index (0 = player 1, 1 = player 2) or a draw.
pub fn result_string(winner: Option<usize>) -> &'static str {
    match winner {
        Some(0) => "1-0",
        Some(_) => "0-1",
        None => "1/2-1/2",
    }
}

/// An append-only records file.
pub struct RecordWriter {
    file: File,
}

impl RecordWriter {
    /// Opens `path` for appending, creating it, and locks it for as long as the writer lives:
    /// two runs appending to one file would record every game twice. Only a regular file is
    /// locked (`/dev/null` or a pipe may serve several runs), and a file system that cannot
    /// lock (some network ones) gets a warning, not a refusal.
    pub fn open(path: &Path) -> Result<RecordWriter> {
        use std::os::fd::AsRawFd;
        let file = File::options()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open {} for writing", path.display()))?;
        let regular = file.metadata().is_ok_and(|m| m.is_file());
        // SAFETY: flock only reads the descriptor, which `file` keeps open.
        if regular && unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            let error = std::io::Error::last_os_error();
            if error.kind() == std::io::ErrorKind::WouldBlock {
                bail!(
                    "{} is being written by another referee run: wait for it to end, or choose another --out",
                    path.display()
                );
            }
            eprintln!(
                "referee: warning: cannot lock {} ({error}): make sure no other run writes to it",
                path.display()
            );
        }
        Ok(RecordWriter { file })
    }

    /// Whether the file already holds something (games of an earlier run).
    pub fn is_empty(&self) -> Result<bool> {
        Ok(self.file.metadata()?.len() == 0)
    }

    /// Appends one record as one line with a single write, so lines never interleave.
    pub fn append(&mut self, record: &GameRecord) -> Result<()> {
        let mut line = serde_json::to_string(record)?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .context("cannot write a game record")?;
        Ok(())
    }
}

/// Reads a records file. A last line without its newline (a run killed in the middle of a
/// write) is dropped; the length of the valid part is returned so that a resume can cut it off.
pub fn read_records(path: &Path) -> Result<(Vec<GameRecord>, u64)> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read records file {}", path.display()))?;
    let parsed = parse_records(&text, &path.display().to_string())?;
    if let Some(warning) = parsed.warning {
        eprintln!("warning: {warning}");
    }
    Ok((parsed.records, parsed.valid))
}

/// The records read from the text of a records file.
#[derive(Debug)]
pub struct Parsed {
    /// The records, in file order.
    pub records: Vec<GameRecord>,
    /// The length of the valid part (all of it but an unfinished last line).
    pub valid: u64,
    /// The sentence about an unfinished last line, when there was one.
    pub warning: Option<String>,
}

/// Reads the text of a records file named `source` (as `read_records` does a file: every
/// reader of records, the viewer of pion-web included, says the same sentences).
pub fn parse_records(text: &str, source: &str) -> Result<Parsed> {
    let mut records = Vec::new();
    let mut valid = 0u64;
    let mut warning = None;
    for (number, chunk) in text.split_inclusive('\n').enumerate() {
        if !chunk.ends_with('\n') {
            warning = Some(format!(
                "{source}:{}: ignoring an unfinished last line",
                number + 1
            ));
            break;
        }
        valid += chunk.len() as u64;
        let line = chunk.trim();
        if line.is_empty() {
            continue;
        }
        let record: GameRecord = serde_json::from_str(line)
            .with_context(|| format!("{source}:{}: not a game record", number + 1))?;
        records.push(record);
    }
    Ok(Parsed {
        records,
        valid,
        warning,
    })
}

/// Checks that records come from one match: the same engines, game, variant, conditions and
/// openings (where the records name them), the same opening for both games of a pair, and no
/// game twice.
pub fn check_consistent(records: &[GameRecord]) -> Result<()> {
    let mut seen = std::collections::HashSet::new();
    let mut pairs = std::collections::HashMap::new();
    let openings = records.iter().find_map(|r| r.openings.as_ref());
    for record in records {
        if (&record.rules, &record.variant) != (&records[0].rules, &records[0].variant) {
            bail!(
                "the records mix matches: game {} is {} ({}), game {} is {} ({})",
                records[0].game,
                records[0].rules,
                records[0].variant,
                record.game,
                record.rules,
                record.variant
            );
        }
        if let (Some(first), Some(this)) = (openings, &record.openings)
            && first != this
        {
            bail!(
                "the records mix matches: openings '{first}' and, in game {}, '{this}'",
                record.game
            );
        }
        let opening = (&record.start, &record.opening);
        if *pairs.entry(record.pair).or_insert(opening) != opening {
            bail!(
                "the records mix matches: the games of pair {} start from different openings",
                record.pair
            );
        }
        let tournament = record.conditions.get("tournament").is_some();
        if !tournament && record.engines != records[0].engines {
            bail!(
                "the records mix matches: engines {:?} and {:?}",
                records[0].engines,
                record.engines
            );
        }
        if let Some(difference) = first_difference(&records[0].conditions, &record.conditions) {
            bail!(
                "the records mix matches: games {} and {} differ in {difference}",
                records[0].game,
                record.game,
            );
        }
        if !seen.insert(record.game) {
            bail!("game {} is recorded twice", record.game);
        }
        if record.pair != record.game / 2 {
            bail!(
                "game {} claims pair {} (expected {})",
                record.game,
                record.pair,
                record.game / 2
            );
        }
    }
    Ok(())
}

/// Records for the unit tests of the modules that read them.
#[cfg(test)]
pub(crate) mod testing {
    use super::{GameRecord, Reason};

    /// Game `game` of an Awale match from the start position, won or drawn normally: `first`
    /// (player 1) against `second`, with `result` as recorded (`1-0`, `0-1`, `1/2-1/2`).
    pub(crate) fn record(game: u64, first: &str, second: &str, result: &str) -> GameRecord {
        let mut engines = [first.to_string(), second.to_string()];
        engines.sort();
        GameRecord {
            game,
            pair: game / 2,
            engines,
            first: first.into(),
            second: second.into(),
            rules: "awale".into(),
            variant: "standard".into(),
            start: "startpos".into(),
            result: result.into(),
            reason: Reason::Normal,
            ..GameRecord::default()
        }
    }
}
