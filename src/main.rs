//! The `pion` binary: the engine process, plus `perft`, `bench` and `play` subcommands.

mod play;

use std::io::{self, BufReader, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Subcommand};
use pion::engine::{MAX_BENCH_DEPTH, MAX_PERFT_DEPTH, Output, Session};
use pion_rules::awale::Awale;
use pion_rules::game::{Game, NotationError, PerftReport};
use pion_rules::{GameKind, with_game};

/// pion: an engine for Avalam and Awale.
///
/// With no subcommand, pion reads protocol commands on stdin, one per line, and answers on
/// stdout (protocol.md describes every command). Example:
///
///     printf 'newgame avalam\ngo depth 3\n' | pion
#[derive(clap::Parser)]
#[command(version, about, long_about, verbatim_doc_comment)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Counts the leaves of the game tree to a depth, e.g. `pion perft --game avalam --depth 4`.
    Perft {
        /// The game.
        #[arg(long, value_parser = pion_protocol::cli::game_parser(), default_value = "avalam")]
        game: GameKind,
        /// Depth in plies (at most 16).
        #[arg(long, value_parser = clap::value_parser!(u32).range(..=MAX_PERFT_DEPTH as i64))]
        depth: u32,
        /// A position, '<board> <side>' as in protocol.md (default: the start position).
        #[arg(long)]
        position: Option<String>,
    },
    /// Searches fixed positions of both games to a fixed depth and prints the node count
    /// (a signature of the search) and the speed.
    Bench {
        /// Depth in plies (default: the bench's own depth; at most 64).
        #[arg(value_parser = clap::value_parser!(u32).range(..=MAX_BENCH_DEPTH as i64))]
        depth: Option<u32>,
    },
    /// Plays a game against pion in the terminal, e.g. `pion play --game awale --level basic`.
    Play(play::Options),
    /// Awale endgame databases: `pion egtb build --max-seeds 16`, then `pion egtb verify`.
    Egtb {
        #[command(subcommand)]
        action: EgtbAction,
    },
    /// Awale's opening book: `pion book build --out FILE`, `pion book check FILE`.
    Book {
        #[command(subcommand)]
        action: pion::book::cli::BookAction,
    },
}

