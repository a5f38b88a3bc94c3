//! Two slow, plain computations the databases are checked against.
//!
//! [`Exhaustive`] plays every line out under pion's rules with no retrograde reasoning; it
//! answers only for boards from which no line meets a repetition (after a capture no earlier
//! position can recur, so such a board's value depends on the board alone). [`thresholds`]
//! computes the database's definition for every board, cycles included, the textbook way: one
//! win set and one loss set per threshold, grown by whole passes until nothing changes: a
//! board's `lo` is the highest threshold it wins, its `hi` the last one it does not lose; the
//! same sets with captures counted by their likeliest shares give the likeliest share.

use std::collections::HashMap;

use super::code::Entry;
use super::index::{Boards, layer_size, rank};
use super::solve::{Children, children, own_row};
use pion_rules::awale::{PITS, Variant};

/// The exhaustive search, remembering the boards reached right after a capture.
pub struct Exhaustive {
    variant: Variant,
    fresh: HashMap<[u8; PITS], Option<u8>>,
    /// Positions searched, for a report.
    pub nodes: u64,
    /// The search gives up (`None`) past this many positions.
    pub budget: u64,
}

impl Exhaustive {
    /// A search under the rules of `variant`.
    pub fn new(variant: Variant) -> Exhaustive {
        Exhaustive {
            variant,
            fresh: HashMap::new(),
            nodes: 0,
            budget: u64::MAX,
        }
    }

    /// How many of the board's seeds the side to move ends with under best play, the game
    /// starting here; `None` when some line meets a repetition (or the search its budget). The
    /// side to move owns pits 0..6.
    pub fn value(&mut self, pits: &[u8; PITS]) -> Option<u8> {
        if let Some(&v) = self.fresh.get(pits) {
            return v;
        }
        let v = self.value_after(pits, &mut Vec::new());
        self.fresh.insert(*pits, v);
        v
    }

    /// The value after the boards of `path` (since the last capture, oldest first; the side
    /// to move alternates along it, so every second board back had the same side to move).
    fn value_after(&mut self, pits: &[u8; PITS], path: &mut Vec<[u8; PITS]>) -> Option<u8> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let mut kids = Children::default();
        children(pits, self.variant, &mut kids);
        if kids.is_empty() {
            return Some(0);
        }
        if path
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|earlier| earlier == pits)
        {
            return None;
        }
        let seeds: u8 = pits.iter().sum();
        path.push(*pits);
        let mut best = Some(0);
        for child in kids.iter() {
            let child_seeds: u8 = child.iter().sum();
            let theirs = if child_seeds < seeds {
                self.value(child)
            } else {
                self.value_after(child, path)
            };
            best = match (best, theirs) {
                (Some(b), Some(t)) => Some(b.max(seeds - t)),
                _ => None,
            };
            if best.is_none() {
                break;
            }
        }
        path.pop();
        best
    }
}

/// The database's entry of every board of every layer up to `max_seeds`, by per-threshold win
/// and loss sets: `lo` the most seeds the mover can force, `hi` the most the opponent lets it
/// have, with the captures counted by their children's bounds; and the likeliest share, the
/// same sets with the captures counted by their children's likeliest shares, each board then
/// taking the repetition scored on itself.
pub fn thresholds(max_seeds: usize, variant: Variant) -> Vec<Vec<Entry>> {
    let mut layers: Vec<Vec<Entry>> = Vec::new();
    for k in 0..=max_seeds {
        let boards: Vec<[u8; PITS]> = Boards::new(k, 0, layer_size(k)).collect();
        let kids: Vec<Children> = boards
            .iter()
            .map(|pits| {
                let mut kids = Children::default();
                children(pits, variant, &mut kids);
                kids
            })
            .collect();
        // What a capture into `child` leaves the opponent: its bounds, or its likeliest share
        // as both bounds.
        let bounds = sets(k, &kids, |seeds, c| {
            let e = layers[seeds][c];
            (e.lo, e.hi)
        });
        let likely = sets(k, &kids, |seeds, c| {
            let e = layers[seeds][c];
            (e.likely, e.likely)
        });
        let entries = (0..boards.len())
            .map(|i| Entry {
                lo: bounds[i].0,
                hi: bounds[i].1,
                likely: likely[i]
                    .0
                    .max(likely[i].1.min(own_row(&boards[i])))
                    .clamp(bounds[i].0, bounds[i].1),
            })
            .collect();
        layers.push(entries);
    }
    layers
}

/// The bounds `(lo, hi)` of every board of a layer of `k` seeds whose children are `kids`,
/// a capture into a board of the smaller layer `seeds` leaving the opponent between the bounds
/// `captured(seeds, index)`.
fn sets(k: usize, kids: &[Children], captured: impl Fn(usize, usize) -> (u8, u8)) -> Vec<(u8, u8)> {
    let size = kids.len();
    // win[t][i]: the mover can force at least t seeds; lose[t][i]: the opponent can hold
    // the mover below t. Thresholds 1..=k (index 0 unused).
    let mut win = vec![vec![false; size]; k + 1];
    let mut lose = vec![vec![false; size]; k + 1];
    let mut changed = true;
    while changed {
        changed = false;
        for t in 1..=k {
            for i in 0..size {
                // Does the move to `child` give the mover at least t seeds (`at_least`), or
                // hold it below t whatever follows (`below`)? A child after a capture has its
                // bounds; a child in the layer needs the opponent's sets at k - t + 1.
                let (mut w, mut l) = (false, true);
                for child in kids[i].iter() {
                    let child_seeds: usize = child.iter().map(|&s| s as usize).sum();
                    let c = rank(child) as usize;
                    let (at_least, below) = if child_seeds < k {
                        let (lo, hi) = captured(child_seeds, c);
                        (k - hi as usize >= t, k - (lo as usize) < t)
                    } else {
                        (lose[k - t + 1][c], win[k - t + 1][c])
                    };
                    w |= at_least;
                    l &= below;
                }
                if w && !win[t][i] {
                    win[t][i] = true;
                    changed = true;
                }
                if l && !lose[t][i] {
                    lose[t][i] = true;
                    changed = true;
                }
            }
        }
    }
    (0..size)
        .map(|i| {
            let lo = (1..=k).rev().find(|&t| win[t][i]).unwrap_or(0);
            let hi = (1..=k).find(|&t| lose[t][i]).map_or(k, |t| t - 1);
            (lo as u8, hi as u8)
        })
        .collect()
}
