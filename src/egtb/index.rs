//! A perfect index of the pit vectors holding `k` seeds on twelve pits.
//!
//! A board of twelve pits with `k` seeds is a row of `k` seeds and 11 bars (stars and bars): the
//! bars sit at `b_j = pits[0] + ... + pits[j] + j` for `j` in 0..11, an 11-element subset of
//! `0..k + 11`. Its rank in the combinatorial number system, `sum C(b_j, j + 1)`, numbers the
//! boards of a layer `0..C(k + 11, 11)` with no gaps and no hashing, so a layer is a flat array.

use pion_rules::awale::PITS;

/// Bars between the pits.
const BARS: usize = PITS - 1;
/// The most seeds a board holds.
pub const MAX_SEEDS: usize = 48;
/// Binomials C(n, r) for n up to MAX_SEEDS + BARS, r up to BARS + 1.
const ROWS: usize = MAX_SEEDS + BARS + 1;

static BINOMIAL: [[u64; BARS + 2]; ROWS] = binomials();

const fn binomials() -> [[u64; BARS + 2]; ROWS] {
    let mut table = [[0u64; BARS + 2]; ROWS];
    let mut n = 0;
    while n < ROWS {
        table[n][0] = 1;
        let mut r = 1;
        while r < BARS + 2 {
            table[n][r] = if n == 0 {
                0
            } else {
                table[n - 1][r - 1] + table[n - 1][r]
            };
            r += 1;
        }
        n += 1;
    }
    table
}

#[inline(always)]
fn binomial(n: usize, r: usize) -> u64 {
    BINOMIAL[n][r]
}

/// The number of boards with `seeds` seeds on the twelve pits: C(seeds + 11, 11).
pub fn layer_size(seeds: usize) -> u64 {
    binomial(seeds + BARS, BARS)
}

/// The index of a board within its layer (the layer is the sum of its pits).
#[inline]
pub fn rank(pits: &[u8; PITS]) -> u64 {
    let mut index = 0;
    let mut bar = 0usize;
    for (j, &seeds) in pits[..BARS].iter().enumerate() {
        bar += seeds as usize;
        index += binomial(bar + j, j + 1);
    }
    index
}

/// The board of a layer with the given index (the inverse of [`rank`]).
pub fn unrank(seeds: usize, mut index: u64) -> [u8; PITS] {
    let mut bars = [0usize; BARS];
    let mut top = seeds + BARS;
    for j in (0..BARS).rev() {
        // The largest position b below the bar above with C(b, j + 1) <= index.
        let mut b = top - 1;
        while binomial(b, j + 1) > index {
            b -= 1;
        }
        index -= binomial(b, j + 1);
        bars[j] = b;
        top = b;
    }
    pits_of(seeds, &bars)
}

fn pits_of(seeds: usize, bars: &[usize; BARS]) -> [u8; PITS] {
    let mut pits = [0u8; PITS];
    let mut previous = 0usize;
    for j in 0..BARS {
        let start = if j == 0 { 0 } else { previous + 1 };
        pits[j] = (bars[j] - start) as u8;
        previous = bars[j];
    }
    pits[BARS] = (seeds + BARS - 1 - previous) as u8;
    pits
}

/// The boards of a layer from `start` on, in index order: the next board is found from the
/// previous one in a few steps, without unranking each.
pub struct Boards {
    seeds: usize,
    bars: [usize; BARS],
    remaining: u64,
}

impl Boards {
    /// The boards of the `seeds` layer with index `start..end`.
    pub fn new(seeds: usize, start: u64, end: u64) -> Boards {
        let end = end.min(layer_size(seeds));
        let pits = if start < end {
            unrank(seeds, start)
        } else {
            [0; PITS]
        };
        let mut bars = [0usize; BARS];
        let mut bar = 0usize;
        for j in 0..BARS {
            bar += pits[j] as usize;
            bars[j] = bar + j;
        }
        Boards {
            seeds,
            bars,
            remaining: end.saturating_sub(start),
        }
    }
}

impl Iterator for Boards {
    type Item = [u8; PITS];

    #[inline]
    fn next(&mut self) -> Option<[u8; PITS]> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let pits = pits_of(self.seeds, &self.bars);
        if self.remaining > 0 {
            // Colex successor: raise the lowest bar that can move up, put the ones below it back
            // at the bottom.
            let mut j = 0;
            while j + 1 < BARS && self.bars[j] + 1 == self.bars[j + 1] {
                j += 1;
            }
            self.bars[j] += 1;
            for (i, bar) in self.bars[..j].iter_mut().enumerate() {
                *bar = i;
            }
        }
        Some(pits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layer_sizes_are_stars_and_bars() {
        assert_eq!(layer_size(0), 1);
        assert_eq!(layer_size(1), 12);
        assert_eq!(layer_size(2), 78);
        assert_eq!(layer_size(48), 279_871_768_995);
    }

    #[test]
    fn every_board_of_small_layers_has_its_own_index_in_order() {
        for seeds in 0..=6 {
            let size = layer_size(seeds);
            let mut count = 0u64;
            for (i, pits) in Boards::new(seeds, 0, size).enumerate() {
                assert_eq!(pits.iter().map(|&s| s as usize).sum::<usize>(), seeds);
                assert_eq!(rank(&pits), i as u64, "{pits:?}");
                assert_eq!(unrank(seeds, i as u64), pits);
                count += 1;
            }
            assert_eq!(count, size);
        }
    }

    #[test]
    fn boards_from_the_middle_of_a_large_layer() {
        let seeds = 20;
        let start = layer_size(seeds) / 3;
        for (i, pits) in Boards::new(seeds, start, start + 1000).enumerate() {
            assert_eq!(rank(&pits), start + i as u64);
        }
        let last = layer_size(seeds) - 1;
        assert_eq!(unrank(seeds, last), {
            let mut pits = [0; PITS];
            pits[0] = 20;
            pits
        });
        assert_eq!(Boards::new(seeds, last, last + 5).count(), 1);
    }
}
