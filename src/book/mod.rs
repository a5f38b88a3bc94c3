//! Awale's opening book: positions of the first plies with the value of every move, computed by
//! pion's own deep searches (`pion book build`, see docs/book.md) and embedded in the binary.
//!
//! The file is text, one entry a line: the position as protocol.md writes it, then every legal
//! move with its score (protocol.md's words) and the depth behind it, best first:
//!
//! ```text
//! # pion book build --variant standard ...
//! variant standard
//! 4,4,4,4,4,4/4,4,4,4,4,4/0,0 1 : F cp 31 d17, E cp 25 d17, ...
//! ```
//!
//! At a position of the book the engine plays one of the moves within [`MARGIN_CP`] of the best,
//! drawn by the generator the `Seed` option seeds, so that matches are not all one game.

pub mod build;
pub mod cli;

use std::collections::HashMap;
use std::sync::OnceLock;

use rand::RngExt;

use crate::search::levels::rng_for;
use crate::search::{Info, Level, Score, Settings};
use pion_rules::awale::Awale;
use pion_rules::game::Game;

/// How far below the best move's value (in hundredths of a seed) a book move may be and still
/// be played: the searches behind the values are not exact, so moves this close are equals.
pub const MARGIN_CP: i32 = 10;

/// The books in the binary, one a variant of Awale.
const EMBEDDED: [&str; 2] = [
    include_str!("awale-standard.txt"),
    include_str!("awale-grandslam-nocapture.txt"),
];

/// One move of a book position, as its file gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move, as protocol.md writes it.
    pub mv: String,
    /// Its value for the side to move.
    pub score: Score,
    /// The depth of the search behind the value, this move included.
    pub depth: u32,
}

/// An opening book of one Awale variant.
#[derive(Clone, Debug, Default)]
pub struct Book {
    /// The variant's protocol name.
    pub variant: String,
    /// The command that built the book, from its header.
    pub command: String,
    /// Every position (`<board> <side>`) with its moves, best first.
    pub entries: HashMap<String, Vec<BookMove>>,
}

/// Reads one move of an entry: `<move> <score> d<depth>`.
fn parse_move_field(field: &str) -> Result<(String, Score, u32), String> {
    let words: Vec<&str> = field.split_whitespace().collect();
    let (mv, score, depth) = match words[..] {
        [mv, ref score @ .., depth] if !score.is_empty() => (mv, score.join(" "), depth),
        _ => {
            return Err(format!(
                "a move is '<move> <score> d<depth>', not '{}'",
                pion_rules::game::shorten(field.trim())
            ));
        }
    };
    let score: Score = score.parse()?;
    let depth = depth
        .strip_prefix('d')
        .and_then(|d| d.parse().ok())
        .ok_or_else(|| format!("bad depth '{depth}' (d<plies>)"))?;
    Ok((mv.to_string(), score, depth))
}

impl Book {
    /// Reads a book file, checking every line: the variant is one of Awale's, every position
    /// is a valid Awale position of it, and every move is legal there and listed once. The
    /// error names the line.
    pub fn parse(text: &str) -> Result<Book, String> {
        let mut book = Book::default();
        let mut variant = None;
        for (i, line) in text.lines().enumerate() {
            let at = |message: String| format!("book line {}: {message}", i + 1);
            let line = line.trim();
            if let Some(comment) = line.strip_prefix('#') {
                if book.command.is_empty() && comment.trim_start().starts_with("pion book build") {
                    book.command = comment.trim().to_string();
                }
                continue;
            }
            if line.is_empty() {
                continue;
            }
            let Some(variant) = variant else {
                let name = line.strip_prefix("variant ").map(str::trim).unwrap_or("");
                let parsed = Awale::parse_variant(name).ok_or_else(|| {
                    at(format!(
                        "the first line must be 'variant <name>' (Awale's variants: {})",
                        Awale::variant_names().join(", ")
                    ))
                })?;
                variant = Some(parsed);
                book.variant = Awale::variant_name(parsed).to_string();
                continue;
            };
            let (position, moves) = line
                .split_once(':')
                .ok_or_else(|| at("an entry is '<board> <side> : <moves>'".into()))?;
            let words: Vec<&str> = position.split_whitespace().collect();
            let [board, side] = words[..] else {
                return Err(at("a position is '<board> <side>'".into()));
            };
            let pos = Awale::parse_position(board, side, variant).map_err(|e| at(e.to_string()))?;
            if pos.outcome().is_some() {
                return Err(at("the game is over in this position".into()));
            }
            let key = pos.format_position();
            let mut list: Vec<BookMove> = Vec::new();
            for field in moves.split(',') {
                let (mv, score, depth) = parse_move_field(field).map_err(at)?;
                let parsed = pos
                    .parse_legal_move(&mv)
                    .map_err(|e| at(format!("move {mv}: {e}")))?;
                let mv = Awale::format_move(parsed);
                if list.iter().any(|m| m.mv == mv) {
                    return Err(at(format!("move {mv} is listed twice")));
                }
                list.push(BookMove { mv, score, depth });
            }
            list.sort_by_key(|m| std::cmp::Reverse(m.score.rank()));
            if book.entries.insert(key, list).is_some() {
                return Err(at("this position is already in the book".into()));
            }
        }
        if variant.is_none() {
            return Err("book: no 'variant <name>' line".into());
        }
        Ok(book)
    }

    /// The moves worth playing at a position given as `<board> <side>`: those within
    /// [`MARGIN_CP`] of the best (a proven win only with the best margin), best first.
    pub fn candidates(&self, position: &str) -> Option<&[BookMove]> {
        let moves = self.entries.get(position)?;
        let best = moves.first()?.score.rank();
        let margin = if best.abs() >= Score::Win(0).rank() {
            0
        } else {
            i64::from(MARGIN_CP)
        };
        let n = moves
            .iter()
            .take_while(|m| m.score.rank() >= best - margin)
            .count();
        Some(&moves[..n])
    }
}

/// The embedded books, read once (a broken embedded book is a build error the tests catch:
/// it is then left out rather than stopping the engine).
pub fn embedded() -> &'static [Book] {
    static BOOKS: OnceLock<Vec<Book>> = OnceLock::new();
    BOOKS.get_or_init(|| {
        EMBEDDED
            .iter()
            .filter_map(|text| Book::parse(text).ok())
            .collect()
    })
}

/// The embedded book of an Awale variant, if there is one.
pub fn for_variant(variant: &str) -> Option<&'static Book> {
    embedded().iter().find(|b| b.variant == variant)
}

/// A book move for `pos`, when the settings ask for the book (`OwnBook` on, level `max`), the
/// game is Awale and the book of its variant holds the position: the move and the `info` that
/// reports its book value.
pub fn probe<G: Game>(pos: &G, settings: &Settings) -> Option<(String, Info)> {
    if !settings.own_book || settings.level != Level::Max || G::NAME != Awale::NAME {
        return None;
    }
    let book = for_variant(G::variant_name(pos.variant()))?;
    let moves = book.candidates(&pos.format_position())?;
    let chosen = &moves[rng_for(settings.seed, pos).random_range(0..moves.len())];
    let info = Info {
        depth: chosen.depth,
        score: Some(chosen.score.into()),
        pv: vec![chosen.mv.clone()],
        ..Info::default()
    };
    Some((chosen.mv.clone(), info))
}
