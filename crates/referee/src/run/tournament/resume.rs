//! Continuing a run from its `--out` file: the records already there, checked against this
//! run before the file is touched.

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::config::MatchConfig;
use crate::record::{GameRecord, RecordWriter, read_records_file};
use crate::report::{check_resumed, conditions_for};
use crate::run::openings::Openings;
use pion_rules::game::Game;

/// Reads the records of an earlier run, checks they belong to this one, and cuts an unfinished
/// last line so that new records start on a line of their own.
fn resume_records<G: Game>(
    config: &MatchConfig,
    openings: &Openings,
    variant: G::Variant,
    path: &std::path::Path,
) -> Result<(Vec<GameRecord>, Value)> {
    let read = read_records_file(path)?;
    for warning in &read.warnings {
        eprintln!("referee: {warning}: it is cut off");
    }
    let records = read.records;
    crate::record::check_consistent(&records)?;
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
    // Only now, with every check passed, is the file changed: a cut record is dropped.
    let mut file = std::fs::OpenOptions::new().write(true).open(path)?;
    file.set_len(read.valid)?;
    if read.open_line {
        use std::io::{Seek, Write};
        file.seek(std::io::SeekFrom::End(0))?;
        file.write_all(b"\n")?;
    }
    Ok((records, conditions))
}

/// The records of an earlier run in `--out` (none without `--resume`, which a file that holds
/// games needs) and the conditions this run records.
pub(super) fn earlier_records<G: Game>(
    config: &MatchConfig,
    openings: &Openings,
    variant: G::Variant,
    writer: &Option<RecordWriter>,
) -> Result<(Vec<GameRecord>, Value)> {
    let (Some(out), Some(writer)) = (&config.out, writer) else {
        if config.resume {
            bail!("--resume needs --out FILE (the records to continue)");
        }
        return Ok((Vec::new(), config.conditions()));
    };
    if writer.is_empty()? {
        return Ok((Vec::new(), config.conditions()));
    }
    if !config.resume {
        let held = read_records_file(out).with_context(|| {
            format!(
                "{} is not empty and not a records file: choose another --out",
                out.display()
            )
        })?;
        bail!(
            "{} already holds {} finished game{}: pass --resume to continue that run, or choose another --out",
            out.display(),
            held.records.len(),
            if held.records.len() == 1 { "" } else { "s" }
        );
    }
    resume_records::<G>(config, openings, variant, out)
}
