//! `referee export`: the games of a records file written as PGN, OGN (Aualé's files, Awale
//! only) or text, on stdout.

use std::io::Write;
use std::path::Path;

use anyhow::{Result, bail};

use crate::record::export::{ExportGame, move_note, termination};
use crate::record::{GameRecord, read_one_match};
use pion_protocol::ogn::{OgnTags, write_ogn};
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
            "ogn" => ogn(record, &game)?,
            other => bail!("bad --format '{other}': expected pgn, ogn or text"),
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

/// A record as Aualé writes a match (OGN): Awale only, played under rules that score its moves
/// as abapa does. Book moves are marked `book`, engine moves carry what the engine said.
fn ogn(record: &GameRecord, game: &ExportGame) -> Result<String> {
    if record.rules != "awale" {
        bail!(
            "game {}: OGN holds Oware (Awale) games only, and this is {}: use --format pgn",
            record.game,
            record.rules
        );
    }
    let (board, side) = game.position.split_once(' ').unwrap_or_default();
    let variant = Awale::parse_variant(&record.variant).ok_or_else(|| {
        anyhow::anyhow!("game {}: unknown variant '{}'", record.game, record.variant)
    })?;
    let start = Awale::parse_position(board, side, variant)
        .map_err(|e| anyhow::anyhow!("game {}: start position: {e}", record.game))?;
    let moves: Vec<String> = game.opening.iter().chain(&game.moves).cloned().collect();
    let mut comments: Vec<Option<String>> =
        game.opening.iter().map(|_| Some("book".into())).collect();
    comments.extend(
        (0..game.moves.len()).map(|i| move_note(game.data.get(i), game.times_ms.get(i).copied())),
    );
    let mut extra = Vec::new();
    if game.reason != "normal" {
        extra.push((
            "Termination".to_string(),
            termination(&game.reason).to_string(),
        ));
        if let (Some(detail), Some(last)) = (&game.detail, comments.last_mut()) {
            let note = last.take().map_or(String::new(), |n| format!("{n}; "));
            *last = Some(format!("{note}{} ({detail})", game.result));
        }
    }
    let tags = OgnTags {
        event: game.event.clone(),
        site: game.site.clone(),
        date: game
            .started
            .as_deref()
            .filter(|s| s.len() >= 10)
            .map_or("?".to_string(), |s| s[..10].replace('-', ".")),
        round: game.round.to_string(),
        south: game.players[0].clone(),
        north: game.players[1].clone(),
        extra,
    };
    let mut text = write_ogn(&tags, &start, variant, &moves, &comments)
        .map_err(|e| anyhow::anyhow!("game {}: {e}", record.game))?;
    text.push('\n');
    Ok(text)
}
