//! The `referee` command line: its flags and subcommands (clap), and in [`checks`] the checks
//! on their values and combinations that turn them into a [`crate::config::MatchConfig`].

mod checks;

pub use checks::{UsageError, engine_words, match_config, sprt_spec, variant};

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use pion_rules::GameKind;

use crate::config::{OpeningSource, Shard, TimeControl};
use crate::report::ratings::Zero;
use crate::run::schedule::Format;

/// referee: plays matches and tournaments between engines that speak the pion protocol or UGI.
///
/// Games are played in pairs on the same opening with colours swapped; every move is checked
/// against the referee's own rules and clocks, and an engine that breaks the rules, the protocol
/// or its time loses the game. Each finished game is appended to --out as one JSON line.
///
/// Example (a match):
///   referee --game avalam \
///     --engine name=new cmd=./target/release/pion option.Level=max \
///     --engine name=old cmd="python3 scripts/random_engine.py" \
///     --games 200 --concurrency 2 --tc movetime=100 \
///     --openings random-plies=4 --seed 1 --out games.jsonl
///
/// A tournament: any number of --engine, with --tournament round-robin (or gauntlet) --rounds N.
/// Spread a run over machines with --shard K/N, then: referee merge shard*.jsonl
/// Read records with: referee summary games.jsonl, referee export games.jsonl --format pgn
#[derive(Parser, Debug)]
#[command(
    name = "referee",
    version,
    about = "referee: plays matches and tournaments between engines that speak the pion protocol or UGI",
    long_about,
    verbatim_doc_comment,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// The game: avalam or awale. Example: --game awale
    #[arg(long, value_parser = pion_protocol::cli::game_parser(), required = true)]
    pub game: Option<GameKind>,

    /// An engine (two for a match, any number for a tournament): name=NAME cmd="PROGRAM ARGS"
    /// [dir=DIR] [option.NAME=VALUE]... [tc=TC] [proto=pion|ugi|auto]. cmd is split like a
    /// shell does (quotes work) but run without a shell; options are sent with setoption after
    /// the handshake; tc overrides --tc for this engine; proto=auto (the default) asks `pion`
    /// and falls back to `ugi`. Example: --engine name=new cmd=./target/release/pion option.Level=max
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", required = true, action = clap::ArgAction::Append)]
    pub engine: Vec<String>,

    /// Words added to every --engine (before its own, which win): options, tc, proto.
    /// Example: --each tc=movetime=50 option.Hash=32
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    pub each: Vec<String>,

    /// Play a tournament: round-robin (every engine against every other) or gauntlet (the first
    /// engine against each of the others). Default with more than two engines: round-robin.
    /// Example: --tournament gauntlet
    #[arg(long, value_name = "FORMAT", value_parser = parse_format)]
    pub tournament: Option<Format>,

    /// In a tournament, colour-swapped pairs of games each pairing plays; round r of every
    /// pairing starts from the same opening. Example: --rounds 10
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub rounds: Option<u64>,

    /// Games in a match (all shards together); pair p is games 2p and 2p+1 (default 100).
    /// Example: --games 200
    #[arg(long)]
    pub games: Option<u64>,

    /// Games played at once; engine processes are reused from game to game. Example: --concurrency 2
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub concurrency: u32,

    /// Time control: movetime=MS, depth=N, nodes=N, or a clock tc=SECONDS+INC with an optional
    /// moves-per-period prefix MOVES/ (the base time is added again every MOVES moves, and
    /// `movestogo` is sent). Examples: --tc movetime=100, --tc tc=10+0.1, --tc tc=40/60+0.5
    #[arg(long, default_value = "movetime=100", value_parser = parse_tc)]
    pub tc: TimeControl,

    /// Milliseconds an engine may exceed its movetime or clock before it loses on time.
    /// Example: --timemargin 50
    #[arg(long, value_name = "MS", default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=86_400_000))]
    pub timemargin: u64,

    /// Milliseconds a `go` with no time limit (depth=, nodes=) may last before the engine is
    /// taken as stuck and loses on time. Example: --hang-timeout 30000
    #[arg(long, value_name = "MS", default_value_t = 60_000, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    pub hang_timeout: u64,

    /// Milliseconds for an engine to start and end its handshake with `pionok` or `ugiok`
    /// (slow loaders need more). Example: --startup-timeout 30000
    #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    pub startup_timeout: u64,

    /// Milliseconds for `readyok` after `isready` (sent after options and before each game).
    /// Example: --isready-timeout 10000
    #[arg(long, value_name = "MS", default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    pub isready_timeout: u64,

    /// Milliseconds an engine gets to exit after `quit` before its process group is killed.
    /// Example: --quit-timeout 500
    #[arg(long, value_name = "MS", default_value_t = 1_000, value_parser = clap::value_parser!(u64).range(0..=86_400_000))]
    pub quit_timeout: u64,

    /// Openings: none, random-plies=N (N random legal plies from the seed, none of them ending the game; fewer for a pair where no random game lasts N plies), or file=PATH (one
    /// per line: `startpos [moves ...]` or `<board> <side> [moves ...]`; # starts a comment).
    /// Example: --openings random-plies=4
    #[arg(long, default_value = "none", value_parser = parse_openings)]
    pub openings: OpeningSource,

    /// Order of file openings: in-order (pair p takes line p, cycling) or shuffle (from the
    /// seed, each line once per cycle). Example: --openings-order shuffle
    #[arg(long, value_enum, default_value_t = OpeningsOrder::InOrder)]
    pub openings_order: OpeningsOrder,

    /// The match seed: random openings and the per-game `Seed` option derive from it (engines
    /// that list a Seed option get one per game unless option.Seed= fixes it). Example: --seed 7
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// The rule variant, sent to both engines as the Variant option. Examples: --variant
    /// own-colour (avalam), --variant grandslam-capture (awale)
    #[arg(long)]
    pub variant: Option<String>,

    /// Adjudicate a game after N plies of the engines (the opening not counted); see
    /// --maxplies-rule. Example: --maxplies 200
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub maxplies: Option<u32>,

    /// How a game cut off by --maxplies is scored: score (by the game's own count of points at
    /// that moment, as Awale does on a repetition) or draw. Example: --maxplies-rule draw
    #[arg(long, value_enum, default_value_t = MaxPliesArg::Score)]
    pub maxplies_rule: MaxPliesArg,

    /// Adjudicate a draw once at least N full moves were played and both engines' scores stayed
    /// within S of zero for M moves each (as cutechess-cli). Example: --draw movenumber=10 movecount=4 score=20
    #[arg(long, num_args = 1..=3, value_name = "KEY=VALUE")]
    pub draw: Option<Vec<String>>,

    /// Adjudicate a loss once an engine's score was -S or lower for M of its moves in a row;
    /// with twosided=true only when its opponent's was S or more as long.
    /// Example: --resign movecount=3 score=500
    #[arg(long, num_args = 1..=3, value_name = "KEY=VALUE")]
    pub resign: Option<Vec<String>>,

    /// End a game at once when two consecutive moves carry the same proven result (`score win`,
    /// `draw`, `loss` of the protocol), with that result.
    #[arg(long)]
    pub adjudicate_proven: bool,

    /// In a tournament's ratings, which engine is rated 0: first or average.
    /// Example: --rating-zero first
    #[arg(long, value_name = "ZERO", default_value = "average", value_parser = parse_zero)]
    pub rating_zero: Zero,

    /// A sequential test on the pentanomial model, printed after each pair; the match stops when
    /// it accepts H0 or H1. Example: --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,

    /// Play only the K-th of N disjoint slices of the pairs (pairs p with p mod N = K-1), with
    /// the openings and seeds of the whole match; combine with `referee merge`. Example: --shard 2/8
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,

    /// The JSON lines file each finished game is appended to. Example: --out games.jsonl
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Continue the match recorded in --out: games already there are not played again.
    /// Example: --out games.jsonl --resume
    #[arg(long)]
    pub resume: bool,

    /// Print the summary as one JSON object on stdout (and nothing else there).
    #[arg(long)]
    pub json: bool,

    /// Directory for the engine logs (stderr and protocol traffic), one file per engine and
    /// worker. Example: --log-dir /tmp/logs
    #[arg(long, value_name = "DIR", default_value = "logs")]
    pub log_dir: PathBuf,

    /// Log every `info` line the engines send. By default only the last one before each other
    /// line is logged (the final report of each search), which keeps the logs of a long match
    /// small. Example: --log-all-info
    #[arg(long)]
    pub log_all_info: bool,
}

