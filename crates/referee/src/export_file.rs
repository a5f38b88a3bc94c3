//! `referee export`: the games of a records file written as PGN or as text, on stdout.

use std::io::Write;
use std::path::Path;

use anyhow::{Result, bail};

use super::export::ExportGame;
use super::record::{GameRecord, read_one_match};
use pion_rules::avalam::Avalam;
use pion_rules::awale::Awale;
use pion_rules::game::Game;

/// The start position string of a record: its own, or its game's start position.
fn start_position<G: Game>(record: &GameRecord) -> Result<String> {
    if record.start != "startpos" {
        return Ok(record.start.clone());
    }
    let Some(variant) = G::parse_variant(&record.variant) else {
        bail!(
            "game {}: unknown variant '{}' of {}",
            record.game,
            record.variant,
            G::NAME
        );
    };
    Ok(G::start(variant).format_position())
}

/// A record as the exports need it.
pub fn export_game(record: &GameRecord) -> Result<ExportGame> {
    let position = match record.rules.as_str() {
        "avalam" => start_position::<Avalam>(record)?,
        "awale" => start_position::<Awale>(record)?,
        other => bail!("game {}: unknown game '{other}'", record.game),
    };
    let event = if record.conditions.get("tournament").is_some() {
        "pion referee tournament"
    } else {
        "pion referee match"
    };
    Ok(ExportGame {
        event: event.to_string(),
        site: "?".to_string(),
        started: record.started.clone(),
        round: record.round.unwrap_or(record.pair) + 1,
        game: record.game,
        players: [record.first.clone(), record.second.clone()],
        result: record.result.clone(),
        rules: record.rules.clone(),
        variant: record.variant.clone(),
        position,
        opening: record.opening.clone(),
        moves: record.moves.clone(),
        data: record.data.clone(),
        times_ms: record.times_ms.clone(),
        reason: record.reason.as_str().to_string(),
        detail: record.detail.clone(),
    })
}

/// Writes every game of `path` in `format` (`pgn` or `text`) on stdout, in game order.
pub fn export(path: &Path, format: &str) -> Result<()> {
    let records = read_one_match(&[path])?;
    let mut out = std::io::stdout().lock();
    let mut write = |text: &str| match out.write_all(text.as_bytes()) {
        // A reader that has seen enough (`| head`) is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(e),
        Ok(()) => Ok(true),
    };
    for record in &records {
        let game = export_game(record)?;
        let text = match format {
            "pgn" => game.pgn(),
            "text" => game.text(),
            other => bail!("bad --format '{other}': expected pgn or text"),
        };
        if !write(&text)? {
            return Ok(());
        }
    }
    match out.flush() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}
