//! The match settings as typed values, parsed from the `key=value` words of the command line.
//!
//! The parsing lives here, apart from clap, so that every bad word gets one error line that says
//! what was expected, and so that the library can be driven without the binary.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use pion_protocol::MAX_DEPTH;

use serde_json::{Value, json};

use crate::engine::handshake::ProtoChoice;
use crate::report::ratings::Zero;
use crate::run::adjudicate::Adjudication;
use crate::run::schedule::Format;

/// How long an engine may think over one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A fixed time per move, in milliseconds (`movetime=100`).
    MoveTime(u64),
    /// A fixed search depth (`depth=3`): no clock, only the hang deadline.
    Depth(u32),
    /// A fixed node budget (`nodes=10000`): no clock, only the hang deadline.
    Nodes(u64),
    /// A clock: `base_ms` to start with, `inc_ms` added after each move, and when `moves_to_go`
    /// is set, `base_ms` added again every `moves_to_go` moves (`40/60+0.5`, cutechess style).
    Clock {
        /// Starting time in milliseconds.
        base_ms: u64,
        /// Increment per move in milliseconds.
        inc_ms: u64,
        /// Moves per time period, if the clock is replenished periodically.
        moves_to_go: Option<u32>,
    },
}

impl std::fmt::Display for TimeControl {
    /// Writes the time control as `--tc` takes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let seconds = |ms: u64| ms as f64 / 1000.0;
        match *self {
            TimeControl::MoveTime(ms) => write!(f, "movetime={ms}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Clock {
                base_ms,
                inc_ms,
                moves_to_go,
            } => {
                write!(f, "tc=")?;
                if let Some(m) = moves_to_go {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}+{}", seconds(base_ms), seconds(inc_ms))
            }
        }
    }
}

/// The longest clock time or increment a `tc=` may give: about 11 days, far beyond any match,
/// and small enough that clock arithmetic in milliseconds never overflows.
const MAX_CLOCK_SECONDS: f64 = 1_000_000.0;

impl TimeControl {
    /// Parses `movetime=MS`, `depth=N`, `nodes=N`, `tc=SECONDS+INC` or a bare `[MOVES/]SECONDS[+INC]`.
    pub fn parse(text: &str) -> Result<TimeControl> {
        let hint = "a time control is movetime=MS, depth=N, nodes=N or tc=[MOVES/]SECONDS[+INC] (e.g. tc=10+0.1, tc=40/60+0.5)";
        let (key, value) = match text.split_once('=') {
            Some((key, value)) => (key, value),
            None => ("tc", text),
        };
        let number = |v: &str| -> Result<u64> {
            match v.parse::<u64>() {
                Ok(0) => bail!("bad time control '{text}': {key} must be at least 1"),
                Ok(n) => Ok(n),
                Err(_) => {
                    bail!("bad time control '{text}': '{v}' is not a whole number; {hint}")
                }
            }
        };
        match key {
            "movetime" => match number(value)? {
                ms if ms as f64 > MAX_CLOCK_SECONDS * 1000.0 => bail!(
                    "bad time control '{text}': movetime {ms} is more than the {} ms allowed",
                    MAX_CLOCK_SECONDS * 1000.0
                ),
                ms => Ok(TimeControl::MoveTime(ms)),
            },
            "depth" => match number(value)? {
                depth if depth > MAX_DEPTH.into() => bail!(
                    "bad time control '{text}': depth {depth} is more than the protocol's {MAX_DEPTH}"
                ),
                depth => Ok(TimeControl::Depth(depth as u32)),
            },
            "nodes" => Ok(TimeControl::Nodes(number(value)?)),
            "tc" => {
                let (moves, rest) = match value.split_once('/') {
                    Some((m, rest)) => (
                        Some(m.parse::<u32>().ok().filter(|&m| m > 0).ok_or_else(|| {
                            anyhow!("bad time control '{text}': '{m}' is not a positive move count; {hint}")
                        })?),
                        rest,
                    ),
                    None => (None, value),
                };
                let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
                let seconds = |v: &str| -> Result<u64> {
                    match v.parse::<f64>() {
                        Ok(s) if s > MAX_CLOCK_SECONDS => bail!(
                            "bad time control '{text}': {v} seconds is more than the {MAX_CLOCK_SECONDS} allowed"
                        ),
                        Ok(s) if s.is_finite() && s >= 0.0 => Ok((s * 1000.0).round() as u64),
                        _ => bail!(
                            "bad time control '{text}': '{v}' is not a number of seconds; {hint}"
                        ),
                    }
                };
                let base_ms = seconds(base)?;
                if base_ms == 0 {
                    bail!("bad time control '{text}': the clock must start above 0 seconds");
                }
                Ok(TimeControl::Clock {
                    base_ms,
                    inc_ms: seconds(inc)?,
                    moves_to_go: moves,
                })
            }
            _ => bail!("bad time control '{text}': unknown kind '{key}'; {hint}"),
        }
    }
}