/// The subcommands, which read records files instead of playing.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Combines the JSON lines of shards into the report of the whole match or tournament.
    /// Example: referee merge shard1.jsonl shard2.jsonl --json
    Merge {
        /// Records files, as written by --out.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print the summary as one JSON object.
        #[arg(long)]
        json: bool,
        /// Also run a sequential test on the combined results. Example: --sprt elo0=0 elo1=10
        #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
        sprt: Option<Vec<String>>,
        /// In a tournament's ratings, which engine is rated 0: first or average.
        #[arg(long, value_name = "ZERO", default_value = "average", value_parser = parse_zero)]
        rating_zero: Zero,
    },
    /// Prints the report of one records file (a match's summary or a tournament's standings).
    /// Example: referee summary games.jsonl
    Summary {
        /// A records file, as written by --out.
        file: PathBuf,
        /// Print the summary as one JSON object.
        #[arg(long)]
        json: bool,
        /// In a tournament's ratings, which engine is rated 0: first or average.
        #[arg(long, value_name = "ZERO", default_value = "average", value_parser = parse_zero)]
        rating_zero: Zero,
    },
    /// Writes the games of a records file as PGN (pion's notation, engine data as comments),
    /// OGN (Aualé's game files, Awale only) or a plain text list, on stdout. Example: referee
    /// export games.jsonl --format pgn
    Export {
        /// A records file, as written by --out.
        file: PathBuf,
        /// pgn, ogn or text.
        #[arg(long, value_name = "FORMAT", default_value = "pgn", value_parser = ["pgn", "ogn", "text"])]
        format: String,
    },
}

/// The order file openings are played in (`--openings-order`).
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum OpeningsOrder {
    // Pair p takes line p, cycling (plain comments: clap would print doc comments in --help).
    InOrder,
    // Shuffled from the seed, each line once per cycle.
    Shuffle,
}

/// How a game cut off by `--maxplies` is scored (`--maxplies-rule`).
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum MaxPliesArg {
    // By the game's own count of points at that moment.
    Score,
    // A draw.
    Draw,
}

fn parse_tc(text: &str) -> Result<TimeControl, String> {
    TimeControl::parse(text).map_err(|e| format!("{e:#}"))
}

fn parse_openings(text: &str) -> Result<OpeningSource, String> {
    OpeningSource::parse(text).map_err(|e| format!("{e:#}"))
}

fn parse_format(text: &str) -> Result<Format, String> {
    Format::parse(text)
}

fn parse_zero(text: &str) -> Result<Zero, String> {
    Zero::parse(text)
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    Shard::parse(text).map_err(|e| format!("{e:#}"))
}
