//! The typed commands a front end sends, and their canonical text (the parser's inverse).

use std::fmt;

pub use pion_rules::GameKind;

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The standard start position of the current game.
    StartPos,
    /// A position string: the board token and the side token (`fen` is an optional UGI prefix).
    Notation {
        /// The board token.
        board: String,
        /// The side-to-move token.
        side: String,
        /// Whether it is written after UGI's `fen` word (UGI engines need it; pion takes both).
        fen: bool,
    },
}

/// The parameters of `go`, each given at most once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `depth N`.
    pub depth: Option<u32>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `movetime MS`.
    pub movetime: Option<u64>,
    /// `p1time MS`.
    pub p1time: Option<u64>,
    /// `p2time MS`.
    pub p2time: Option<u64>,
    /// `p1inc MS`.
    pub p1inc: Option<u64>,
    /// `p2inc MS`.
    pub p2inc: Option<u64>,
    /// `movestogo N`.
    pub movestogo: Option<u32>,
    /// `infinite`.
    pub infinite: bool,
}

/// The deepest search anyone may ask for, in plies (`go depth`, the `Depth` option, `bench`,
/// a referee's `depth=`), as protocol.md states it.
pub const MAX_DEPTH: u32 = 64;

/// What a `go` number is, for `help` and the parsers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GoUnit {
    /// A count (`N`).
    Count,
    /// Milliseconds (`MS`).
    Time,
    /// A clock in milliseconds: below zero counts as zero (some front ends send one once time
    /// ran out).
    Clock,
    /// A clock's increment in milliseconds.
    Increment,
}

/// One number `go` takes: its word in pion's protocol (its field's name), in the UCI dialect,
/// what it is, and its field in [`GoParams`].
pub(crate) struct GoKey {
    /// pion's word.
    pub name: &'static str,
    /// The UCI dialect's word.
    pub uci: &'static str,
    /// What the number is.
    pub unit: GoUnit,
    /// The field's value.
    pub get: fn(&GoParams) -> Option<u64>,
    /// Sets the field; `None` when the number is too large for it.
    pub set: fn(&mut GoParams, u64) -> Option<()>,
}

/// Declares the numbers of `go` once: the parsers, the printers and `help` read them from
/// [`GO_KEYS`] and [`GO_USAGE`]. `infinite` is the one flag.
macro_rules! go_keys {
    ($($field:ident $uci:literal $unit:ident $word:literal),+ $(,)?) => {
        /// The numbers of `go`, in the order pion prints them.
        pub(crate) const GO_KEYS: &[GoKey] = &[$(GoKey {
            name: stringify!($field),
            uci: $uci,
            unit: GoUnit::$unit,
            get: |p| p.$field.map(u64::from),
            set: |p, n| {
                p.$field = Some(n.try_into().ok()?);
                Some(())
            },
        }),+];
        /// The grammar of `go`, as `help` and errors give it.
        pub(crate) const GO_USAGE: &str =
            concat!("go", $(" [", stringify!($field), " ", $word, "]",)+ " [infinite]");
    };
}

go_keys! {
    depth "depth" Count "N",
    nodes "nodes" Count "N",
    movetime "movetime" Time "MS",
    p1time "wtime" Clock "MS",
    p2time "btime" Clock "MS",
    p1inc "winc" Increment "MS",
    p2inc "binc" Increment "MS",
    movestogo "movestogo" Count "N",
}

/// Declares [`Query`] and its words once: the parser, the printer and `help` read them here.
macro_rules! queries {
    ($first:ident $first_word:literal $first_doc:literal
        $(, $variant:ident $word:literal $doc:literal)* $(,)?) => {
        /// A UGI `query`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Query {
            #[doc = $first_doc]
            $first,
            $(#[doc = $doc] $variant,)*
        }

        impl Query {
            /// Every query, in the order `help` lists them.
            pub const ALL: &[Query] = &[Query::$first, $(Query::$variant),*];

            /// Its word after `query`.
            pub fn word(self) -> &'static str {
                match self {
                    Query::$first => $first_word,
                    $(Query::$variant => $word,)*
                }
            }
        }

        /// The grammar of `query`, as `help` and errors give it.
        pub(crate) const QUERY_USAGE: &str = concat!("query ", $first_word, $("|", $word,)*);
    };
}

queries! {
    P1Turn "p1turn" "`query p1turn`: is it player one's turn?",
    GameOver "gameover" "`query gameover`: is the game over?",
    Result "result" "`query result`: `p1win`, `p2win`, `draw` or `none`.",
    Variants "variants" "`query variants`: the variants of the current game (pion's extension).",
}

