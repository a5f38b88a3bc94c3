//! Where each pair of games starts: the start position, random plies from the seed, or a file.
//!
//! Everything is a pure function of (match seed, pair index), so that any shard, a resumed run
//! and the whole match agree on the opening of every pair without talking to each other. The
//! generator is a hand-written SplitMix64 rather than a crate's, so that the openings of a match
//! file stay the same across dependency upgrades (resume and merge rely on it).

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::config::OpeningSource;
use pion_protocol::{Command, Start};
use pion_rules::game::{Game, History};

/// The `start` of an opening played from the game's standard start position.
pub const STARTPOS: &str = "startpos";

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast and fixed forever.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (n > 0). The modulo bias is below 2^-50 for any board game's n.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A seed derived from the match seed and a stream name and index (pair, game, ...).
pub fn derive_seed(seed: u64, stream: u64, index: u64) -> u64 {
    let mut rng = SplitMix64::new(seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
    rng.next_u64();
    let mut rng = SplitMix64::new(rng.next_u64() ^ index);
    rng.next_u64()
}

/// The position a pair starts from: a start position and moves played from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opening {
    /// `startpos` or a position string `<board> <side>`.
    pub start: String,
    /// Moves played from `start` before the engines take over.
    pub moves: Vec<String>,
}

impl Opening {
    /// The standard start position, no moves.
    pub fn startpos() -> Opening {
        Opening {
            start: STARTPOS.to_string(),
            moves: Vec::new(),
        }
    }

    /// Parses a line of an openings file: `startpos [moves ...]` or `<board> <side> [moves ...]`.
    pub fn parse(line: &str) -> Result<Opening> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (start, rest) = match words.as_slice() {
            ["startpos", rest @ ..] => (STARTPOS.to_string(), rest),
            [board, side, rest @ ..] if *board != "moves" => (format!("{board} {side}"), rest),
            _ => bail!("expected 'startpos [moves ...]' or '<board> <side> [moves ...]'"),
        };
        let moves = match rest {
            [] => Vec::new(),
            ["moves", moves @ ..] => moves.iter().map(|m| m.to_string()).collect(),
            _ => bail!("expected 'moves' after the position, found '{}'", rest[0]),
        };
        Ok(Opening { start, moves })
    }

    /// Replays the opening under the referee's rules; every move must be legal.
    pub fn history<G: Game>(&self, variant: G::Variant) -> Result<History<G>> {
        let root = if self.start == STARTPOS {
            G::start(variant)
        } else {
            let (board, side) = self
                .start
                .split_once(' ')
                .context("a position is '<board> <side>'")?;
            G::parse_position(board, side, variant)?
        };
        let mut history = History::new(root);
        for mv in &self.moves {
            history
                .play_text(mv)
                .with_context(|| format!("opening move {mv}"))?;
        }
        if history.outcome().is_some() {
            bail!("the game is already over after the opening");
        }
        Ok(history)
    }

    /// The `position` command for this opening followed by `later` moves; `fen` writes a
    /// position string after UGI's `fen` word.
    pub fn position_command(&self, later: &[String], fen: bool) -> Command {
        let start = match self.start.split_once(' ') {
            Some((board, side)) => Start::Notation {
                board: board.to_string(),
                side: side.to_string(),
                fen,
            },
            None => Start::StartPos,
        };
        let moves = self.moves.iter().chain(later).cloned().collect();
        Command::Position { start, moves }
    }
}

