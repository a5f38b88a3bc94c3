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

/// A UGI `query`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// `query p1turn`: is it player one's turn?
    P1Turn,
    /// `query gameover`: is the game over?
    GameOver,
    /// `query result`: `p1win`, `p2win`, `draw` or `none`.
    Result,
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
    /// `query p1turn|gameover|result`.
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
                let numbers = [
                    ("depth", params.depth.map(u64::from)),
                    ("nodes", params.nodes),
                    ("movetime", params.movetime),
                    ("p1time", params.p1time),
                    ("p2time", params.p2time),
                    ("p1inc", params.p1inc),
                    ("p2inc", params.p2inc),
                    ("movestogo", params.movestogo.map(u64::from)),
                ];
                for (key, value) in numbers {
                    if let Some(value) = value {
                        write!(f, " {key} {value}")?;
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
            Command::Query(query) => write!(
                f,
                "query {}",
                match query {
                    Query::P1Turn => "p1turn",
                    Query::GameOver => "gameover",
                    Query::Result => "result",
                }
            ),
        }
    }
}
