//! Awale endgame databases: the exact value of every board with few seeds left, by retrograde
//! analysis (docs/egtb.md).

/// Where `pion egtb build` writes and `verify` reads by default (out of git, under target/).
pub const DEFAULT_DIR: &str = "target/egtb";

pub mod build;
pub mod file;
pub mod index;
pub mod reference;
pub mod solve;
pub mod tables;

#[cfg(test)]
mod tests;

use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};

use pion_rules::awale::{Awale, Variant};
use pion_rules::game::Game;

use file::FileError;
use tables::{Probe, Tables};

/// The variants, in the order of the installed tables.
const VARIANTS: [Variant; 3] = [
    Variant::Standard,
    Variant::GrandSlamNoCapture,
    Variant::GrandSlamCapture,
];

fn slot(variant: Variant) -> usize {
    VARIANTS
        .iter()
        .position(|&v| v == variant)
        .expect("every variant")
}

/// The tables the engine probes, one set a variant, like Syzygy tables one per process: the
/// search's game trait has no room for them, and they never change during a search.
static INSTALLED: RwLock<[Option<Arc<Tables>>; 3]> = RwLock::new([None, None, None]);
/// One more than the most seeds each variant's tables hold (0: none), read before the lock so
/// that positions out of reach cost one load.
static REACH: [AtomicUsize; 3] = [
    AtomicUsize::new(0),
    AtomicUsize::new(0),
    AtomicUsize::new(0),
];
/// Probes that gave a value, for `info ... tbhits`.
static HITS: AtomicU64 = AtomicU64::new(0);

/// Loads every variant's databases found in `dir` (up to 40 seeds) and makes the engine probe
/// them, replacing those installed before; `None` removes them. A damaged or foreign file, or a
/// directory with no database, is an error, and leaves no database installed. Returns the most
/// seeds of each variant's tables that were found.
pub fn install(dir: Option<&Path>) -> Result<Vec<(Variant, usize)>, FileError> {
    let mut loaded: [Option<Arc<Tables>>; 3] = [None, None, None];
    let mut found = Vec::new();
    let result = (|| {
        let Some(dir) = dir else { return Ok(()) };
        let mut missing = None;
        for variant in VARIANTS {
            match Tables::load(dir, variant, 40) {
                Ok(tables) => {
                    found.push((variant, tables.max_seeds()));
                    loaded[slot(variant)] = Some(Arc::new(tables));
                }
                Err(e @ FileError::Missing { .. }) => missing = missing.or(Some(e)),
                Err(e) => return Err(e),
            }
        }
        match missing {
            Some(e) if found.is_empty() => Err(e),
            _ => Ok(()),
        }
    })();
    if result.is_err() {
        loaded = [None, None, None];
        found.clear();
    }
    let mut installed = INSTALLED.write().unwrap_or_else(|e| e.into_inner());
    for (i, tables) in loaded.into_iter().enumerate() {
        REACH[i].store(
            tables.as_ref().map_or(0, |t| t.max_seeds() + 1),
            Ordering::Relaxed,
        );
        installed[i] = tables;
    }
    result.map(|()| found)
}

/// Whether some database is installed.
pub fn installed() -> bool {
    REACH.iter().any(|r| r.load(Ordering::Relaxed) > 0)
}

/// The installed database's value of a position not yet over, if it holds it.
#[inline]
pub fn probe(position: &Awale) -> Option<Probe> {
    let i = slot(position.variant());
    let seeds = 48 - position.irreversible_count() as usize;
    if seeds >= REACH[i].load(Ordering::Relaxed) || position.outcome().is_some() {
        return None;
    }
    let installed = INSTALLED.read().unwrap_or_else(|e| e.into_inner());
    let probe = installed[i].as_ref()?.probe(position)?;
    HITS.fetch_add(1, Ordering::Relaxed);
    Some(probe)
}

/// Probes that gave a value since the process started.
pub fn hits() -> u64 {
    HITS.load(Ordering::Relaxed)
}