/// One engine of the match, from the words of one `--engine`.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// The name used in records and reports; unique in the match.
    pub name: String,
    /// The program and its arguments (split like a shell would, but run without one).
    pub command: Vec<String>,
    /// The working directory, if not the referee's.
    pub dir: Option<PathBuf>,
    /// Options sent with `setoption name <N> value <V>` after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// A time control for this engine only, overriding `--tc`.
    pub tc: Option<TimeControl>,
    /// The protocol to speak (`proto=`): pion's, UGI, or whichever it answers.
    pub proto: ProtoChoice,
}

impl EngineSpec {
    /// Parses the words of one `--engine`: `name=`, `cmd=`, `dir=`, `option.<Name>=`, `tc=`.
    pub fn parse(words: &[String]) -> Result<EngineSpec> {
        let mut name = None;
        let mut command = None;
        let mut dir = None;
        let mut options = Vec::new();
        let mut tc = None;
        let mut proto = ProtoChoice::Auto;
        for word in words {
            let Some((key, value)) = word.split_once('=') else {
                bail!(
                    "bad --engine word '{word}': expected key=value with key name, cmd, dir, tc, proto or option.<Name>"
                );
            };
            match key {
                "name" => name = Some(value.to_string()),
                "cmd" => {
                    let parts = shlex::split(value)
                        .ok_or_else(|| anyhow!("bad --engine cmd '{value}': unbalanced quotes"))?;
                    if parts.is_empty() {
                        bail!("bad --engine cmd: it is empty");
                    }
                    command = Some(parts);
                }
                "dir" => dir = Some(PathBuf::from(value)),
                "tc" => tc = Some(TimeControl::parse(value).context("in --engine tc=")?),
                "proto" => proto = ProtoChoice::parse(value).map_err(|e| anyhow!(e))?,
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() && !option.contains(char::is_whitespace) => {
                        options.push((option.to_string(), value.to_string()))
                    }
                    _ => bail!(
                        "bad --engine key '{key}': expected name, cmd, dir, tc, proto or option.<Name>"
                    ),
                },
            }
        }
        let command = command.ok_or_else(|| {
            anyhow!("--engine needs cmd=<command line>, e.g. --engine name=new cmd=./target/release/pion")
        })?;
        let name = name.unwrap_or_else(|| {
            std::path::Path::new(&command[0])
                .file_name()
                .map_or_else(|| command[0].clone(), |n| n.to_string_lossy().into_owned())
        });
        if name.is_empty() || name.contains(char::is_whitespace) || name.contains('/') {
            bail!("bad engine name '{name}': use letters, digits, '-', '_' or '.'");
        }
        Ok(EngineSpec {
            name,
            command,
            dir,
            options,
            tc,
            proto,
        })
    }

    /// Refuses two engines of one name (the referee's, pion-web's and a run's check): their
    /// records and their pages could not be told apart.
    pub fn check_names(engines: &[EngineSpec]) -> Result<()> {
        let mut seen = std::collections::HashSet::new();
        match engines.iter().find(|e| !seen.insert(&e.name)) {
            Some(twice) => bail!(
                "two engines are named '{}': give them different name=",
                twice.name
            ),
            None => Ok(()),
        }
    }
}

