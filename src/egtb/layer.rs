//! One layer's values as the engine reads them: mapped from its file where the system can map
//! files (the pages are shared by every process probing the same file and read only when
//! touched), or held in memory.

use std::fs::File;
use std::ops::Deref;

/// The values of one layer, one byte a board.
pub enum Layer {
    /// Values in memory (a layer just built, or a system without `mmap`).
    Owned(Vec<u8>),
    /// Values mapped from a file, after its header.
    #[cfg(unix)]
    Mapped(Mapping),
}

impl From<Vec<u8>> for Layer {
    fn from(values: Vec<u8>) -> Layer {
        Layer::Owned(values)
    }
}

impl Deref for Layer {
    type Target = [u8];

    #[inline]
    fn deref(&self) -> &[u8] {
        match self {
            Layer::Owned(values) => values,
            #[cfg(unix)]
            Layer::Mapped(mapping) => mapping.values(),
        }
    }
}

impl std::fmt::Debug for Layer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Layer({} boards)", self.len())
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
