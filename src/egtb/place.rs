//! Where the databases live when nobody says: the `PION_EGTB` environment variable, else the
//! platform's data directory (`$XDG_DATA_HOME/pion/egtb`, `~/.local/share/pion/egtb` on Linux).
//! `pion egtb build` writes there by default, and the engine looks there unless `EgtbPath` is
//! set; what is installed there is what `pion egtb status` reports.

use std::path::{Path, PathBuf};

use super::VARIANTS;
use super::file::{Check, FileError, open_layer, path_of};
use super::index::layer_size;
use pion_rules::awale::{Awale, Variant};
use pion_rules::game::Game;

/// The environment variable that overrides the default directory (empty: no databases).
pub const ENV: &str = "PION_EGTB";

/// The default directory and what chose it, or `None` when `PION_EGTB` is set empty (or no
/// home directory is known).
pub fn default_dir() -> Option<(PathBuf, &'static str)> {
    if let Some(value) = std::env::var_os(ENV) {
        return (!value.is_empty()).then(|| (PathBuf::from(value), ENV));
    }
    let absolute = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    if cfg!(target_os = "windows") {
        return absolute("APPDATA").map(|d| (d.join("pion").join("egtb"), "%APPDATA%"));
    }
    if cfg!(target_os = "macos") {
        return absolute("HOME").map(|h| {
            let dir = h.join("Library/Application Support/pion/egtb");
            (dir, "the user's Application Support")
        });
    }
    if let Some(data) = absolute("XDG_DATA_HOME") {
        return Some((data.join("pion").join("egtb"), "XDG_DATA_HOME"));
    }
    absolute("HOME").map(|h| {
        (
            h.join(".local/share/pion/egtb"),
            "the user's data directory",
        )
    })
}

/// What one variant has installed in a directory.
#[derive(Debug)]
pub struct Installed {
    /// The variant.
    pub variant: Variant,
    /// Layers `0..layers` are there and sound as far as their headers go.
    pub layers: usize,
    /// Their bytes on disk.
    pub bytes: u64,
    /// Why the layers stop there, if a file is there but cannot be used.
    pub problem: Option<FileError>,
}

/// What every variant has installed in `dir` (headers and lengths only: quick).
pub fn status(dir: &Path) -> Vec<Installed> {
    VARIANTS
        .iter()
        .map(|&variant| {
            let mut installed = Installed {
                variant,
                layers: 0,
                bytes: 0,
                problem: None,
            };
            for seeds in 0..=super::MAX_LOADED_SEEDS {
                match open_layer(dir, variant, seeds, Check::Header) {
                    Ok(_) => {
                        installed.layers += 1;
                        installed.bytes += layer_size(seeds) + super::file::OVERHEAD;
                    }
                    Err(FileError::Missing { path }) => {
                        if let Some(above) = (seeds + 1..=super::MAX_LOADED_SEEDS)
                            .find(|&s| path_of(dir, variant, s).symlink_metadata().is_ok())
                        {
                            installed.problem = Some(FileError::Gap { path, above });
                        }
                        break;
                    }
                    Err(e) => {
                        installed.problem = Some(e);
                        break;
                    }
                }
            }
            installed
        })
        .collect()
}

/// One line for a variant's status.
pub fn describe(installed: &Installed) -> String {
    let name = Awale::variant_name(installed.variant);
    let mut line = match installed.layers {
        0 => format!("{name}: not installed"),
        n => format!(
            "{name}: up to {} seeds ({} layers, {})",
            n - 1,
            n,
            size(installed.bytes)
        ),
    };
    if let Some(problem) = &installed.problem {
        line.push_str(&format!("; unusable: {problem}"));
    }
    line
}

/// A size in bytes for people: kB, MB or GB.
pub fn size(bytes: u64) -> String {
    match bytes {
        0..1_000_000 => format!("{:.0} kB", (bytes as f64 / 1e3).ceil()),
        1_000_000..1_000_000_000 => format!("{:.0} MB", bytes as f64 / 1e6),
        _ => format!("{:.1} GB", bytes as f64 / 1e9),
    }
}
