//! Command-line errors in one line, for both binaries.
//!
//! clap prints a usage error over several lines (the error, a tip, a usage block, a pointer to
//! `--help`); the project's rule is one clear line for bad input, so the error's own lines are
//! joined and the rest is replaced by a pointer to `--help`. Help and version requests print
//! as clap has them.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::error::ErrorKind;
use pion_rules::GameKind;

/// The value parser of a `--game` flag: the registry's game names, listed in `--help`.
pub fn game_parser() -> impl TypedValueParser<Value = GameKind> {
    PossibleValuesParser::new(GameKind::ALL.map(GameKind::name))
        .try_map(|name| name.parse::<GameKind>())
}

/// Prints `error` for `program` in one line on stderr and exits with status 2, or prints the
/// help or version it stands for and exits with status 0.
pub fn exit_with(program: &str, error: clap::Error) -> ! {
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        error.exit();
    }
    eprintln!("{}", one_line(program, &error.render().to_string()));
    std::process::exit(2);
}

/// The lines of a rendered clap error before its usage block as one line, its tips (such as a
/// flag of a similar name) after a semicolon.
fn one_line(program: &str, rendered: &str) -> String {
    let lines = rendered
        .lines()
        .map(str::trim)
        .take_while(|line| !line.starts_with("Usage:") && !line.starts_with("For more"))
        .filter(|line| !line.is_empty());
    let (tips, words): (Vec<&str>, Vec<&str>) = lines.partition(|line| line.starts_with("tip:"));
    let mut message = words.join(" ");
    for tip in tips {
        message.push_str("; ");
        message.push_str(tip.trim_start_matches("tip:").trim());
    }
    let message = message.strip_prefix("error: ").unwrap_or(&message);
    format!("{program}: error: {message} (see {program} --help)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clap_error_becomes_one_line() {
        let rendered = "error: the following required arguments were not provided:\n  --game <GAME>\n  --engine <KEY=VALUE>...\n\nUsage: referee --game <GAME> --engine <KEY=VALUE>...\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line("referee", rendered),
            "referee: error: the following required arguments were not provided: --game <GAME> --engine <KEY=VALUE>... (see referee --help)"
        );
        let rendered = "error: unexpected argument '-1' found\n\n  tip: to pass '-1' as a value, use '-- -1'\n\nUsage: pion bench [DEPTH]\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line("pion", rendered),
            "pion: error: unexpected argument '-1' found; to pass '-1' as a value, use '-- -1' (see pion --help)"
        );
    }
}
