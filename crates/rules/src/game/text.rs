//! Quoting what a user typed in one short, visible line, and the error that quotes it.

/// Keeps error messages one short line even for huge inputs: at most 40 characters of the
/// input, with control characters (a newline, a NUL) escaped so the message stays on one line,
/// and invisible ones escaped so that it shows them ([`is_hidden`]).
pub fn shorten(text: &str) -> String {
    shorten_to(text, 40)
}

/// Whether a character is escaped in messages: control characters, which would break the line,
/// and invisible ones (a byte order mark, zero-width spaces, direction marks, soft hyphens),
/// which would hide what was really sent.
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{2069}' | '\u{feff}')
}

/// [`shorten`] with another length limit, in characters.
pub fn shorten_to(text: &str, limit: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == limit {
            out.push_str("...");
            break;
        }
        if is_hidden(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A rule that a position string, a move or a variant name breaks, with where it breaks it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotationError(pub String);

impl NotationError {
    /// Builds an error from any message.
    pub fn new(message: impl Into<String>) -> Self {
        NotationError(message.into())
    }
}