/// One line of input, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `pion`: identify, list games and options, end with `pionok`.
    Pion,
    /// `ugi`: the same for UGI tools, ending with `ugiok`.
    Ugi,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `setoption name <Name> [value <v>]`.
    SetOption {
        /// The option name (may contain spaces).
        name: String,
        /// The value, absent for buttons.
        value: Option<String>,
    },
    /// `newgame [avalam|awale]`.
    NewGame(Option<GameKind>),
    /// `uginewgame`: a new game of the current game.
    UgiNewGame,
    /// `position (startpos | [fen] <board> <side>) [moves m...]`.
    Position {
        /// The starting point.
        start: Start,
        /// Moves to play from it.
        moves: Vec<String>,
    },
    /// `legal`: list the legal moves.
    Legal,
    /// `play <move>`.
    Play(String),
    /// `undo`.
    Undo,
    /// `status`.
    Status,
    /// `show`.
    Show,
    /// `go ...`.
    Go(GoParams),
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
    /// `perft N`.
    Perft(u32),
    /// `bench [depth]`.
    Bench(Option<u32>),
    /// `query p1turn|gameover|result|variants`.
    Query(Query),
    /// `help [command]`: the list of commands, or one command's grammar and an example.
    Help(Option<String>),
    /// `uci`: identify in the Oware UCI dialect of Aualé and Aalina, ending with `uciok`; the
    /// session speaks that dialect from then on (see [`crate::uci`]).
    Uci,
    /// UCI's `ponderhit`: accepted and ignored, as Aalina does (Aualé never sends it).
    PonderHit,
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Pion => write!(f, "pion"),
            Command::Ugi => write!(f, "ugi"),
            Command::IsReady => write!(f, "isready"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                if let Some(value) = value {
                    write!(f, " value {value}")?;
                }
                Ok(())
            }
            Command::NewGame(None) => write!(f, "newgame"),
            Command::NewGame(Some(game)) => write!(f, "newgame {}", game.name()),
            Command::UgiNewGame => write!(f, "uginewgame"),
            Command::Position { start, moves } => {
                match start {
                    Start::StartPos => write!(f, "position startpos")?,
                    Start::Notation {
                        board,
                        side,
                        fen: false,
                    } => write!(f, "position {board} {side}")?,
                    Start::Notation {
                        board,
                        side,
                        fen: true,
                    } => write!(f, "position fen {board} {side}")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            Command::Legal => write!(f, "legal"),
            Command::Play(mv) => write!(f, "play {mv}"),
            Command::Undo => write!(f, "undo"),
            Command::Status => write!(f, "status"),
            Command::Show => write!(f, "show"),
            Command::Go(params) => {
                write!(f, "go")?;
                for key in GO_KEYS {
                    if let Some(value) = (key.get)(params) {
                        write!(f, " {} {value}", key.name)?;
                    }
                }
                if params.infinite {
                    write!(f, " infinite")?;
                }
                Ok(())
            }
            Command::Stop => write!(f, "stop"),
            Command::Quit => write!(f, "quit"),
            Command::Perft(depth) => write!(f, "perft {depth}"),
            Command::Bench(None) => write!(f, "bench"),
            Command::Bench(Some(depth)) => write!(f, "bench {depth}"),
            Command::Uci => write!(f, "uci"),
            Command::PonderHit => write!(f, "ponderhit"),
            Command::Help(None) => write!(f, "help"),
            Command::Help(Some(topic)) => write!(f, "help {topic}"),
            Command::Query(query) => write!(f, "query {}", query.word()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dialect, parse_command, parse_in, uci_command_text};

    #[test]
    fn every_go_number_prints_and_reads_back_in_both_dialects() {
        let mut params = GoParams {
            infinite: true,
            ..GoParams::default()
        };
        for (n, key) in (1..).zip(GO_KEYS) {
            (key.set)(&mut params, n).unwrap();
        }
        // Every field of GoParams is in the table.
        assert_eq!(
            format!("{params:?}").matches("None").count(),
            0,
            "{params:?}"
        );
        let go = Command::Go(params);
        assert_eq!(parse_command(&go.to_string()), Ok(go.clone()));
        let uci = uci_command_text(&go);
        assert_eq!(parse_in(Dialect::Uci, &uci), Ok(Some(go)));
        assert!(
            uci.starts_with("go wtime 4 btime 5 winc 6 binc 7 "),
            "{uci}"
        );
        assert_eq!(
            GO_USAGE,
            "go [depth N] [nodes N] [movetime MS] [p1time MS] [p2time MS] [p1inc MS] [p2inc MS] \
             [movestogo N] [infinite]"
        );
    }

    #[test]
    fn every_query_prints_and_reads_back() {
        for &query in Query::ALL {
            let command = Command::Query(query);
            assert_eq!(parse_command(&command.to_string()), Ok(command));
            assert!(QUERY_USAGE.contains(query.word()));
        }
        assert_eq!(QUERY_USAGE, "query p1turn|gameover|result|variants");
        assert!(parse_command("query p2turn").is_err());
    }
}
