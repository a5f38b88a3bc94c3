//! The `referee` binary: plays matches between engine processes and reports the result.

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches};
use pion_referee::cli::{self, Cli, Command};
use pion_referee::engine::signal;
use pion_referee::record::export_file;
use pion_referee::report::{self, Report};
use pion_referee::run::tournament;
use pion_rules::with_game;

/// Exits with clap's usage error (exit code 2) for a flag whose value is wrong.
fn usage_error(message: impl std::fmt::Display) -> ! {
    pion_protocol::cli::exit_with(
        "referee",
        Cli::command().error(ErrorKind::ValueValidation, message),
    )
}

fn print_report(report: &Report, json: bool) {
    if json {
        println!(
            "{}",
            serde_json::to_string(report).expect("a report serialises")
        );
    } else {
        print!("{}", report.text());
    }
}

/// Runs a subcommand that reads records: merge, summary, export.
fn records_command(command: &Command) -> ExitCode {
    let result = match command {
        Command::Merge {
            files,
            json,
            sprt,
            rating_zero,
        } => {
            let sprt = sprt
                .as_deref()
                .map(|w| cli::sprt_spec(w).unwrap_or_else(|e| usage_error(e)));
            report::merge(files, sprt.as_ref(), *rating_zero).map(|r| print_report(&r, *json))
        }
        Command::Summary {
            file,
            json,
            rating_zero,
        } => report::merge(std::slice::from_ref(file), None, *rating_zero)
            .map(|r| print_report(&r, *json)),
        Command::Export { file, format } => export_file::export(file, format),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("referee: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let matches = Cli::command()
        .try_get_matches()
        .unwrap_or_else(|e| pion_protocol::cli::exit_with("referee", e));
    let flags = Cli::from_arg_matches(&matches)
        .unwrap_or_else(|e| pion_protocol::cli::exit_with("referee", e));
    if let Some(command) = &flags.command {
        return records_command(command);
    }
    let (game, config) =
        cli::match_config(&flags, &cli::engine_words(&matches)).unwrap_or_else(|e| usage_error(e));
    signal::install();
    let result = with_game!(game, G => {
        let variant = cli::variant::<G>(flags.variant.as_deref()).unwrap_or_else(|e| usage_error(e));
        tournament::run::<G>(&config, variant)
    });
    match result {
        Ok(outcome) => {
            print_report(&outcome.report, flags.json);
            if outcome.sprt_stopped {
                eprintln!("referee: the SPRT reached a decision; match stopped");
            }
            if outcome.interrupted {
                eprintln!("referee: interrupted; finished games are kept");
                ExitCode::from(130)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("referee: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
