//! One layer's bytes as the engine reads them, with its table (see `code`): mapped
//! from its file where the system can map files (the pages are shared by every process probing
//! the same file and read only when touched), or held in memory.

use std::fs::File;
use std::ops::Deref;

use super::code::{self, Entry};

/// One layer: a byte a board (see `code`) and the table its cycling boards number.
pub struct Layer {
    seeds: usize,
    bytes: Bytes,
    table: Vec<Entry>,
}

/// Where a layer's bytes are.
pub enum Bytes {
    /// In memory (a layer just built, or a system without `mmap`).
    Owned(Vec<u8>),
    /// Mapped from a file, after its header and table.
    #[cfg(unix)]
    Mapped(Mapping),
}

impl Layer {
    /// The layer of `seeds` seeds made of `bytes` and its `table`.
    pub fn new(seeds: usize, bytes: Bytes, table: Vec<Entry>) -> Layer {
        Layer {
            seeds,
            bytes,
            table,
        }
    }

    /// A solved layer from every board's entry.
    pub fn from_entries(seeds: usize, entries: &[Entry]) -> Layer {
        let (bytes, table) = code::encode(entries, seeds);
        Layer::new(seeds, Bytes::Owned(bytes), table)
    }

    /// The table of the cycling boards' entries.
    pub fn table(&self) -> &[Entry] {
        &self.table
    }

    /// What the layer holds of the board of index `i`.
    #[inline]
    pub fn entry(&self, i: usize) -> Entry {
        code::entry(self[i], &self.table, self.seeds)
    }
}

impl Deref for Layer {
    type Target = [u8];

    #[inline]
    fn deref(&self) -> &[u8] {
        match &self.bytes {
            Bytes::Owned(values) => values,
            #[cfg(unix)]
            Bytes::Mapped(mapping) => mapping.values(),
        }
    }
}

impl std::fmt::Debug for Layer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Layer({} seeds, {} boards)", self.seeds, self.len())
    }
}

/// A read-only, shared mapping of a whole file, whose values start after `skip` bytes.
#[cfg(unix)]
pub struct Mapping {
    base: *const u8,
    len: usize,
    skip: usize,
}

// The mapping is read-only and lives until dropped: reading it from any thread is sound.
#[cfg(unix)]
unsafe impl Send for Mapping {}
#[cfg(unix)]
unsafe impl Sync for Mapping {}

#[cfg(unix)]
impl Mapping {
    /// Maps the `len` bytes of `file` (its whole length, at least `skip + 1`), read-only.
    pub fn new(file: &File, len: usize, skip: usize) -> std::io::Result<Mapping> {
        use std::os::fd::AsRawFd;
        assert!(len > skip, "a layer holds at least one board");
        // SAFETY: a fresh read-only shared mapping of an open file descriptor, checked for
        // failure; the pointer is only read within `len` bytes and unmapped once, in `drop`.
        // A file changed by another process while mapped can change the values read, never
        // their bounds: builds write new files and rename them, so a mapped file is not
        // written in place.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ,
                libc::MAP_SHARED,
                file.as_raw_fd(),
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        Ok(Mapping {
            base: base as *const u8,
            len,
            skip,
        })
    }

    #[inline]
    fn values(&self) -> &[u8] {
        // SAFETY: `base` maps `len` readable bytes for as long as `self` lives.
        unsafe { std::slice::from_raw_parts(self.base.add(self.skip), self.len - self.skip) }
    }
}

#[cfg(unix)]
impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, unmapped once; no slice of it outlives `self`.
        unsafe {
            libc::munmap(self.base as *mut libc::c_void, self.len);
        }
    }
}
