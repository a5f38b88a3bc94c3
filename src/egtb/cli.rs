//! `pion egtb ...`: building, checking and listing the databases from the command line, in the
//! default directory unless `--dir` names another.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use super::VARIANTS;
use super::build::{self, Estimate, estimate, timing};
use super::file::Check;
use super::place::{self, default_dir, size};
use super::tables::Tables;
use pion_rules::awale::{Awale, Variant};
use pion_rules::game::{Game, shorten};

/// `println!` that ignores a closed stdout (`pion egtb build | head`): the build goes on and
/// nothing panics.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// The largest `--max-seeds`: a byte holds the value, and larger layers would not fit in memory.
pub const MAX_SEEDS: u32 = super::MAX_LOADED_SEEDS as u32;

/// The `egtb` subcommand's actions.
#[derive(clap::Subcommand)]
pub enum EgtbAction {
    /// Builds the databases of every board with up to N seeds, one file a seed count, where
    /// pion looks for them (see `status`). It says what the build will take before it starts;
    /// an interrupted build goes on where it stopped when run again (finished files are kept).
    Build {
        /// The most seeds on the board. The default, 22, takes for each variant about 550 MB
        /// of disk, 6.1 GB of memory at its peak, and 6 to 16 minutes on two cores; 20 seeds
        /// about 230 MB of disk and 2.5 GB of memory.
        #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u32).range(0..=MAX_SEEDS as i64))]
        max_seeds: u32,
        /// Where the files go (default: the directory pion looks in, as `status` says).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// The Awale variant: standard, grandslam-nocapture, grandslam-capture, or all.
        #[arg(long, default_value = "all")]
        variant: String,
        /// Threads that share the work.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Build even when the memory the build needs looks larger than the memory available.
        #[arg(long)]
        force: bool,
    },
    /// Says where pion looks for databases and what is installed there.
    Status {
        /// The directory to look at (default: the directory pion looks in).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Says what the databases prove of Awale positions (pion's position strings, such as
    /// `0,0,0,0,0,4/1,1,0,0,0,0/21,21 1`): a settled result, or the bounds of one that can
    /// cycle. Reads one position a line from standard input when none is given.
    Probe {
        /// The positions; none: read them from standard input, one a line.
        positions: Vec<String>,
        /// Where the files are (default: the directory pion looks in).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// The Awale variant whose databases answer.
        #[arg(long, default_value = "standard")]
        variant: String,
    },
    /// Checks the databases in a directory: every file's checksum, the layers up to 7 seeds in
    /// full against a per-threshold computation, and random boards of every layer against an
    /// exhaustive search.
    Verify {
        /// Where the files are (default: the directory pion looks in).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// The Awale variant, or all (those installed).
        #[arg(long, default_value = "all")]
        variant: String,
        /// Random boards checked per layer.
        #[arg(long, default_value_t = 200)]
        samples: u64,
        /// Positions the exhaustive search may visit for one board before giving it up.
        #[arg(long, default_value_t = 1_000_000)]
        budget: u64,
        /// Seed of the sample.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

fn variants(name: &str) -> Result<Vec<Variant>, String> {
    if name == "all" {
        return Ok(VARIANTS.to_vec());
    }
    Awale::parse_variant(name).map(|v| vec![v]).ok_or_else(|| {
        format!(
            "unknown variant '{}' (Awale's variants: {}, or all)",
            pion_rules::game::shorten(name),
            Awale::variant_names().join(", ")
        )
    })
}

/// `--dir`, else the default directory, with how it was chosen.
fn directory(dir: Option<PathBuf>) -> Result<(PathBuf, String), String> {
    match dir {
        Some(dir) => Ok((dir, "--dir".into())),
        None => default_dir()
            .map(|(dir, why)| (dir, why.to_string()))
            .ok_or_else(|| {
                format!(
                    "no default directory ({} is set empty, or no home directory is known): \
                     give one with --dir",
                    place::ENV
                )
            }),
    }
}

/// Memory the system can give now, from /proc/meminfo where there is one.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

fn minutes(seconds: f64) -> String {
    if seconds < 60.0 {
        format!("{:.0} s", seconds.max(1.0))
    } else {
        format!("{:.0} min", seconds / 60.0)
    }
}

/// Runs one action; the error is the one line to print.
pub fn run(action: EgtbAction) -> Result<(), String> {
    match action {
        EgtbAction::Build {
            max_seeds,
            dir,
            variant,
            threads,
            force,
        } => {
            let (dir, why) = directory(dir)?;
            let variants = variants(&variant)?;
            let (max_seeds, threads) = (max_seeds as usize, threads as usize);
            let plans: Vec<Estimate> = variants
                .iter()
                .map(|&v| estimate(&dir, v, max_seeds, threads))
                .collect();
            let seconds: f64 = plans.iter().map(|e| e.seconds).sum();
            let disk: u64 = plans.iter().map(|e| e.disk).sum();
            let memory = plans.iter().map(|e| e.memory).max().unwrap_or(0);
            let names: Vec<&str> = variants.iter().map(|&v| Awale::variant_name(v)).collect();
            say!(
                "egtb build: {} up to {max_seeds} seeds in {} ({why}): about {} with {threads} \
                 idle cores (a busy machine takes longer), {} of memory at the peak, {} of disk",
                names.join(", "),
                dir.display(),
                minutes(seconds),
                size(memory),
                size(disk)
            );
            if let Some(available) = available_memory()
                && memory > available
                && !force
            {
                return Err(format!(
                    "the build needs about {} of memory and {} are available: build fewer \
                     seeds (--max-seeds), or pass --force",
                    size(memory),
                    size(available)
                ));
            }
            let start = Instant::now();
            for variant in variants {
                let tables = build::build(
                    &dir,
                    variant,
                    max_seeds,
                    threads,
                    std::io::stderr().is_terminal(),
                    |layer| match layer.seconds {
                        Some(seconds) => say!(
                            "{} layer {}: {} boards in {}, {} sweeps",
                            Awale::variant_name(variant),
                            layer.seeds,
                            layer.boards,
                            timing(layer.boards, seconds),
                            layer.sweeps
                        ),
                        None => say!(
                            "{} layer {}: already built, kept",
                            Awale::variant_name(variant),
                            layer.seeds
                        ),
                    },
                )
                .map_err(|e| e.to_string())?;
                let bytes: u64 = tables
                    .layers()
                    .iter()
                    .map(|l| l.len() as u64 + super::file::OVERHEAD)
                    .sum();
                say!(
                    "egtb {} up to {} seeds in {}: {bytes} bytes, {:.1} s so far",
                    Awale::variant_name(variant),
                    tables.max_seeds(),
                    dir.display(),
                    start.elapsed().as_secs_f64()
                );
            }
        }
        EgtbAction::Status { dir } => {
            let (dir, why) = directory(dir)?;
            say!("databases in {} ({why})", dir.display());
            let all = place::status(&dir);
            for installed in &all {
                say!("{}", place::describe(installed));
            }
            if all.iter().all(|i| i.layers == 0) {
                say!("none installed: 'pion egtb build' builds them there");
            }
        }
        EgtbAction::Probe {
            positions,
            dir,
            variant,
        } => {
            if variant == "all" {
                return Err("probe answers for one variant: give --variant".into());
            }
            let (dir, _) = directory(dir)?;
            let variant = variants(&variant)?[0];
            let tables = Tables::load(&dir, variant, MAX_SEEDS as usize, Check::Header)
                .map_err(|e| e.to_string())?;
            let answer = |text: &str| match probe_line(&tables, text) {
                Ok(line) => line,
                Err(e) => format!("error {e}"),
            };
            if positions.is_empty() {
                for line in std::io::stdin().lines() {
                    let line = line.map_err(|e| format!("reading standard input: {e}"))?;
                    if !line.trim().is_empty() {
                        say!("{}", answer(&line));
                    }
                }
            } else if let [one] = positions.as_slice() {
                say!("{}", probe_line(&tables, one)?);
            } else {
                for text in &positions {
                    say!("{}", answer(text));
                }
            }
        }
        EgtbAction::Verify {
            dir,
            variant,
            samples,
            budget,
            seed,
        } => {
            let (dir, _) = directory(dir)?;
            let all = variant == "all";
            let mut checked = 0;
            for variant in variants(&variant)? {
                let tables = match Tables::load(&dir, variant, MAX_SEEDS as usize, Check::Values) {
                    Err(super::file::FileError::Missing { .. }) if all => continue,
                    loaded => loaded.map_err(|e| e.to_string())?,
                };
                checked += 1;
                let report = build::verify(&tables, samples, budget, seed);
                say!(
                    "verify {} up to {} seeds: checksums of {} files, layers 0..{} checked in \
                     full, {} sampled boards compared with the exhaustive search, {} sampled \
                     boards can cycle, {} wrong",
                    Awale::variant_name(variant),
                    tables.max_seeds(),
                    tables.layers().len(),
                    report.full_layers.saturating_sub(1),
                    report.compared,
                    report.cycling,
                    report.wrong
                );
                if report.wrong > 0 {
                    return Err(format!("{} boards have a wrong value", report.wrong));
                }
            }
            if checked == 0 {
                return Err(format!(
                    "no database in {}: build them with 'pion egtb build'",
                    dir.display()
                ));
            }
        }
    }
    Ok(())
}

/// A proven final margin in the protocol's words.
fn result(margin: i32) -> String {
    match margin {
        m if m > 0 => format!("win {m}"),
        0 => "draw".to_string(),
        m => format!("loss {}", -m),
    }
}

/// What the databases say of one position string: `settled <result>`, `bounds <result> ..
/// <result>, likely <result>` (what the side to move can force, the most it can get, and the
/// likeliest result between), `beyond <n> seeds` or `over`.
pub fn probe_line(tables: &Tables, text: &str) -> Result<String, String> {
    let text = text.trim();
    let (board, side) = text.rsplit_once(char::is_whitespace).ok_or_else(|| {
        format!(
            "bad position '{}': expected PITS/PITS/CAPTURES SIDE",
            shorten(text)
        )
    })?;
    let position = Awale::parse_position(board, side.trim(), tables.variant())
        .map_err(|e| format!("bad position '{}': {e}", shorten(text)))?;
    if position.outcome().is_some() {
        return Ok("over".to_string());
    }
    Ok(match tables.probe(&position) {
        Some(probe) if probe.cycle => format!(
            "bounds {} .. {}, likely {}",
            result(probe.low),
            result(probe.high),
            result(probe.margin)
        ),
        Some(probe) => format!("settled {}", result(probe.margin)),
        None => format!("beyond {} seeds", tables.max_seeds()),
    })
}
