//! The protocol's commands, declared once: name, grammar, summary, example, and the parser of
//! the rest of the line. The parser dispatches through this table and `help` prints it, so the
//! two cannot drift apart.

use nom::character::complete::{space0, space1};
use nom::combinator::{map, opt};
use nom::sequence::preceded;

use super::command::{Command, GO_USAGE, GameKind, QUERY_USAGE};
use super::parse::{
    ParseError, go_args, merge_go, newgame_args, next_token, number, position_args, query_args,
    setoption_args, whole,
};
use pion_rules::game::shorten;

/// One command of the protocol.
pub struct CommandSpec {
    /// The command's first word.
    pub name: &'static str,
    /// Its grammar, as error messages and `help` give it (the name alone when it takes no
    /// arguments).
    pub usage: &'static str,
    /// What it does, in one line.
    pub summary: &'static str,
    /// A line to send, as an example.
    pub example: &'static str,
    /// Parses the rest of the line after the name into the command.
    pub(crate) parse: fn(&str) -> Result<Command, ParseError>,
}

impl CommandSpec {
    /// Whether the command takes arguments.
    pub fn takes_arguments(&self) -> bool {
        self.usage != self.name
    }
}

/// The command named `name`, if the protocol has one.
pub fn command_spec(name: &str) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|spec| spec.name == name)
}

/// The error for a word that names no command.
pub(crate) fn unknown(context: &str, word: &str) -> ParseError {
    ParseError(format!(
        "{context}unknown command '{}' (send help for the list of commands)",
        shorten(word)
    ))
}

/// A command without arguments: the rest of the line must be empty.
fn bare(name: &str, args: &str, command: Command) -> Result<Command, ParseError> {
    whole(name, args, space0).map(|_| command)
}

fn newgame(args: &str) -> Result<Command, ParseError> {
    match whole("newgame", args, newgame_args) {
        Err(_) if !args.trim().is_empty() => Err(ParseError(format!(
            "newgame: unknown game '{}' (pion plays {})",
            shorten(args.trim()),
            GameKind::names().join(" and ")
        ))),
        other => other,
    }
}

fn help_args(args: &str) -> Result<Command, ParseError> {
    let topic = whole("help", args, opt(next_token))?;
    match topic {
        Some(word) if command_spec(word).is_none() => Err(unknown("help: ", word)),
        topic => Ok(Command::Help(topic.map(str::to_string))),
    }
}

