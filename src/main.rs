//! The `pion` binary: the engine process, plus `perft` and `bench` subcommands.

use anyhow::Result;
use clap::{Parser, Subcommand, ValueEnum};
use pion::avalam::Avalam;
use pion::awale::Awale;
use pion::game::{Game, PerftReport};

/// pion: an engine for Avalam and Awale.
///
/// With no subcommand, pion reads protocol commands on stdin and answers on stdout
/// (see protocol.md). Example: printf 'newgame avalam\ngo depth 3\n' | pion
#[derive(Parser)]
#[command(version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Counts the leaves of the game tree to a depth, e.g. `pion perft --game avalam --depth 4`.
    Perft {
        /// The game.
        #[arg(long, value_enum, default_value_t = GameName::Avalam)]
        game: GameName,
        /// Depth in plies.
        #[arg(long)]
        depth: u32,
        /// A position, `<board> <side>` as in protocol.md (default: the start position).
        #[arg(long)]
        position: Option<String>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum GameName {
    Avalam,
    Awale,
}

fn perft_of<G: Game>(position: Option<&str>, depth: u32) -> Result<PerftReport> {
    let position = match position {
        None => G::start(G::Variant::default()),
        Some(text) => {
            let mut parts = text.split_whitespace();
            let (Some(board), Some(side), None) = (parts.next(), parts.next(), parts.next()) else {
                anyhow::bail!(
                    "--position takes '<board> <side>', such as the start position: {}",
                    G::start(G::Variant::default()).format_position()
                );
            };
            G::parse_position(board, side, G::Variant::default())?
        }
    };
    Ok(PerftReport::run(&position, depth))
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft {
            game,
            depth,
            position,
        }) => {
            let report = match game {
                GameName::Avalam => perft_of::<Avalam>(position.as_deref(), depth)?,
                GameName::Awale => perft_of::<Awale>(position.as_deref(), depth)?,
            };
            println!("{report}");
        }
        None => {
            eprintln!("the protocol loop is not built yet");
        }
    }
    Ok(())
}
