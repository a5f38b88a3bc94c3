//! `pion egtb build` and `pion egtb verify`: building the layers in order with a progress bar,
//! keeping the ones already on disk, and checking them against the plain references.

use std::path::Path;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::file::{Check, FileError, OVERHEAD, open_layer, write_layer};
use super::index::{layer_size, unrank};
use super::layer::Layer;
use super::reference::{Exhaustive, thresholds};
use super::solve::{Progress, solve_layer};
use super::tables::Tables;
use pion_rules::awale::Variant;

/// What building one layer took.
#[derive(Clone, Copy, Debug)]
pub struct LayerReport {
    /// Seeds on the board.
    pub seeds: usize,
    /// Boards in the layer.
    pub boards: u64,
    /// Seconds spent solving and writing it, `None` when the file was already there.
    pub seconds: Option<f64>,
    /// Sweeps until the bounds stopped moving (both fixpoints').
    pub sweeps: u32,
}

struct Bar<'a> {
    bar: &'a ProgressBar,
    seeds: usize,
    sweeps: std::sync::atomic::AtomicU32,
}

impl Progress for Bar<'_> {
    fn advance(&self, boards: u64) {
        self.bar.inc(boards);
    }

    fn sweep(&self, number: u32, changed: u64) {
        self.sweeps
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.bar.set_message(format!(
            "layer {}: sweep {number} tightened {changed} bounds",
            self.seeds
        ));
    }
}

/// Builds the layers 0..=`max_seeds` of `variant` into `dir`. A layer whose file is already
/// there and sound is read instead of built, so an interrupted build goes on where it stopped;
/// a damaged or foreign file is built again. Each layer is written when it is finished.
pub fn build(
    dir: &Path,
    variant: Variant,
    max_seeds: usize,
    threads: usize,
    show: bool,
    mut report: impl FnMut(&LayerReport),
) -> Result<Tables, FileError> {
    let total: u64 = (0..=max_seeds).map(layer_size).sum();
    let bar = if show {
        ProgressBar::new(total)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {percent}% {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let mut layers: Vec<Layer> = Vec::new();
    for seeds in 0..=max_seeds {
        let boards = layer_size(seeds);
        match open_layer(dir, variant, seeds, Check::Values) {
            Ok(values) => {
                bar.inc(boards);
                layers.push(values);
                report(&LayerReport {
                    seeds,
                    boards,
                    seconds: None,
                    sweeps: 0,
                });
                continue;
            }
            Err(FileError::Missing { .. }) => {}
            Err(e) => bar.println(format!("{e}; building it again")),
        }
        let start = Instant::now();
        let progress = Bar {
            bar: &bar,
            seeds,
            sweeps: Default::default(),
        };
        let layer = solve_layer(seeds, variant, &layers, threads, &progress);
        write_layer(dir, variant, seeds, &layer)?;
        layers.push(layer);
        report(&LayerReport {
            seeds,
            boards,
            seconds: Some(start.elapsed().as_secs_f64()),
            sweeps: progress.sweeps.into_inner(),
        });
    }
    bar.finish_and_clear();
    Ok(Tables::from_layers(variant, layers))
}

/// What `verify` found.
#[derive(Clone, Copy, Debug, Default)]
pub struct VerifyReport {
    /// Layers recomputed in full by the per-threshold sets.
    pub full_layers: usize,
    /// Sampled boards compared with the exhaustive search.
    pub compared: u64,
    /// Sampled boards from which the exhaustive search met a repetition or its node budget
    /// (compared only through the full layers).
    pub cycling: u64,
    /// Boards whose stored value differs.
    pub wrong: u64,
}

/// The layers small enough to recompute in full with the per-threshold sets in seconds.
pub const FULL_CHECK_SEEDS: usize = 7;

/// Checks `tables`: the small layers in full against the per-threshold sets, and `samples`
/// random boards of every layer against the exhaustive search (each given `budget` nodes).
pub fn verify(tables: &Tables, samples: u64, budget: u64, seed: u64) -> VerifyReport {
    let mut report = VerifyReport::default();
    let layers = tables.layers();
    let full = FULL_CHECK_SEEDS.min(tables.max_seeds());
    let reference = thresholds(full, tables.variant());
    for (k, entries) in reference.iter().enumerate() {
        report.wrong += (0..entries.len())
            .filter(|&i| entries[i] != layers[k].entry(i))
            .count() as u64;
        report.full_layers += 1;
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for (k, layer) in layers.iter().enumerate() {
        for _ in 0..samples {
            let i = rng.random_range(0..layer_size(k));
            let pits = unrank(k, i);
            let mut exhaustive = Exhaustive::new(tables.variant());
            exhaustive.budget = budget;
            match exhaustive.value(&pits) {
                Some(want) => {
                    report.compared += 1;
                    let entry = layer.entry(i as usize);
                    if !entry.is_settled() || entry.lo != want {
                        report.wrong += 1;
                    }
                }
                None => report.cycling += 1,
            }
        }
    }
    report
}

/// Boards a thread solves per second on a large layer, for the estimate (measured on this
/// project's machine: docs/egtb.md; small layers go faster, loaded machines slower).
const BOARDS_PER_THREAD_SECOND: f64 = 0.5e6;
/// Bytes a board of the layer being solved takes at the peak: 6 child indices of 4 bytes, the
/// best capture's likeliest share, the two bounds and the two of the likeliest shares'
/// fixpoint, and the entry made of them.
const BYTES_PER_SOLVED_BOARD: u64 = 6 * 4 + 1 + 4 + 3;

/// What a build will take, told before it starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Layers to build (the others are there already).
    pub layers: usize,
    /// Seconds, roughly.
    pub seconds: f64,
    /// Peak memory in bytes: every layer up to the largest, plus the largest layer's edges.
    pub memory: u64,
    /// Bytes the new files take on disk.
    pub disk: u64,
}

/// The estimate of building `variant` up to `max_seeds` into `dir` with `threads` threads
/// (layers whose file is already there, by name and length, cost nothing).
pub fn estimate(dir: &Path, variant: Variant, max_seeds: usize, threads: usize) -> Estimate {
    let mut estimate = Estimate {
        layers: 0,
        seconds: 0.0,
        memory: 0,
        disk: 0,
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let speed = BOARDS_PER_THREAD_SECOND * threads.clamp(1, cores) as f64;
    let mut below = 0;
    for seeds in 0..=max_seeds {
        let boards = layer_size(seeds);
        let there = std::fs::metadata(super::file::path_of(dir, variant, seeds))
            .is_ok_and(|m| m.is_file() && m.len() == boards + OVERHEAD);
        if !there {
            estimate.layers += 1;
            estimate.seconds += boards as f64 / speed;
            estimate.disk += boards + OVERHEAD;
            estimate.memory = estimate.memory.max(below + boards * BYTES_PER_SOLVED_BOARD);
        }
        below += boards;
    }
    estimate.memory = estimate.memory.max(below);
    estimate
}

/// A layer's time and speed for people: milliseconds for quick layers, and the rate only when
/// the time is long enough to give one.
pub fn timing(boards: u64, seconds: f64) -> String {
    if seconds < 0.1 {
        format!("{:.1} ms", seconds * 1e3)
    } else {
        format!(
            "{seconds:.2} s ({:.2} M boards/s)",
            boards as f64 / seconds / 1e6
        )
    }
}