/// Every command, in the order `help` lists them.
pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "pion",
        usage: "pion",
        summary: "identify the engine: its name, the games it plays, its options, then pionok",
        example: "pion",
        parse: |args| bare("pion", args, Command::Pion),
    },
    CommandSpec {
        name: "ugi",
        usage: "ugi",
        summary: "identify the engine to a UGI tool: as pion, without the game lines, then ugiok",
        example: "ugi",
        parse: |args| bare("ugi", args, Command::Ugi),
    },
    CommandSpec {
        name: "isready",
        usage: "isready",
        summary: "answer readyok once every earlier command has been carried out",
        example: "isready",
        parse: |args| bare("isready", args, Command::IsReady),
    },
    CommandSpec {
        name: "setoption",
        usage: "setoption name <Name> [value <value>]",
        summary: "set one of the options pion lists; silent when it succeeds",
        example: "setoption name Level value basic",
        parse: |args| whole("setoption", args, setoption_args),
    },
    CommandSpec {
        name: "newgame",
        usage: "newgame [avalam|awale]",
        summary: "start a new game from the start position (the current game by default)",
        example: "newgame awale",
        parse: newgame,
    },
    CommandSpec {
        name: "uginewgame",
        usage: "uginewgame",
        summary: "start a new game of the current game (UGI's newgame)",
        example: "uginewgame",
        parse: |args| bare("uginewgame", args, Command::UgiNewGame),
    },
    CommandSpec {
        name: "position",
        usage: "position (startpos | [fen] <board> <side>) [moves <move>...]",
        summary: "set the position: the start or a position string, then the moves played since",
        example: "position startpos moves a5b5 b5c5",
        parse: |args| whole("position", args, position_args),
    },
    CommandSpec {
        name: "legal",
        usage: "legal",
        summary: "list the legal moves of the current position on one line",
        example: "legal",
        parse: |args| bare("legal", args, Command::Legal),
    },
    CommandSpec {
        name: "play",
        usage: "play <move>",
        summary: "play one move for the side to move",
        example: "play e4e5",
        parse: |args| {
            whole(
                "play",
                args,
                map(next_token, |m| Command::Play(m.to_string())),
            )
        },
    },
    CommandSpec {
        name: "undo",
        usage: "undo",
        summary: "take back the last move",
        example: "undo",
        parse: |args| bare("undo", args, Command::Undo),
    },
    CommandSpec {
        name: "status",
        usage: "status",
        summary: "say whose turn it is and the score, or who won and why",
        example: "status",
        parse: |args| bare("status", args, Command::Status),
    },
    CommandSpec {
        name: "show",
        usage: "show",
        summary: "draw the board for a person, then its position string",
        example: "show",
        parse: |args| bare("show", args, Command::Show),
    },
    CommandSpec {
        name: "go",
        usage: GO_USAGE,
        summary: "search the current position: info lines while it thinks, then bestmove",
        example: "go movetime 1000",
        parse: |args| merge_go(whole("go", args, go_args)?).map(Command::Go),
    },
    CommandSpec {
        name: "stop",
        usage: "stop",
        summary: "end the running search now (it answers its bestmove), or a perft or bench",
        example: "stop",
        parse: |args| bare("stop", args, Command::Stop),
    },
    CommandSpec {
        name: "quit",
        usage: "quit",
        summary: "stop any search and exit (end of input does the same)",
        example: "quit",
        parse: |args| bare("quit", args, Command::Quit),
    },
    CommandSpec {
        name: "perft",
        usage: "perft <depth>",
        summary: "count the leaves of the game tree of the current position to a depth",
        example: "perft 3",
        parse: |args| {
            whole(
                "perft",
                args,
                map(preceded(space1, number::<u32>), Command::Perft),
            )
        },
    },
    CommandSpec {
        name: "bench",
        usage: "bench [depth]",
        summary: "search fixed positions: the node count (the search's signature) and the speed",
        example: "bench",
        parse: |args| {
            whole(
                "bench",
                args,
                map(opt(preceded(space1, number::<u32>)), Command::Bench),
            )
        },
    },
    CommandSpec {
        name: "query",
        usage: QUERY_USAGE,
        summary: "answer a UGI question with response <answer>",
        example: "query gameover",
        parse: |args| whole("query", args, query_args),
    },
    CommandSpec {
        name: "help",
        usage: "help [command]",
        summary: "list the commands, or give one command's grammar and an example",
        example: "help go",
        parse: help_args,
    },
];

/// The lines of the reply to `help` (`topic` None) or `help <topic>`, `helpok` last; `None` when
/// the topic names no command.
pub fn help_lines(topic: Option<&str>) -> Option<Vec<String>> {
    let mut lines = match topic {
        None => COMMANDS
            .iter()
            .map(|spec| format!("help {:<10} {}", spec.name, spec.summary))
            .collect(),
        Some(name) => {
            let spec = command_spec(name)?;
            vec![
                format!("help usage: {}", spec.usage),
                format!("help {}", spec.summary),
                format!("help example: {}", spec.example),
            ]
        }
    };
    lines.push("helpok".to_string());
    Some(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_command;

    #[test]
    fn every_example_parses_as_its_own_command() {
        for spec in COMMANDS {
            let command = parse_command(spec.example)
                .unwrap_or_else(|e| panic!("{}: {} ({e})", spec.name, spec.example));
            assert_eq!(
                command.to_string().split(' ').next(),
                Some(spec.name),
                "{}",
                spec.example
            );
            assert!(spec.usage.starts_with(spec.name), "{}", spec.usage);
        }
    }

    #[test]
    fn names_are_unique_and_fit_the_listing() {
        for (i, spec) in COMMANDS.iter().enumerate() {
            assert!(spec.name.len() <= 10, "{}", spec.name);
            assert!(
                COMMANDS[..i].iter().all(|other| other.name != spec.name),
                "{} twice",
                spec.name
            );
        }
    }

    #[test]
    fn commands_without_arguments_refuse_them() {
        for spec in COMMANDS.iter().filter(|spec| !spec.takes_arguments()) {
            let error = parse_command(&format!("{} extra", spec.name)).unwrap_err();
            assert_eq!(error.0, format!("{} takes no arguments", spec.name));
        }
    }

    #[test]
    fn help_lists_every_command_and_details_one() {
        let all = help_lines(None).unwrap();
        assert_eq!(all.len(), COMMANDS.len() + 1);
        assert_eq!(all.last().map(String::as_str), Some("helpok"));
        assert!(all[0].starts_with("help pion "), "{}", all[0]);
        let go = help_lines(Some("go")).unwrap();
        assert_eq!(go[2], "help example: go movetime 1000");
        assert!(help_lines(Some("chess")).is_none());
    }
}
