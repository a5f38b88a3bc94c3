//! `pion book ...`: building and checking book files from the command line.

use std::path::PathBuf;

use super::Book;
use super::build::{Plan, build};
use pion_rules::awale::Awale;
use pion_rules::game::Game;

/// The `book` subcommand's actions.
#[derive(clap::Subcommand)]
pub enum BookAction {
    /// Builds an Awale opening book by deep searches of the first plies (docs/book.md), e.g.
    /// `pion book build --variant standard --out src/book/awale-standard.txt`.
    Build {
        /// The Awale variant: standard, grandslam-nocapture or grandslam-capture.
        #[arg(long, default_value = "standard")]
        variant: String,
        /// Depth of the search that values each leaf.
        #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=30))]
        depth: u32,
        /// Every position up to this ply gets all its moves valued.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=4))]
        full_plies: u32,
        /// The most leaf searches in all: past the full plies, the book grows by drop-out
        /// expansion until this many.
        #[arg(long, default_value_t = 600)]
        searches: usize,
        /// Transposition table of the searches, in MiB.
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=4096))]
        hash: u32,
        /// The file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Reads a book file and checks every line (positions valid, moves legal), e.g.
    /// `pion book check src/book/awale-standard.txt`.
    Check {
        /// The book file.
        file: PathBuf,
    },
}

/// Runs one action; the error is the one line to print.
pub fn run(action: BookAction) -> Result<(), String> {
    match action {
        BookAction::Build {
            variant,
            depth,
            full_plies,
            searches,
            hash,
            out,
        } => {
            let parsed = Awale::parse_variant(&variant).ok_or_else(|| {
                format!(
                    "unknown variant '{}' (Awale's variants: {})",
                    pion_rules::game::shorten(&variant),
                    Awale::variant_names().join(", ")
                )
            })?;
            let command = format!(
                "pion book build --variant {variant} --depth {depth} --full-plies {full_plies} \
                 --searches {searches} --hash {hash} --out {}",
                out.display()
            );
            let plan = Plan {
                variant: parsed,
                depth,
                full_plies,
                searches,
                hash_mib: hash as usize,
            };
            let start = std::time::Instant::now();
            let text = build(plan, &command, |n| {
                eprint!("\r{n} searches, {:.0} s", start.elapsed().as_secs_f64());
            });
            eprintln!();
            std::fs::write(&out, &text).map_err(|e| format!("{}: {e}", out.display()))?;
            let book = Book::parse(&text)?;
            println!(
                "book {variant}: {} positions in {} ({:.1} s)",
                book.entries.len(),
                out.display(),
                start.elapsed().as_secs_f64()
            );
        }
        BookAction::Check { file } => {
            let text =
                std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let book = Book::parse(&text).map_err(|e| format!("{}: {e}", file.display()))?;
            let moves: usize = book.entries.values().map(Vec::len).sum();
            println!(
                "book {}: {} positions, {} moves, all legal",
                book.variant,
                book.entries.len(),
                moves
            );
        }
    }
    Ok(())
}
