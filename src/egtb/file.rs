//! The database files: one per variant and seed count, a 32-byte header, the layer's table of
//! entries (768 bytes), then one byte a board (see `code`).
//!
//! Header (little-endian): the magic `PIONEGTB`, the format version (u32), the variant (u8),
//! the seed count (u8), the number of entries in the table (u8), a zero byte, the number of
//! boards (u64), and an FNV-1a checksum of the table and the bytes (u64). The table holds 255
//! entries `(lo, hi, likely)` of a byte each, unused ones zero. A file is written under a
//! temporary name and renamed when complete, so a build cut off at any moment leaves either the
//! whole file or none.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::code::{Entry, TABLE_BYTES, room};
use super::index::layer_size;
use super::layer::{Bytes, Layer};
use pion_rules::awale::Variant;
use pion_rules::game::Game;

const MAGIC: &[u8; 8] = b"PIONEGTB";
/// The format version this build reads and writes (3: cycling boards keep their bounds and a
/// likeliest share; 2 marked them with one value, 1 did not mark them).
pub const VERSION: u32 = 3;
const HEADER: usize = 32;
/// The bytes of a file before its boards'.
pub const OVERHEAD: u64 = (HEADER + TABLE_BYTES) as u64;

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
    /// A layer is missing below one that is there: the layers above it cannot be used.
    #[error(
        "{path}: no such database file, though the layer of {above} seeds is there: \
         the databases are incomplete (run 'pion egtb build' again to fill the gap)"
    )]
    Gap {
        /// The missing file.
        path: String,
        /// The seed count of a layer found above it.
        above: usize,
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

/// The table of entries as stored.
fn table(entries: &[Entry]) -> [u8; TABLE_BYTES] {
    let mut table = [0u8; TABLE_BYTES];
    for (n, e) in entries.iter().enumerate() {
        table[3 * n..3 * n + 3].copy_from_slice(&[e.lo, e.hi, e.likely]);
    }
    table
}

/// FNV-1a, 64 bits, of a layer's table then its bytes: a checksum that needs no crate and
/// catches damaged files.
fn layer_checksum(table: &[u8], values: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in table.iter().chain(values) {
        hash ^= byte as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

fn header(variant: Variant, seeds: usize, layer: &Layer) -> [u8; HEADER] {
    let mut header = [0u8; HEADER];
    header[..8].copy_from_slice(MAGIC);
    header[8..12].copy_from_slice(&VERSION.to_le_bytes());
    header[12] = variant_code(variant);
    header[13] = seeds as u8;
    header[14] = layer.table().len() as u8;
    header[16..24].copy_from_slice(&(layer.len() as u64).to_le_bytes());
    let sum = layer_checksum(&table(layer.table()), layer);
    header[24..32].copy_from_slice(&sum.to_le_bytes());
    header
}

/// Writes a solved layer atomically: to a temporary file first, renamed when complete.
pub fn write_layer(
    dir: &Path,
    variant: Variant,
    seeds: usize,
    layer: &Layer,
) -> Result<PathBuf, FileError> {
    let path = path_of(dir, variant, seeds);
    let temporary = path.with_extension("egtb.partial");
    let io = |error| FileError::Io {
        path: temporary.display().to_string(),
        error,
    };
    fs::create_dir_all(dir).map_err(io)?;
    let mut file = fs::File::create(&temporary).map_err(io)?;
    file.write_all(&header(variant, seeds, layer)).map_err(io)?;
    file.write_all(&table(layer.table())).map_err(io)?;
    file.write_all(layer).map_err(io)?;
    file.sync_all().map_err(io)?;
    drop(file);
    fs::rename(&temporary, &path).map_err(|error| FileError::Io {
        path: path.display().to_string(),
        error,
    })?;
    Ok(path)
}

/// How much of a layer [`open_layer`] checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// The header and the length only: nothing of the values is read, so opening costs the
    /// same whatever the layer's size (the engine, at every start).
    Header,
    /// Every value too, against the checksum and the seed count (builds and `verify`).
    Values,
}

/// Opens a layer and checks what `check` asks of what its header promises. Nothing is read
/// before the file is known to be a regular file, and no value before its length is known to
/// match its header, so a FIFO, a device or a huge file named like a layer is refused at once.
pub fn open_layer(
    dir: &Path,
    variant: Variant,
    seeds: usize,
    check: Check,
) -> Result<Layer, FileError> {
    let path = path_of(dir, variant, seeds);
    let name = path.display().to_string();
    let io = |error: std::io::Error| FileError::Io {
        path: name.clone(),
        error,
    };
    let foreign = |what: String| FileError::Foreign {
        path: name.clone(),
        what,
    };
    let mut options = fs::OpenOptions::new();
    options.read(true);
    // Opening a FIFO for reading waits for a writer: not when non-blocking. The flag changes
    // nothing for a regular file, and the file type is checked on the open file itself.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let mut file = match options.open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(FileError::Missing { path: name });
        }
        Err(error) => return Err(io(error)),
    };
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(foreign(
            "not a regular file (a directory, a FIFO or a device named like a layer)".into(),
        ));
    }
    let mut head = [0u8; HEADER];
    if meta.len() < HEADER as u64 || file.read_exact(&mut head).is_err() || &head[..8] != MAGIC {
        return Err(foreign("not a pion endgame database".to_string()));
    }
    let version = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(foreign(format!(
            "format version {version}, this pion reads version {VERSION} (build it again)"
        )));
    }
    if head[12] != variant_code(variant) || head[13] as usize != seeds {
        return Err(foreign(format!(
            "holds variant number {} with {} seeds, expected {} with {seeds}",
            head[12],
            head[13],
            variant_code(variant)
        )));
    }
    let count = u64::from_le_bytes(head[16..24].try_into().expect("8 bytes"));
    let expected = layer_size(seeds);
    if count != expected {
        return Err(foreign(format!(
            "holds {count} boards, a layer of {seeds} seeds has {expected}"
        )));
    }
    let whole = OVERHEAD + count;
    if meta.len() != whole {
        return Err(FileError::Truncated {
            path: name,
            found: meta.len(),
            expected: whole,
        });
    }
    let used = head[14] as usize;
    let mut stored = [0u8; TABLE_BYTES];
    file.read_exact(&mut stored).map_err(io)?;
    let entries: Vec<Entry> = stored
        .chunks(3)
        .take(used.min(room(seeds)))
        .map(|e| Entry {
            lo: e[0],
            hi: e[1],
            likely: e[2],
        })
        .collect();
    let bytes = bytes_of(file, whole as usize).map_err(io)?;
    let layer = Layer::new(seeds, bytes, entries);
    let sum = u64::from_le_bytes(head[24..32].try_into().expect("8 bytes"));
    if check == Check::Values && (layer_checksum(&stored, &layer) != sum || !sound(&layer, seeds)) {
        return Err(FileError::Checksum { path: name });
    }
    Ok(layer)
}

/// Whether every byte of a layer is one a build writes: a value up to the seed count, or the
/// number of an entry of the table past it, every entry `lo <= likely <= hi`, `lo < hi <= k`.
fn sound(layer: &Layer, seeds: usize) -> bool {
    let k = seeds as u8;
    let table = layer.table();
    table
        .iter()
        .all(|e| e.lo < e.hi && e.hi <= k && (e.lo..=e.hi).contains(&e.likely))
        && layer
            .iter()
            .all(|&b| b <= k || ((b - k - 1) as usize) < table.len())
}

/// The bytes of an open layer file of `len` bytes whose header and table were read: mapped
/// where the system can map files, read otherwise.
fn bytes_of(mut file: fs::File, len: usize) -> std::io::Result<Bytes> {
    let skip = OVERHEAD as usize;
    #[cfg(unix)]
    if let Ok(mapping) = super::layer::Mapping::new(&file, len, skip) {
        return Ok(Bytes::Mapped(mapping));
    }
    let mut values = vec![0u8; len - skip];
    file.read_exact(&mut values)?;
    Ok(Bytes::Owned(values))
}
