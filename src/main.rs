//! The `pion` binary: the engine process, plus `perft`, `bench` and `play` subcommands.

mod play;

use std::io::{self, BufReader, IsTerminal, Write};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Subcommand};
use pion::engine::{MAX_BENCH_DEPTH, MAX_PERFT_DEPTH, Output, Session};
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
    /// Awale endgame databases: `pion egtb build`, `pion egtb status`, `pion egtb verify`.
    Egtb {
        #[command(subcommand)]
        action: pion::egtb::cli::EgtbAction,
    },
    /// Awale's opening book: `pion book build --out FILE`, `pion book check FILE`.
    Book {
        #[command(subcommand)]
        action: pion::book::cli::BookAction,
    },
}

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
            if let Err(e) = pion::egtb::cli::run(action) {
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