/// Random plies from the start position that do not end the game: each ply is drawn from all
/// legal moves, or, when some of them would end the game, from the others. Retried when every
/// move would end it before `plies`; after 100 tries the longest opening found is used.
fn random_opening<G: Game>(plies: u32, seed: u64, variant: G::Variant) -> Opening {
    let mut rng = SplitMix64::new(seed);
    let mut best = Opening::startpos();
    for _ in 0..100 {
        let mut history = History::new(G::start(variant));
        let mut moves = Vec::new();
        for _ in 0..plies {
            let mut legal = G::Moves::default();
            history.legal_moves(&mut legal);
            let legal = legal.as_ref();
            let ends = |mv: &G::Move| {
                let mut next = history.clone();
                next.play(*mv);
                next.outcome().is_some()
            };
            // Only when needed: while no move ends the game, the draws (and so the openings of
            // existing records, which a resume checks) stay the same.
            let mv = if legal.iter().any(ends) {
                let lasting: Vec<G::Move> = legal.iter().copied().filter(|mv| !ends(mv)).collect();
                if lasting.is_empty() {
                    break;
                }
                lasting[rng.below(lasting.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            moves.push(G::format_move(mv));
            history.play(mv);
        }
        if moves.len() as u32 == plies {
            return Opening {
                start: STARTPOS.to_string(),
                moves,
            };
        }
        if moves.len() > best.moves.len() {
            best = Opening {
                start: STARTPOS.to_string(),
                moves,
            };
        }
    }
    best
}

/// The openings of a match: a rule from (seed, pair index) to an [`Opening`].
pub struct Openings {
    source: OpeningSource,
    book: Vec<Opening>,
    shuffle: bool,
    seed: u64,
    /// The permutation of the book for one cycle through it, kept for the next pair.
    order: Mutex<Option<(u64, Vec<usize>)>>,
    /// Whether the user was told that some random openings came out short.
    noted_short: AtomicBool,
}

/// Stream numbers for [`derive_seed`], so that different uses of the seed never coincide.
const STREAM_OPENING: u64 = 1;
const STREAM_SHUFFLE: u64 = 2;
/// The stream of per-game engine seeds.
pub const STREAM_GAME: u64 = 3;

impl Openings {
    /// Prepares the openings, reading and checking a file against the rules of `G`.
    pub fn load<G: Game>(
        source: &OpeningSource,
        shuffle: bool,
        seed: u64,
        variant: G::Variant,
    ) -> Result<Openings> {
        let mut book = Vec::new();
        if let OpeningSource::File(path) = source {
            book = read_book::<G>(path, variant)?;
        }
        if let OpeningSource::RandomPlies(n) = source {
            // Too many plies for the game: the games would all start from the shorter openings
            // that were left (or the start position), unknown to the user.
            let first = random_opening::<G>(*n, derive_seed(seed, STREAM_OPENING, 0), variant);
            if first.moves.len() < *n as usize {
                bail!(
                    "--openings random-plies={n}: in 100 tries, no random game of {} lasted {n} plies without ending; use fewer plies",
                    G::NAME
                );
            }
        }
        Ok(Openings {
            source: source.clone(),
            book,
            shuffle,
            seed,
            order: Mutex::new(None),
            noted_short: AtomicBool::new(false),
        })
    }

    /// What the openings are, the same on every machine (a book by its contents and order,
    /// not its path): the records keep it, so that a merge refuses shards of other openings.
    pub fn describe(&self) -> String {
        match &self.source {
            OpeningSource::None => "none".to_string(),
            OpeningSource::RandomPlies(n) => format!("random-plies={n}"),
            OpeningSource::File(_) => {
                // FNV-1a over the openings as parsed, so comments and spacing do not count.
                let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
                for opening in &self.book {
                    let text = format!("{} moves {}\n", opening.start, opening.moves.join(" "));
                    for byte in text.bytes() {
                        hash = (hash ^ byte as u64).wrapping_mul(0x0000_0100_0000_01b3);
                    }
                }
                let order = if self.shuffle { "shuffled" } else { "in order" };
                format!("book of {} ({hash:016x}), {order}", self.book.len())
            }
        }
    }

    /// How many openings the book holds (`None` when they are not read from a file).
    pub fn book_len(&self) -> Option<usize> {
        matches!(self.source, OpeningSource::File(_)).then_some(self.book.len())
    }

    /// The opening of pair `pair`.
    pub fn for_pair<G: Game>(&self, pair: u64, variant: G::Variant) -> Opening {
        match &self.source {
            OpeningSource::None => Opening::startpos(),
            OpeningSource::RandomPlies(n) => {
                let opening =
                    random_opening::<G>(*n, derive_seed(self.seed, STREAM_OPENING, pair), variant);
                if opening.moves.len() < *n as usize
                    && !self.noted_short.swap(true, Ordering::Relaxed)
                {
                    eprintln!(
                        "referee: note: some random openings are shorter than {n} plies (pair {pair}: {}), since no random game from them lasted longer; each record has its opening",
                        opening.moves.len()
                    );
                }
                opening
            }
            OpeningSource::File(_) => {
                let len = self.book.len() as u64;
                let (cycle, index) = (pair / len, (pair % len) as usize);
                if !self.shuffle {
                    return self.book[index].clone();
                }
                let mut order = self.order.lock().unwrap_or_else(|e| e.into_inner());
                if order.as_ref().is_none_or(|(c, _)| *c != cycle) {
                    let mut rng = SplitMix64::new(derive_seed(self.seed, STREAM_SHUFFLE, cycle));
                    let mut perm: Vec<usize> = (0..self.book.len()).collect();
                    for i in (1..perm.len()).rev() {
                        perm.swap(i, rng.below(i + 1));
                    }
                    *order = Some((cycle, perm));
                }
                let (_, perm) = order.as_ref().expect("just set");
                self.book[perm[index]].clone()
            }
        }
    }
}

fn read_book<G: Game>(path: &Path, variant: G::Variant) -> Result<Vec<Opening>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read openings file {}", path.display()))?;
    let mut book = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = Opening::parse(line)
            .and_then(|o| o.history::<G>(variant).map(|_| o))
            .with_context(|| format!("{}:{}: bad opening", path.display(), number + 1))?;
        book.push(opening);
    }
    if book.is_empty() {
        bail!("openings file {} holds no position", path.display());
    }
    Ok(book)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pion_rules::avalam::Avalam;
    use pion_rules::awale::Awale;

    #[test]
    fn parses_both_line_forms() {
        let a = Opening::parse("startpos moves A b").unwrap();
        assert_eq!(a.start, STARTPOS);
        assert_eq!(a.moves, ["A", "b"]);
        let b = Opening::parse("4,4,4,4,4,4/4,4,4,4,4,4/0,0 1").unwrap();
        assert_eq!(b.start, "4,4,4,4,4,4/4,4,4,4,4,4/0,0 1");
        assert!(b.moves.is_empty());
        assert!(Opening::parse("startpos A").is_err());
        assert!(Opening::parse("moves A").is_err());
        assert_eq!(
            a.position_command(&["C".into()], false).to_string(),
            "position startpos moves A b C"
        );
    }

    #[test]
    fn openings_are_checked_against_the_rules() {
        let variant = Default::default();
        assert!(
            Opening::parse("startpos moves A a")
                .unwrap()
                .history::<Awale>(variant)
                .is_ok()
        );
        // Player one cannot sow player two's pit.
        assert!(
            Opening::parse("startpos moves a")
                .unwrap()
                .history::<Awale>(variant)
                .is_err()
        );
    }

    #[test]
    fn long_random_openings_avoid_ending_the_game() {
        // 34 plies: most purely random Avalam games end before that, so the moves that would
        // end the game must be avoided for the openings to reach their length.
        let openings = Openings::load::<Avalam>(
            &OpeningSource::RandomPlies(34),
            false,
            1,
            Default::default(),
        )
        .unwrap();
        for pair in 0..30 {
            let opening = openings.for_pair::<Avalam>(pair, Default::default());
            assert!(opening.moves.len() >= 30, "pair {pair}: {opening:?}");
            let history = opening.history::<Avalam>(Default::default()).unwrap();
            assert!(history.outcome().is_none(), "pair {pair}: {opening:?}");
        }
        // Short openings are drawn as before (no move could end the game): the same first pair
        // as the record example of docs/referee.md, seed 1.
        let two =
            Openings::load::<Avalam>(&OpeningSource::RandomPlies(2), false, 1, Default::default())
                .unwrap();
        assert_eq!(
            two.for_pair::<Avalam>(0, Default::default()).moves,
            ["g5g4", "f2g3"]
        );
    }

    #[test]
    fn random_openings_are_legal_reproducible_and_vary() {
        let openings =
            Openings::load::<Avalam>(&OpeningSource::RandomPlies(6), false, 7, Default::default())
                .unwrap();
        let first = openings.for_pair::<Avalam>(3, Default::default());
        assert_eq!(first.moves.len(), 6);
        assert!(first.history::<Avalam>(Default::default()).is_ok());
        assert_eq!(first, openings.for_pair::<Avalam>(3, Default::default()));
        let distinct: std::collections::HashSet<_> = (0..20)
            .map(|p| openings.for_pair::<Avalam>(p, Default::default()).moves)
            .collect();
        assert!(distinct.len() > 15);
    }

    #[test]
    fn shuffled_book_visits_every_line_once_per_cycle() {
        let dir = std::env::temp_dir().join(format!("pion-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.txt");
        std::fs::write(
            &path,
            "# book\nstartpos moves A\nstartpos moves B\n\nstartpos moves C\n",
        )
        .unwrap();
        let source = OpeningSource::File(path);
        let shuffled = Openings::load::<Awale>(&source, true, 5, Default::default()).unwrap();
        let mut seen: Vec<_> = (0..3)
            .map(|p| shuffled.for_pair::<Awale>(p, Default::default()).moves[0].clone())
            .collect();
        seen.sort();
        assert_eq!(seen, ["A", "B", "C"]);
        let in_order = Openings::load::<Awale>(&source, false, 5, Default::default()).unwrap();
        let taken: Vec<_> = (0..4)
            .map(|p| in_order.for_pair::<Awale>(p, Default::default()).moves[0].clone())
            .collect();
        assert_eq!(taken, ["A", "B", "C", "A"]);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
