//! Two slow, plain computations the databases are checked against.
//!
//! [`Exhaustive`] plays every line out under pion's rules with no retrograde reasoning; it
//! answers only for boards from which no line meets a repetition (after a capture no earlier
//! position can recur, so such a board's value depends on the board alone). [`thresholds`]
//! computes the database's definition for every board, cycles included, the textbook way: one
//! win set and one loss set per threshold, grown by whole passes until nothing changes, the
//! boards in neither set taking the repetition scored on themselves.

use std::collections::HashMap;

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

/// The database's values for every layer up to `max_seeds`, by per-threshold win and loss sets.
pub fn thresholds(max_seeds: usize, variant: Variant) -> Vec<Vec<u8>> {
    let mut layers: Vec<Vec<u8>> = Vec::new();
    for k in 0..=max_seeds {
        let size = layer_size(k) as usize;
        let boards: Vec<[u8; PITS]> = Boards::new(k, 0, size as u64).collect();
        let kids: Vec<Children> = boards
            .iter()
            .map(|pits| {
                let mut kids = Children::default();
                children(pits, variant, &mut kids);
                kids
            })
            .collect();
        // win[t][i]: the mover can force at least t seeds; lose[t][i]: the opponent can hold
        // the mover below t. Thresholds 1..=k (index 0 unused).
        let mut win = vec![vec![false; size]; k + 1];
        let mut lose = vec![vec![false; size]; k + 1];
        let mut changed = true;
        while changed {
            changed = false;
            for t in 1..=k {
                for i in 0..size {
                    // Does the move to `child` give the mover at least t seeds (`at_least`),
                    // or hold it below t whatever follows (`below`)? A child after a capture has
                    // its value; a child in the layer needs the opponent's sets at k - t + 1.
                    let (mut w, mut l) = (false, true);
                    for child in kids[i].iter() {
                        let child_seeds: usize = child.iter().map(|&s| s as usize).sum();
                        let c = rank(child) as usize;
                        let (at_least, below) = if child_seeds < k {
                            let mine = k - layers[child_seeds][c] as usize;
                            (mine >= t, mine < t)
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
        let values = (0..size)
            .map(|i| {
                (1..=k)
                    .rev()
                    .find(|&t| win[t][i] || (!lose[t][i] && own_row(&boards[i]) as usize >= t))
                    .unwrap_or(0) as u8
            })
            .collect();
        layers.push(values);
    }
    layers
}