#[derive(Subcommand)]
enum EgtbAction {
    /// Builds the databases of every board with up to N seeds, one file a seed count. An
    /// interrupted build goes on where it stopped when run again (finished files are kept).
    Build {
        /// The most seeds on the board (memory: about 3 bytes a board of the largest layer,
        /// plus one a board of all the layers: 20 seeds take about 500 MB).
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=MAX_EGTB_SEEDS))]
        max_seeds: u32,
        /// Where the files go.
        #[arg(long, default_value = pion::egtb::DEFAULT_DIR)]
        dir: PathBuf,
        /// The Awale variant: standard, grandslam-nocapture or grandslam-capture.
        #[arg(long, default_value = "standard")]
        variant: String,
        /// Threads that share the work.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
    },
    /// Checks the databases in a directory: the layers up to 7 seeds in full against a
    /// per-threshold computation, and random boards of every layer against an exhaustive search.
    Verify {
        /// Where the files are.
        #[arg(long, default_value = pion::egtb::DEFAULT_DIR)]
        dir: PathBuf,
        /// The Awale variant.
        #[arg(long, default_value = "standard")]
        variant: String,
        /// Random boards checked per layer.
        #[arg(long, default_value_t = 200)]
        samples: u64,
        /// Positions the exhaustive search may visit for one board before giving it up.
        #[arg(long, default_value_t = 1_000_000)]
        budget: u64,
        /// Seed of the sample.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// The largest `--max-seeds`: a byte holds the value, and larger layers would not fit in memory.
const MAX_EGTB_SEEDS: i64 = 40;

fn perft_of<G: Game>(position: Option<&str>, depth: u32) -> Result<PerftReport, NotationError> {
    let position = match position {
        None => G::start(G::Variant::default()),
        Some(text) => {
            let parts: Vec<&str> = text.split_whitespace().collect();
            let [board, side] = parts[..] else {
                return Err(NotationError::new(format!(
                    "--position takes '<board> <side>', such as '{}'",
                    G::start(G::Variant::default()).format_position()
                )));
            };
            G::parse_position(board, side, G::Variant::default())?
        }
    };
    Ok(PerftReport::run(&position, depth))
}

/// The protocol's commands for `pion --help`, from the table the parser reads.
fn protocol_commands() -> String {
    let mut text = String::from(
        "Protocol commands (on stdin, with no subcommand; 'help <command>' there shows one):\n",
    );
    for spec in pion_protocol::COMMANDS {
        text.push_str(&format!("  {:<10}  {}\n", spec.name, spec.summary));
    }
    text
}

fn main() -> ExitCode {
    let cli = Cli::command()
        .after_help(protocol_commands())
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches))
        .unwrap_or_else(|e| pion_protocol::cli::exit_with("pion", e));
    match cli.command {
        None => {
            if io::stdin().is_terminal() {
                // A person started pion by hand: say what it is, on stderr, so that stdout
                // stays protocol replies only.
                eprintln!(
                    "pion {}, an engine for Avalam and Awale: type protocol commands, one a line \
                     (help lists them, quit leaves)",
                    env!("CARGO_PKG_VERSION")
                );
            }
            let mut session = Session::new(Output::stdout());
            session.run(BufReader::new(io::stdin()));
        }
        Some(Command::Perft {
            game,
            depth,
            position,
        }) => {
            let report = with_game!(game, G => perft_of::<G>(position.as_deref(), depth));
            match report {
                Ok(report) => println!("{report}"),
                Err(e) => {
                    eprintln!("pion perft: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        Some(Command::Bench { depth }) => println!("{}", pion::search::bench::bench(depth)),
        Some(Command::Play(options)) => {
            if let Err(e) = play::run(options) {
                // End the prompt's line, if stdout is still there to end it on.
                let _ = writeln!(io::stdout());
                eprintln!("pion play: {e:#}");
                return ExitCode::FAILURE;
            }
        }
        Some(Command::Egtb { action }) => {
            if let Err(e) = egtb(action) {
                eprintln!("pion egtb: {e}");
                return ExitCode::from(2);
            }
        }
        Some(Command::Book { action }) => {
            if let Err(e) = pion::book::cli::run(action) {
                eprintln!("pion book: {e}");
                return ExitCode::from(2);
            }
        }
    }
    ExitCode::SUCCESS
}

fn parse_variant(name: &str) -> Result<pion_rules::awale::Variant, String> {
    Awale::parse_variant(name).ok_or_else(|| {
        format!(
            "unknown variant '{}' (Awale's variants: {})",
            pion_rules::game::shorten(name),
            Awale::variant_names().join(", ")
        )
    })
}

fn egtb(action: EgtbAction) -> Result<(), String> {
    use pion::egtb::build;
    match action {
        EgtbAction::Build {
            max_seeds,
            dir,
            variant,
            threads,
        } => {
            let variant = parse_variant(&variant)?;
            let start = std::time::Instant::now();
            let tables = build::build(
                &dir,
                variant,
                max_seeds as usize,
                threads as usize,
                io::IsTerminal::is_terminal(&io::stderr()),
                |layer| match layer.seconds {
                    Some(seconds) => println!(
                        "layer {}: {} boards in {seconds:.2} s ({:.2} M boards/s), {} sweeps",
                        layer.seeds,
                        layer.boards,
                        layer.boards as f64 / seconds.max(1e-9) / 1e6,
                        layer.sweeps
                    ),
                    None => println!("layer {}: already built, kept", layer.seeds),
                },
            )
            .map_err(|e| e.to_string())?;
            let bytes: u64 = tables.layers().iter().map(|l| l.len() as u64 + 32).sum();
            println!(
                "egtb {} up to {} seeds in {}: {bytes} bytes, {:.1} s",
                Awale::variant_name(variant),
                tables.max_seeds(),
                dir.display(),
                start.elapsed().as_secs_f64()
            );
        }
        EgtbAction::Verify {
            dir,
            variant,
            samples,
            budget,
            seed,
        } => {
            let variant = parse_variant(&variant)?;
            let tables = pion::egtb::tables::Tables::load(&dir, variant, MAX_EGTB_SEEDS as usize)
                .map_err(|e| e.to_string())?;
            let report = build::verify(&tables, samples, budget, seed);
            println!(
                "verify {} up to {} seeds: layers 0..{} checked in full, {} sampled boards \
                 compared with the exhaustive search, {} sampled boards can cycle, {} wrong",
                Awale::variant_name(variant),
                tables.max_seeds(),
                report.full_layers.saturating_sub(1),
                report.compared,
                report.cycling,
                report.wrong
            );
            if report.wrong > 0 {
                return Err(format!("{} boards have a wrong value", report.wrong));
            }
        }
    }
    Ok(())
}