/// Where the games of each pair start.
#[derive(Clone, Debug, PartialEq)]
pub enum OpeningSource {
    /// The start position.
    None,
    /// N random legal plies from the start position, drawn from the match seed.
    RandomPlies(u32),
    /// The lines of a file.
    File(PathBuf),
}

impl OpeningSource {
    /// Parses `none`, `random-plies=N` or `file=PATH`.
    pub fn parse(text: &str) -> Result<OpeningSource> {
        let hint = "openings are none, random-plies=N or file=PATH";
        match text.split_once('=') {
            None if text == "none" => Ok(OpeningSource::None),
            Some(("random-plies", n)) => {
                Ok(OpeningSource::RandomPlies(n.parse().map_err(|_| {
                    anyhow!("bad --openings '{text}': '{n}' is not a ply count; {hint}")
                })?))
            }
            Some(("file", path)) if !path.is_empty() => {
                Ok(OpeningSource::File(PathBuf::from(path)))
            }
            _ => bail!("bad --openings '{text}': {hint}"),
        }
    }
}

/// A sequential probability ratio test on the Elo difference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSpec {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative hypothesis.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

impl SprtSpec {
    /// Parses `elo0=A elo1=B [alpha=0.05] [beta=0.05]`.
    pub fn parse(words: &[String]) -> Result<SprtSpec> {
        let hint = "--sprt takes elo0=A elo1=B alpha=0.05 beta=0.05";
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| anyhow!("bad --sprt word '{word}': {hint}"))?;
            let value: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| anyhow!("bad --sprt value '{word}': not a number"))?;
            match key {
                "elo0" => elo0 = Some(value),
                "elo1" => elo1 = Some(value),
                "alpha" => alpha = value,
                "beta" => beta = value,
                _ => bail!("bad --sprt key '{key}': {hint}"),
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            bail!("--sprt needs elo0 and elo1: {hint}");
        };
        if elo0 >= elo1 {
            bail!("--sprt needs elo0 < elo1 (got {elo0} and {elo1})");
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                bail!("--sprt {name}={p} must lie strictly between 0 and 0.5");
            }
        }
        Ok(SprtSpec {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

/// How a game cut off by `--maxplies` is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaxPliesRule {
    /// By the game's own count of points at that moment (towers in Avalam, seeds in Awale).
    Score,
    /// As a draw.
    Draw,
}

/// A slice of the match: the `index`-th (0-based) of `count` disjoint slices of the pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 0-based slice number.
    pub index: u32,
    /// Number of slices.
    pub count: u32,
}

impl Shard {
    /// Parses `K/N` with 1 <= K <= N.
    pub fn parse(text: &str) -> Result<Shard> {
        let parsed = text
            .split_once('/')
            .and_then(|(k, n)| Some((k.parse::<u32>().ok()?, n.parse::<u32>().ok()?)));
        match parsed {
            Some((k, n)) if k >= 1 && k <= n => Ok(Shard {
                index: k - 1,
                count: n,
            }),
            _ => bail!("bad --shard '{text}': expected K/N with 1 <= K <= N, e.g. 1/4"),
        }
    }

    /// Whether pair `pair` belongs to this slice (pairs are dealt round-robin).
    pub fn owns(&self, pair: u64) -> bool {
        pair % self.count as u64 == self.index as u64
    }
}

/// A tournament's format and size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TournamentSpec {
    /// Who meets whom.
    pub format: Format,
    /// Colour-swapped pairs of games per pairing.
    pub rounds: u64,
}

