//! The database files: one per variant and seed count, a 32-byte header then one byte a board.
//!
//! Header (little-endian): the magic `PIONEGTB`, the format version (u32), the variant (u8),
//! the seed count (u8), two zero bytes, the number of boards (u64), and an FNV-1a checksum of
//! the values (u64). A file is written under a temporary name and renamed when complete, so a
//! build cut off at any moment leaves either the whole file or none.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::index::layer_size;
use pion_rules::awale::Variant;
use pion_rules::game::Game;

const MAGIC: &[u8; 8] = b"PIONEGTB";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
const HEADER: usize = 32;

/// Why a database file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// No file where one was expected.
    #[error("{path}: no such database file (build it with 'pion egtb build')")]
    Missing {
        /// The file.
        path: String,
    },
    /// Reading or writing failed.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// The file is not a pion database, or is for other boards.
    #[error("{path}: {what}")]
    Foreign {
        /// The file.
        path: String,
        /// What does not match.
        what: String,
    },
    /// The file is shorter or longer than its header says.
    #[error("{path}: truncated or padded: {found} bytes, expected {expected}")]
    Truncated {
        /// The file.
        path: String,
        /// Its length.
        found: u64,
        /// The length of a whole file.
        expected: u64,
    },
    /// The values do not match the checksum.
    #[error("{path}: checksum mismatch, the file is damaged (build it again)")]
    Checksum {
        /// The file.
        path: String,
    },
}

/// The variant's number in the header.
fn variant_code(variant: Variant) -> u8 {
    match variant {
        Variant::Standard => 0,
        Variant::GrandSlamNoCapture => 1,
        Variant::GrandSlamCapture => 2,
    }
}

/// The file of the `seeds` layer of `variant` in `dir`.
pub fn path_of(dir: &Path, variant: Variant, seeds: usize) -> PathBuf {
    dir.join(format!(
        "awale-{}-{seeds:02}.egtb",
        <pion_rules::awale::Awale as Game>::variant_name(variant)
    ))
}

/// FNV-1a, 64 bits: a checksum that needs no crate and catches damaged files.
pub fn checksum(values: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in values {
        hash ^= byte as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

fn header(variant: Variant, seeds: usize, values: &[u8]) -> [u8; HEADER] {
    let mut header = [0u8; HEADER];
    header[..8].copy_from_slice(MAGIC);
    header[8..12].copy_from_slice(&VERSION.to_le_bytes());
    header[12] = variant_code(variant);
    header[13] = seeds as u8;
    header[16..24].copy_from_slice(&(values.len() as u64).to_le_bytes());
    header[24..32].copy_from_slice(&checksum(values).to_le_bytes());
    header
}

/// Writes a solved layer atomically: to a temporary file first, renamed when complete.
pub fn write_layer(
    dir: &Path,
    variant: Variant,
    seeds: usize,
    values: &[u8],
) -> Result<PathBuf, FileError> {
    let path = path_of(dir, variant, seeds);
    let temporary = path.with_extension("egtb.partial");
    let io = |error| FileError::Io {
        path: temporary.display().to_string(),
        error,
    };
    fs::create_dir_all(dir).map_err(io)?;
    let mut file = fs::File::create(&temporary).map_err(io)?;
    file.write_all(&header(variant, seeds, values))
        .map_err(io)?;
    file.write_all(values).map_err(io)?;
    file.sync_all().map_err(io)?;
    drop(file);
    fs::rename(&temporary, &path).map_err(|error| FileError::Io {
        path: path.display().to_string(),
        error,
    })?;
    Ok(path)
}

/// Reads a layer and checks everything its header promises.
pub fn read_layer(dir: &Path, variant: Variant, seeds: usize) -> Result<Vec<u8>, FileError> {
    let path = path_of(dir, variant, seeds);
    let name = path.display().to_string();
    let bytes = match fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(FileError::Missing { path: name });
        }
        Err(error) => return Err(FileError::Io { path: name, error }),
    };
    let foreign = |what: String| FileError::Foreign {
        path: name.clone(),
        what,
    };
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err(foreign("not a pion endgame database".to_string()));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(foreign(format!(
            "format version {version}, this pion reads version {VERSION} (build it again)"
        )));
    }
    if bytes[12] != variant_code(variant) || bytes[13] as usize != seeds {
        return Err(foreign(format!(
            "holds variant number {} with {} seeds, expected {} with {seeds}",
            bytes[12],
            bytes[13],
            variant_code(variant)
        )));
    }
    let count = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
    let expected = layer_size(seeds);
    if count != expected {
        return Err(foreign(format!(
            "holds {count} boards, a layer of {seeds} seeds has {expected}"
        )));
    }
    let found = bytes.len() as u64;
    if found != HEADER as u64 + count {
        return Err(FileError::Truncated {
            path: name,
            found,
            expected: HEADER as u64 + count,
        });
    }
    let sum = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
    let mut values = bytes;
    values.drain(..HEADER);
    if checksum(&values) != sum || values.iter().any(|&v| v as usize > seeds) {
        return Err(FileError::Checksum { path: name });
    }
    Ok(values)
}
