//! The `pion-web` binary: parses the command line and runs the server.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{ArgAction, CommandFactory, FromArgMatches, Parser};
use pion_referee::config::EngineSpec;
use pion_referee::engine::handshake::{Proto, ProtoChoice};
use pion_web::guard::{Guard, is_loopback};
use pion_web::server::{RULES, Settings, serve};

/// pion-web: play, analyse and watch Avalam and Awale in a browser, against any engine that
/// speaks the pion protocol (or, for Awale, the Oware UCI dialect of Aualé and Aalina).
///
/// Example:
///     pion-web --engine name=pion cmd=./target/release/pion \
///              --engine name=random cmd="python3 scripts/random_engine.py"
#[derive(Parser, Debug)]
#[command(name = "pion-web", version, verbatim_doc_comment)]
struct Cli {
    /// Address to serve on. A non-loopback address needs --public.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR")]
    listen: SocketAddr,

    /// Serve on a non-loopback --listen address: anyone who can reach it can start the
    /// configured engines on this machine.
    #[arg(long)]
    public: bool,

    /// Also accept pages of this origin (scheme://host[:port]), for a server behind a proxy.
    /// Repeat for several. Pages of any other site are refused.
    #[arg(long, value_name = "ORIGIN")]
    allow_origin: Vec<String>,

    /// The program that keeps the rules for every page (it must answer legal, status and
    /// show). Default: the pion next to pion-web.
    #[arg(long, value_name = "COMMAND")]
    rules: Option<String>,

    /// An engine a page may start: name=NAME cmd="PROGRAM ARGS" [dir=DIR] [proto=uci]
    /// [option.NAME=VALUE]... (the syntax of `referee --engine`; proto=uci for a UCI Oware
    /// engine such as Aalina, Awale only). Repeat for several. Default: the `pion` next to
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

/// The `pion` in pion-web's own directory, as a spec named `name`: the default engine and the
/// default rules process.
fn pion_beside(name: &str) -> EngineSpec {
    let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.to_path_buf()))
    else {
        usage_error("cannot tell where pion-web runs from: give --rules and --engine");
    };
    let path = dir.join("pion");
    if !path.exists() {
        usage_error(format!(
            "no pion binary next to pion-web ({}): build it (cargo build --release) or give --rules and --engine",
            path.display()
        ));
    }
    EngineSpec {
        name: name.to_string(),
        command: vec![path.to_string_lossy().into_owned()],
        dir: None,
        options: Vec::new(),
        tc: None,
        proto: ProtoChoice::Only(Proto::Pion),
    }
}

/// One `--engine`, refusing what pion-web would otherwise ignore: the page sets the time per
/// move and speaks pion's protocol itself, which the server translates only for `proto=uci`.
fn engine_spec(words: &[String]) -> EngineSpec {
    for word in words {
        match word.split_once('=') {
            Some(("tc", _)) => usage_error(
                "--engine tc= is for the referee: in pion-web the page sets the time per move",
            ),
            Some(("proto", value)) if value != "uci" => usage_error(format!(
                "--engine proto={value}: pion-web speaks pion's protocol to an engine, or the Oware UCI dialect with proto=uci (Awale only)",
                value = pion_rules::game::shorten(value)
            )),
            _ => {}
        }
    }
    let spec = EngineSpec::parse(words).unwrap_or_else(|e| usage_error(format!("{e:#}")));
    if spec.name == RULES {
        usage_error(format!(
            "the engine name '{RULES}' is the rules process's: give --rules COMMAND to change it"
        ));
    }
    spec
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
        let spec = engine_spec(words);
        engines.push(spec);
    }
    if let Err(e) = EngineSpec::check_names(&engines) {
        usage_error(format!("{e:#}"));
    }
    if engines.is_empty() {
        engines.push(pion_beside("pion"));
    }
    let rules = match &cli.rules {
        None => pion_beside(RULES),
        Some(command) => {
            let words = [format!("name={RULES}"), format!("cmd={command}")];
            EngineSpec::parse(&words).unwrap_or_else(|e| usage_error(format!("--rules: {e:#}")))
        }
    };
    if !is_loopback(cli.listen.ip()) && !cli.public {
        usage_error(format!(
            "--listen {} is not a loopback address: anyone who can reach it could start engines here; add --public if that is what you want",
            cli.listen
        ));
    }
    // Checked before anything starts; made again with the port bound.
    let guard = Guard::new(cli.listen, &cli.allow_origin).unwrap_or_else(|e| usage_error(e));
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
    let mut settings = Settings {
        engines,
        rules,
        guard,
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
        // The port chosen for `:0` is known only now.
        settings.guard = Guard::new(address, &cli.allow_origin).unwrap_or_else(|e| usage_error(e));
        if !is_loopback(address.ip()) {
            eprintln!(
                "pion-web: public: listening on {address}: anyone who can reach it can open the page, start the engines {} and play them on this machine's CPU{}",
                settings.engines.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(", "),
                if settings.records.is_some() { ", and read the --records file" } else { "" }
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