/// Everything a match or tournament needs, except the game type itself.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines; in a match, two, the first the one whose Elo is reported.
    pub engines: Vec<EngineSpec>,
    /// The tournament, when there is one (a match otherwise).
    pub tournament: Option<TournamentSpec>,
    /// Games in the whole match or tournament (all shards).
    pub games: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// The default time control.
    pub tc: TimeControl,
    /// Grace allowed beyond the time limit before a move is a loss on time.
    pub time_margin: Duration,
    /// How long a `go` with no time limit (depth, nodes) may last before the engine is stuck.
    pub hang_timeout: Duration,
    /// Deadline for the `pion` handshake (starting a process included).
    pub startup_timeout: Duration,
    /// Deadline for `readyok` after `isready`.
    pub isready_timeout: Duration,
    /// Deadline for an engine to exit after `quit` before its process group is killed.
    pub quit_timeout: Duration,
    /// Where openings come from.
    pub openings: OpeningSource,
    /// Whether file openings are shuffled (from the seed) rather than taken in order.
    pub shuffle_openings: bool,
    /// The match seed: openings and per-game engine seeds derive from it.
    pub seed: u64,
    /// The rule variant name, sent as the `Variant` option when set.
    pub variant: Option<String>,
    /// Plies after which a game is adjudicated.
    pub max_plies: Option<u32>,
    /// How adjudicated games are scored.
    pub max_plies_rule: MaxPliesRule,
    /// Adjudication from the engines' scores.
    pub adjudication: Adjudication,
    /// Which rating is zero in a tournament's standings.
    pub zero: Zero,
    /// The sequential test, if any.
    pub sprt: Option<SprtSpec>,
    /// The slice of the match this run plays.
    pub shard: Option<Shard>,
    /// The JSON lines file.
    pub out: Option<PathBuf>,
    /// Whether to continue the games in `out`.
    pub resume: bool,
    /// Directory of the per-engine logs (stderr and protocol traffic).
    pub log_dir: PathBuf,
    /// Whether every `info` line goes to the logs, not only the last before each other line.
    pub log_all_info: bool,
}

impl MatchConfig {
    /// The conditions every game of this match or tournament is played under: its size, the
    /// time controls, the engines' options, the variant and adjudication. Engine commands,
    /// paths and the shard are left out, since shards may run on machines with other paths.
    pub fn conditions(&self) -> Value {
        let engines: Vec<Value> = self
            .engines
            .iter()
            .map(|e| {
                json!({
                    "name": e.name,
                    "tc": e.tc.map(|tc| tc.to_string()),
                    "options": e.options,
                })
            })
            .collect();
        let mut conditions = json!({
            "games": self.games,
            "tc": self.tc.to_string(),
            "margin_ms": self.time_margin.as_millis() as u64,
            "variant": self.variant.as_deref().unwrap_or("standard"),
            "maxplies": self.max_plies,
            "maxplies_rule": match self.max_plies_rule {
                MaxPliesRule::Score => "score",
                MaxPliesRule::Draw => "draw",
            },
            "adjudication": self.adjudication,
            "seed": self.seed,
            "engines": engines,
        });
        if let Some(t) = self.tournament {
            conditions["tournament"] = json!({"format": t.format.as_str(), "rounds": t.rounds});
        }
        conditions
    }

    /// The conditions as records of earlier versions wrote them, one line of text (for a
    /// two-engine match), so that their files still resume.
    pub fn legacy_conditions(&self) -> String {
        let engine = |e: &EngineSpec| {
            let options: Vec<String> = e.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!("{}: tc {:?} options [{}]", e.name, e.tc, options.join(" "))
        };
        // Earlier versions had no adjudication from scores: a run that asks for one differs.
        let adjudication = if self.adjudication == Adjudication::default() {
            String::new()
        } else {
            format!(" adjudication {}", json!(self.adjudication))
        };
        format!(
            "games {} tc {:?} margin {}ms variant {} maxplies {:?} {:?}{adjudication} seed {} | {} | {}",
            self.games,
            self.tc,
            self.time_margin.as_millis(),
            self.variant.as_deref().unwrap_or("standard"),
            self.max_plies,
            self.max_plies_rule,
            self.seed,
            engine(&self.engines[0]),
            engine(&self.engines[1])
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_engines_of_one_name_are_refused() {
        let spec = |words: &[&str]| {
            EngineSpec::parse(&words.iter().map(|w| w.to_string()).collect::<Vec<_>>()).unwrap()
        };
        let a = spec(&["cmd=./pion"]);
        let b = spec(&["name=b", "cmd=./pion"]);
        let other_a = spec(&["name=pion", "cmd=/usr/bin/other"]);
        assert!(EngineSpec::check_names(&[a.clone(), b.clone()]).is_ok());
        assert!(EngineSpec::check_names(&[]).is_ok());
        let err = EngineSpec::check_names(&[a, b, other_a]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "two engines are named 'pion': give them different name="
        );
    }
}
