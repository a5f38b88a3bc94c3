//! Match counts kept up to date game by game, for a running match's progress line and SPRT.

use std::collections::HashMap;

use crate::record::GameRecord;
use crate::report::summary::{Counts, progress_elo_of};

/// [`Counts`] kept up to date one record at a time, so that a running match's progress line
/// and its SPRT cost one game's work per game rather than a pass over every record.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    counts: Counts,
    /// Per pair, the first engine's half-points in each of its games so far.
    pairs: HashMap<u64, Vec<u32>>,
}

impl Tally {
    /// Counts one more record.
    pub fn add(&mut self, record: &GameRecord) {
        let halves = record.half_points_of(0);
        let c = &mut self.counts;
        match halves {
            2 => c.wdl.wins += 1,
            1 => c.wdl.draws += 1,
            _ => c.wdl.losses += 1,
        }
        let pair = self.pairs.entry(record.pair).or_default();
        pair.push(halves);
        let first_two = pair.iter().take(2).sum::<u32>() as usize;
        match pair.len() {
            1 => c.unpaired += 1,
            2 => {
                c.unpaired -= 1;
                c.pentanomial[first_two] += 1;
            }
            // A pair recorded more than twice is not a pair: all its games count as unpaired.
            3 => {
                c.pentanomial[first_two] -= 1;
                c.unpaired += 3;
            }
            _ => c.unpaired += 1,
        }
    }

    /// The counts of the records added so far.
    pub fn counts(&self) -> &Counts {
        &self.counts
    }

    /// The Elo of a progress line over the records added so far ([`crate::report::summary::Summary::progress_elo`]).
    pub fn progress_elo(&self) -> String {
        progress_elo_of(&self.counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::testing::record;
    use crate::report::summary::{counts, summarize};

    #[test]
    fn the_tally_of_each_prefix_is_the_full_count() {
        let names = ["a".to_string(), "b".to_string()];
        let mut records = Vec::new();
        // Wins, losses, draws, a pair left open, then a pair recorded three times and a fourth
        // (a damaged file): every prefix is counted as the full recomputation counts it.
        for (game, result) in [
            (0, "1-0"),
            (1, "1-0"),
            (2, "1/2-1/2"),
            (3, "1-0"),
            (4, "0-1"),
        ] {
            let (first, second) = if game % 2 == 0 {
                ("a", "b")
            } else {
                ("b", "a")
            };
            records.push(record(game, first, second, result));
        }
        for result in ["1-0", "0-1", "1/2-1/2", "1-0"] {
            let mut extra = record(7, "b", "a", result);
            extra.pair = 5;
            records.push(extra);
        }
        records.push(record(9, "b", "a", "0-1"));
        let mut tally = Tally::default();
        for n in 1..=records.len() {
            tally.add(&records[n - 1]);
            let prefix = &records[..n];
            assert_eq!(*tally.counts(), counts(&names, prefix), "after {n} games");
            assert_eq!(
                tally.progress_elo(),
                summarize(&names, prefix, None).progress_elo(),
                "after {n} games"
            );
        }
        assert!(tally.counts().unpaired > 0 && tally.counts().pentanomial.iter().sum::<u64>() > 0);
    }
}
