//! Reading a child's output in lines: each line capped, each read able to give up when its
//! owner is done (so that no reader thread outlives its process, even when something the
//! process started holds the pipe open).

use std::io::{BufRead, Read};
use std::os::fd::{AsRawFd, RawFd};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Lines of a child's stderr kept in memory (see [`crate::Process::stderr_tail`]).
pub const STDERR_TAIL: usize = 20;

/// How long a read waits before it looks at its stop flag again, in milliseconds.
const POLL_MS: i32 = 100;

/// Reads one line into `buf`, keeping its first `max` bytes: the rest of a longer line is read
/// and dropped, so that it never comes back as lines of its own. `None` at the end of the
/// output; otherwise whether the line was cut.
pub fn read_capped_line(reader: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> Option<bool> {
    buf.clear();
    let n = reader.take(max as u64).read_until(b'\n', buf).ok()?;
    if n == 0 {
        return None;
    }
    let cut = n == max && buf.last() != Some(&b'\n');
    if cut {
        while let Ok(rest) = reader.fill_buf() {
            if rest.is_empty() {
                break;
            }
            match rest.iter().position(|&b| b == b'\n') {
                Some(end) => {
                    reader.consume(end + 1);
                    break;
                }
                None => {
                    let len = rest.len();
                    reader.consume(len);
                }
            }
        }
    }
    Some(cut)
}

/// A line as text: its end dropped, bytes that are not UTF-8 shown as U+FFFD.
pub(crate) fn text_of(buf: &[u8]) -> String {
    String::from_utf8_lossy(buf)
        .trim_end_matches(['\n', '\r'])
        .to_string()
}

/// A pipe read that ends (as an end of output) once `stop` is set, and remembers when it last
/// delivered bytes. A line is stamped with the time of the read that brought its end, not with
/// the time a thread got round to it: two lines that came in one write are stamped alike.
pub(crate) struct PipeRead<R> {
    inner: R,
    fd: RawFd,
    stop: Arc<AtomicBool>,
    /// When the last read returned bytes.
    pub(crate) last_read: Instant,
}

impl<R: Read + AsRawFd> PipeRead<R> {
    pub(crate) fn new(inner: R, stop: Arc<AtomicBool>) -> PipeRead<R> {
        let fd = inner.as_raw_fd();
        PipeRead {
            inner,
            fd,
            stop,
            last_read: Instant::now(),
        }
    }
}

impl<R: Read> Read for PipeRead<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            if self.stop.load(Ordering::SeqCst) {
                return Ok(0);
            }
            let mut poll = libc::pollfd {
                fd: self.fd,
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd, owned by this frame.
            let ready = unsafe { libc::poll(&mut poll, 1, POLL_MS) };
            if ready > 0 {
                let n = self.inner.read(buf)?;
                self.last_read = Instant::now();
                return Ok(n);
            }
            if ready < 0 {
                let error = std::io::Error::last_os_error();
                if error.kind() != std::io::ErrorKind::Interrupted {
                    return Err(error);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capped_read_drops_the_rest_of_a_long_line() {
        let max = 64 * 1024;
        let mut input = vec![b'y'; max + 10];
        input.extend(b"\nshort\n");
        let mut reader = std::io::Cursor::new(input);
        let mut buf = Vec::new();
        assert_eq!(read_capped_line(&mut reader, &mut buf, max), Some(true));
        assert_eq!(buf.len(), max);
        assert_eq!(read_capped_line(&mut reader, &mut buf, max), Some(false));
        assert_eq!(buf, b"short\n");
        assert_eq!(read_capped_line(&mut reader, &mut buf, max), None);
    }
}
