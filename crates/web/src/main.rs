//! The `pion-web` binary: parses the command line and runs the server.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{ArgAction, CommandFactory, FromArgMatches, Parser};
use pion_referee::config::EngineSpec;
use pion_web::server::{Settings, serve};

/// pion-web: play, analyse and watch Avalam and Awale in a browser, against any engine that
/// speaks the pion protocol.
///
/// Example:
///     pion-web --engine name=pion cmd=./target/release/pion \
///              --engine name=random cmd="python3 scripts/random_engine.py"
#[derive(Parser, Debug)]
#[command(name = "pion-web", version, verbatim_doc_comment)]
struct Cli {
    /// Address to serve on. A non-loopback address lets other machines start engines here.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR")]
    listen: SocketAddr,

    /// An engine a page may start: name=NAME cmd="PROGRAM ARGS" [dir=DIR] [option.NAME=VALUE]...
    /// (the syntax of `referee --engine`). Repeat for several. Default: the `pion` next to
    /// pion-web, named pion.
    #[arg(long, num_args = 1.., action = ArgAction::Append, value_name = "KEY=VALUE")]
    engine: Vec<String>,

    /// A referee --out file to show in the match viewer.
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,

    /// Browser pages served at once (each has its own engine processes).
    #[arg(long, default_value_t = 4, value_name = "N")]
    max_sessions: usize,

    /// Seconds a page may send nothing before its engines are stopped.
    #[arg(long, default_value_t = 1800, value_name = "SECONDS")]
    idle_timeout: u64,

    /// Messages a second a page may send on average (bursts of twice that).
    #[arg(long, default_value_t = 200, value_name = "N")]
    max_messages: u32,

    /// The longest line relayed, in bytes, from the page to an engine and back.
    #[arg(long, default_value_t = 65536, value_name = "BYTES")]
    max_line: usize,
}

fn usage_error(message: impl std::fmt::Display) -> ! {
    eprintln!("pion-web: error: {message} (see pion-web --help)");
    std::process::exit(2);
}

/// The engine used when none is given: `pion` in pion-web's own directory. Under `cargo run`
/// (which builds only pion-web's package) a missing pion is built first, so that one command
/// works from a fresh clone.
fn default_engine() -> EngineSpec {
    let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.to_path_buf()))
    else {
        usage_error("cannot tell where pion-web runs from: give --engine name=pion cmd=PATH");
    };
    let path = dir.join("pion");
    if !path.exists()
        && let (Ok(cargo), Ok(_)) = (std::env::var("CARGO"), std::env::var("CARGO_MANIFEST_DIR"))
    {
        let release = dir.ends_with("release");
        eprintln!(
            "pion-web: building pion first (cargo build{} -p pion --bin pion)",
            if release { " --release" } else { "" }
        );
        let mut build = std::process::Command::new(cargo);
        build.args(["build", "-p", "pion", "--bin", "pion"]);
        if release {
            build.arg("--release");
        }
        if !build.status().is_ok_and(|status| status.success()) {
            usage_error(
                "building pion failed: build it (cargo build --release) or give --engine name=pion cmd=PATH",
            );
        }
    }
    if !path.exists() {
        usage_error(
            "no pion binary next to pion-web: build it (cargo build --release) or give --engine name=pion cmd=PATH",
        );
    }
    EngineSpec {
        name: "pion".to_string(),
        command: vec![path.to_string_lossy().into_owned()],
        dir: None,
        options: Vec::new(),
        tc: None,
        proto: pion_referee::handshake::ProtoChoice::Only(pion_referee::handshake::Proto::Pion),
    }
}

fn main() -> ExitCode {
    let matches = Cli::command()
        .try_get_matches()
        .unwrap_or_else(|e| pion_protocol::cli::exit_with("pion-web", e));
    let cli = Cli::from_arg_matches(&matches)
        .unwrap_or_else(|e| pion_protocol::cli::exit_with("pion-web", e));
    // Each --engine is one occurrence with its own words, as for the referee.
    let engine_words: Vec<Vec<String>> = matches
        .get_occurrences::<String>("engine")
        .map(|occurrences| occurrences.map(|o| o.cloned().collect()).collect())
        .unwrap_or_default();
    let mut engines = Vec::new();
    for words in &engine_words {
        let spec = EngineSpec::parse(words).unwrap_or_else(|e| usage_error(format!("{e:#}")));
        engines.push(spec);
    }
    if let Err(e) = EngineSpec::check_names(&engines) {
        usage_error(format!("{e:#}"));
    }
    if engines.is_empty() {
        engines.push(default_engine());
    }
    if cli.max_sessions == 0 || cli.max_messages == 0 || cli.max_line < 256 || cli.idle_timeout == 0
    {
        usage_error(
            "--max-sessions, --max-messages and --idle-timeout must be at least 1, --max-line at least 256",
        );
    }
    if let Some(path) = &cli.records
        && !path.is_file()
    {
        usage_error(format!("--records {}: no such file", path.display()));
    }
    let settings = Settings {
        engines,
        records: cli.records,
        max_sessions: cli.max_sessions,
        max_line: cli.max_line,
        max_messages: cli.max_messages,
        idle_timeout: Duration::from_secs(cli.idle_timeout),
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("pion-web: error: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async {
        let listener = match tokio::net::TcpListener::bind(cli.listen).await {
            Ok(listener) => listener,
            Err(e) => {
                eprintln!("pion-web: error: cannot listen on {}: {e}", cli.listen);
                return ExitCode::FAILURE;
            }
        };
        let address = listener.local_addr().unwrap_or(cli.listen);
        if !address.ip().is_loopback() {
            eprintln!(
                "pion-web: warning: listening on {address}, not a loopback address: anyone who can reach it can start engines on this machine"
            );
        }
        let names: Vec<&str> = settings.engines.iter().map(|e| e.name.as_str()).collect();
        println!("pion-web: serving http://{address}/ (engines: {})", names.join(", "));
        match serve(listener, settings).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("pion-web: error: {e:#}");
                ExitCode::FAILURE
            }
        }
    })
}
