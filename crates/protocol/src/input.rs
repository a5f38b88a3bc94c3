//! Reading input lines with a bound, so that no input can make the engine grow without limit.

use std::io::{self, BufRead};

/// The longest line accepted, in bytes; longer lines are read to their end and rejected.
pub const MAX_LINE: usize = 1 << 20;

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of valid UTF-8 (without its line ending).
    Text(String),
    /// A line longer than the limit (its bytes are discarded).
    TooLong,
    /// A line that is not valid UTF-8.
    NotUtf8,
}

/// The UTF-8 byte order mark some editors put at the start of a file ("UTF-8 with BOM").
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// An iterator over the lines of a reader, each at most `max` bytes kept. A byte order mark
/// at the very start of the input is skipped, so that a script saved with one works.
pub struct LineReader<R> {
    inner: R,
    max: usize,
    done: bool,
    first: bool,
}

impl<R: BufRead> LineReader<R> {
    /// Reads lines from `inner`, keeping at most `max` bytes of each.
    pub fn new(inner: R, max: usize) -> Self {
        LineReader {
            inner,
            max,
            done: false,
            first: true,
        }
    }

    fn read_line(&mut self) -> io::Result<Option<Line>> {
        let mut line = Vec::new();
        let mut too_long = false;
        loop {
            let available = match self.inner.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                self.done = true;
                if line.is_empty() && !too_long {
                    return Ok(None);
                }
                break;
            }
            let (chunk, used, end) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (&available[..i], i + 1, true),
                None => (available, available.len(), false),
            };
            if line.len() + chunk.len() > self.max {
                too_long = true;
            } else {
                line.extend_from_slice(chunk);
            }
            self.inner.consume(used);
            if end {
                break;
            }
        }
        let first = std::mem::take(&mut self.first);
        if too_long {
            return Ok(Some(Line::TooLong));
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if first && line.starts_with(BOM) {
            line.drain(..BOM.len());
        }
        Ok(Some(match String::from_utf8(line) {
            Ok(text) => Line::Text(text),
            Err(_) => Line::NotUtf8,
        }))
    }
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = io::Result<Line>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        self.read_line().transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<Line> {
        LineReader::new(input, max).map(|l| l.unwrap()).collect()
    }

    #[test]
    fn splits_lines_and_strips_carriage_returns() {
        assert_eq!(
            lines(b"a\r\nb\n\nc", 10),
            vec![
                Line::Text("a".into()),
                Line::Text("b".into()),
                Line::Text("".into()),
                Line::Text("c".into())
            ]
        );
    }

    #[test]
    fn skips_a_byte_order_mark_at_the_start_only() {
        assert_eq!(
            lines(b"\xEF\xBB\xBFnewgame\n\xEF\xBB\xBFshow\n", 100),
            vec![
                Line::Text("newgame".into()),
                Line::Text("\u{feff}show".into())
            ]
        );
        assert_eq!(lines(b"\xEF\xBB\xBF", 100), vec![Line::Text(String::new())]);
        // Not after a first line that was too long either.
        assert_eq!(
            lines(b"0123456789\n\xEF\xBB\xBFshow\n", 8),
            vec![Line::TooLong, Line::Text("\u{feff}show".into())]
        );
    }

    #[test]
    fn rejects_long_lines_and_keeps_going() {
        let mut input = vec![b'x'; 100];
        input.extend_from_slice(b"\nok\n");
        assert_eq!(
            lines(&input, 10),
            vec![Line::TooLong, Line::Text("ok".into())]
        );
    }

    #[test]
    fn rejects_invalid_utf8() {
        assert_eq!(
            lines(b"\xff\xfe\nisready\n", 10),
            vec![Line::NotUtf8, Line::Text("isready".into())]
        );
    }

    #[test]
    fn long_line_across_buffer_refills() {
        let mut input = vec![b'y'; 50_000];
        input.push(b'\n');
        let reader = std::io::BufReader::with_capacity(7, &input[..]);
        let got: Vec<Line> = LineReader::new(reader, 40_000)
            .map(|l| l.unwrap())
            .collect();
        assert_eq!(got, vec![Line::TooLong]);
    }
}
