//! Awale endgame databases: the exact value of every board with few seeds left, by retrograde
//! analysis (docs/egtb.md).

pub mod build;
pub mod cli;
pub mod code;
pub mod cycles;
pub mod file;
pub mod index;
pub mod layer;
pub mod place;
pub mod reference;
pub mod solve;
pub mod tables;

#[cfg(test)]
mod tests;

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use pion_rules::awale::{Awale, Variant};
use pion_rules::game::Game;

use file::{Check, FileError};
use tables::{Probe, Tables};

/// The most seeds of a layer the engine looks for.
pub const MAX_LOADED_SEEDS: usize = 40;

/// The variants, in the order of the installed tables: the rules' own list.
const VARIANTS: &[Variant] = <Awale as Game>::VARIANTS;
/// How many variants have tables.
const SLOTS: usize = VARIANTS.len();

fn slot(variant: Variant) -> usize {
    VARIANTS
        .iter()
        .position(|&v| v == variant)
        .expect("every variant")
}

/// The tables the engine probes, one set a variant, like Syzygy tables one per process: the
/// search's game trait has no room for them, and they never change during a search.
static INSTALLED: RwLock<[Option<Arc<Tables>>; SLOTS]> = RwLock::new([const { None }; SLOTS]);
/// One more than the most seeds each variant's tables hold (0: none), read before the lock so
/// that positions out of reach cost one load.
static REACH: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
/// Probes that gave a value, for `info ... tbhits`.
static HITS: AtomicU64 = AtomicU64::new(0);

/// Where the engine's databases come from: the default directory (loaded for a variant when
/// a search first needs it), a directory `EgtbPath` named, or none (`EgtbPath` set empty).
#[derive(Clone, Debug, PartialEq)]
enum Source {
    Default,
    Chosen,
    Off,
}

/// The source, and which variants' default databases were already looked for.
static SOURCE: Mutex<(Source, [bool; SLOTS])> = Mutex::new((Source::Default, [false; SLOTS]));
/// Whether the hint on how to install databases was given.
static HINTED: AtomicBool = AtomicBool::new(false);

fn set_tables(i: usize, tables: Option<Arc<Tables>>) {
    let mut installed = INSTALLED.write().unwrap_or_else(|e| e.into_inner());
    REACH[i].store(
        tables.as_ref().map_or(0, |t| t.max_seeds() + 1),
        Ordering::Relaxed,
    );
    installed[i] = tables;
}

/// Opens every variant's databases found in `dir` (up to 40 seeds) and makes the engine probe
/// them, replacing those installed before and the default directory (`EgtbPath`); `None`
/// removes them all. A damaged or foreign file, a gap between layers, or a directory with no
/// database is an error, and leaves no database installed. Returns the most seeds of each
/// variant's tables that were found. Files are mapped, not read: this costs milliseconds
/// whatever their size.
pub fn install(dir: Option<&Path>) -> Result<Vec<(Variant, usize)>, FileError> {
    let mut loaded: [Option<Arc<Tables>>; SLOTS] = [const { None }; SLOTS];
    let mut found = Vec::new();
    let result = (|| {
        let Some(dir) = dir else { return Ok(()) };
        let mut missing = None;
        for &variant in VARIANTS {
            match Tables::load(dir, variant, MAX_LOADED_SEEDS, Check::Header) {
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
        loaded = [const { None }; SLOTS];
        found.clear();
    }
    let mut source = SOURCE.lock().unwrap_or_else(|e| e.into_inner());
    *source = (
        if dir.is_some() {
            Source::Chosen
        } else {
            Source::Off
        },
        [true; SLOTS],
    );
    for (i, tables) in loaded.into_iter().enumerate() {
        set_tables(i, tables);
    }
    result.map(|()| found)
}

/// What `EgtbPath` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// The default directory, opened when a search first needs it (empty, or `<empty>`).
    Default,
    /// No databases at all (`off`).
    Off,
    /// The databases of this directory, opened at once.
    Dir(String),
}

impl Choice {
    /// The choice an `EgtbPath` value makes.
    pub fn from_value(value: &str) -> Choice {
        match value.trim() {
            "" | "<empty>" => Choice::Default,
            "off" => Choice::Off,
            dir => Choice::Dir(dir.to_string()),
        }
    }
}

/// Applies an `EgtbPath` choice (see [`install`] for a directory's errors).
pub fn choose(choice: &Choice) -> Result<(), FileError> {
    match choice {
        Choice::Default => {
            for i in 0..VARIANTS.len() {
                set_tables(i, None);
            }
            *SOURCE.lock().unwrap_or_else(|e| e.into_inner()) = (Source::Default, [false; SLOTS]);
            Ok(())
        }
        Choice::Off => install(None).map(|_| ()),
        Choice::Dir(dir) => install(Some(Path::new(dir))).map(|_| ()),
    }
}

/// Makes the default directory's databases of `variant` ready before a search, the first time
/// a search of that variant needs them and no `EgtbPath` was set (nothing is opened before).
/// Returns a line to tell the user when the files are there but cannot be used.
pub fn prepare(variant: Variant) -> Option<String> {
    let i = slot(variant);
    let mut source = SOURCE.lock().unwrap_or_else(|e| e.into_inner());
    if source.0 != Source::Default || source.1[i] {
        return None;
    }
    source.1[i] = true;
    let dir = place::default_dir()?.0;
    match Tables::load(&dir, variant, MAX_LOADED_SEEDS, Check::Header) {
        Ok(tables) => {
            set_tables(i, Some(Arc::new(tables)));
            None
        }
        Err(FileError::Missing { .. }) => None,
        Err(e) => Some(format!("{e}; playing without databases")),
    }
}

/// The one line that says how to install the databases, the first time it is asked for in a
/// process where no `EgtbPath` was set and the default directory holds none (`None` after
/// that, and whenever some are installed): what a session prints after its handshake.
pub fn hint() -> Option<String> {
    if SOURCE.lock().unwrap_or_else(|e| e.into_inner()).0 != Source::Default {
        return None;
    }
    let (dir, _) = place::default_dir()?;
    let any = VARIANTS
        .iter()
        .any(|&v| file::path_of(&dir, v, 0).symlink_metadata().is_ok());
    if any || HINTED.swap(true, Ordering::Relaxed) {
        return None;
    }
    Some(format!(
        "no Awale endgame databases in {}: 'pion egtb build' installs them there \
         (see 'pion egtb build --help'), or set EgtbPath",
        dir.display()
    ))
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
