//! The protocol: typed commands and replies, the nom parser, and bounded line input.
//!
//! Text becomes a [`Command`] here and [`Reply`] values become text here; nothing else in pion
//! parses or prints protocol lines.

pub mod cli;
mod command;
mod commands;
pub mod engine_info;
mod heard;
mod info;
mod input;
pub mod ogn;
pub mod oware;
mod parse;
mod reply;
pub mod uci;

pub use command::{Command, GameKind, GoParams, MAX_DEPTH, Query, Start};
pub use commands::{COMMANDS, CommandSpec, command_spec, help_lines};
pub use heard::{Heard, parse_heard};
pub use info::{Bound, EngineScore, Info, Proven, Score, nps};
pub use input::{Line, LineReader, MAX_LINE};
pub use parse::{ParseError, parse_command};
pub use reply::{OptionKind, OptionSpec, Reply, Status};
pub use uci::{Dialect, UciPrinter, parse_in, uci_command_text};
