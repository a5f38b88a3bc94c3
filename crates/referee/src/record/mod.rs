//! Game records: one JSON object per line, appended and written through at once, so that an
//! interrupted match loses at most the games that were still being played.

pub mod conditions;
pub mod export;
pub mod export_file;

use std::fs::File;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::handshake::Identity;
use crate::record::conditions::first_difference;
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

/// The games read from a records file, and what a resume keeps of the file.
#[derive(Debug, Default)]
pub struct ReadRecords {
    /// The finished records, in file order.
    pub records: Vec<GameRecord>,
    /// The length of the file's part that holds them: an unfinished record after it (a run
    /// killed in the middle of a write) is what a resume cuts off.
    pub valid: u64,
    /// Whether the part ends without a newline (a last record written by hand), so that a
    /// resume must add one before it appends.
    pub open_line: bool,
    /// What was skipped, as sentences (`FILE:LINE: ...`).
    pub warnings: Vec<String>,
}

/// How every record line starts: the first field of [`GameRecord`] as serde writes it. An
/// unfinished last line is taken for a cut record only when it starts so.
const RECORD_START: &[u8] = b"{\"game\":";

/// The largest records file a viewer reads whole (a 10,000-game match is a few MiB).
pub const MAX_RECORDS_BYTES: usize = 32 * 1024 * 1024;

/// Why the records file `source` is not read in a viewer: it is `bytes` long (when known),
/// over [`MAX_RECORDS_BYTES`].
pub fn records_too_large(source: &str, bytes: Option<u64>) -> String {
    let mib = |bytes: u64| bytes / (1024 * 1024);
    let size = match bytes {
        Some(bytes) => format!("is {} MiB", mib(bytes)),
        None => "is too large".to_string(),
    };
    format!(
        "{source} {size}: the viewer reads records files up to {} MiB",
        mib(MAX_RECORDS_BYTES as u64)
    )
}

/// Reads a records file ([`parse_records`]), printing its warnings on stderr.
pub fn read_records(path: &Path) -> Result<(Vec<GameRecord>, u64)> {
    let read = read_records_file(path)?;
    for warning in &read.warnings {
        eprintln!("warning: {warning}");
    }
    Ok((read.records, read.valid))
}

/// Reads a records file without printing anything.
pub fn read_records_file(path: &Path) -> Result<ReadRecords> {
    let bytes = std::fs::read(path)
        .with_context(|| format!("cannot read records file {}", path.display()))?;
    parse_records(&bytes, &path.display().to_string())
}

/// Parses the bytes of a records file named `source`. Every finished line must be a record.
/// An unfinished last line is dropped with a warning when it is the start of a record (cut
/// anywhere, even inside a character), kept when it is a whole record, and refused otherwise:
/// a file that is not records is never taken for one, so a resume never cuts what it does not
/// own.
pub fn parse_records(bytes: &[u8], source: &str) -> Result<ReadRecords> {
    let mut read = ReadRecords::default();
    let mut offset = 0usize;
    for (number, chunk) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        let number = number + 1;
        let finished = chunk.ends_with(b"\n");
        let text = std::str::from_utf8(chunk).ok().map(str::trim);
        match text {
            Some("") => {}
            Some(line) if line.as_bytes().starts_with(RECORD_START) || finished => {
                match serde_json::from_str::<GameRecord>(line) {
                    Ok(record) => {
                        read.records.push(record);
                        read.open_line = !finished;
                    }
                    Err(_) if !finished => {
                        read.warnings.push(format!(
                            "{source}:{number}: ignoring an unfinished last record"
                        ));
                        break;
                    }
                    Err(e) => bail!("{source}:{number}: not a game record ({e})"),
                }
            }
            None if !finished && chunk.starts_with(RECORD_START) => {
                read.warnings.push(format!(
                    "{source}:{number}: ignoring an unfinished last record"
                ));
                break;
            }
            None if finished => bail!("{source}:{number}: not a game record (not UTF-8 text)"),
            _ => bail!(
                "{source}:{number}: not a game record, and the file does not end with a newline: is {source} a records file?"
            ),
        }
        offset += chunk.len();
        read.valid = offset as u64;
    }
    Ok(read)
}

/// The games of records files that together hold one match or one tournament, checked as
/// [`check_consistent`] checks them, in game order; none at all is an error.
pub fn read_one_match(paths: &[impl AsRef<Path>]) -> Result<Vec<GameRecord>> {
    let mut records = Vec::new();
    for path in paths {
        records.extend(read_records(path.as_ref())?.0);
    }
    if records.is_empty() {
        match paths {
            [one] => bail!("{} holds no game record", one.as_ref().display()),
            _ => bail!("no game records in the files given"),
        }
    }
    check_consistent(&records)?;
    records.sort_by_key(|r| r.game);
    Ok(records)
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
