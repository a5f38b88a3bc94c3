//! `bench`: a fixed-depth search over fixed positions; its node count is the search's signature.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::{Limits, Searcher, Settings};
use crate::avalam::Avalam;
use crate::awale::Awale;
use crate::game::{Game, History};

/// The result of a bench run.
#[derive(Clone, Copy, Debug)]
pub struct BenchReport {
    /// Total nodes searched.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub millis: u64,
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nps = self.nodes * 1000 / self.millis.max(1);
        write!(
            f,
            "bench nodes {} time {} nps {nps}",
            self.nodes, self.millis
        )
    }
}

fn run<G: Game>(depth: u32) -> u64 {
    let mut searcher = Searcher::<G>::new(Settings::default());
    let history = History::new(G::start(G::Variant::default()));
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut nodes = 0;
    searcher.search(&history, &limits, &AtomicBool::new(false), &mut |info| {
        nodes = info.nodes
    });
    nodes
}

/// Searches the bench positions of both games to `depth` (default 6).
pub fn bench(depth: Option<u32>) -> BenchReport {
    let depth = depth.unwrap_or(6);
    let start = Instant::now();
    let nodes = run::<Avalam>(depth) + run::<Awale>(depth);
    BenchReport {
        nodes,
        millis: start.elapsed().as_millis() as u64,
    }
}
