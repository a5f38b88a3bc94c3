//! One byte a board: a settled board's value, or a cycling board's entry by its number in the
//! layer's table (format 3, docs/egtb.md).
//!
//! A board with `lo == hi` is settled by play that ends: its byte is the value, at most the
//! layer's seed count `k`. A board with `lo < hi` can cycle: its byte is `k + 1 + n`, `n` the
//! number of its entry `(lo, hi, likely)` in the layer's table, `likely` the share it gets when
//! every repetition is scored on the board where play entered it (the Awari databases'
//! convention, between the bounds). A layer has room for `255 - k` entries. The bounds are few
//! (at most about a hundred pairs in a layer up to 22 seeds), the entries more (425 in the
//! 22-seed layer of grandslam-nocapture); a layer with more entries than room keeps every pair of
//! bounds with its most frequent likely share, then the most frequent other entries, and stores
//! each entry left out as the kept one with the same bounds and the nearest likely share, or
//! with the narrowest bounds that contain its own: the bounds may be looser, never wrong, and
//! only the estimate moves.

/// Bytes a layer's table takes in a file: room for 255 entries of three bytes.
pub const TABLE_BYTES: usize = 768;

/// What the databases know of a board: the share the side to move can force by play that ends
/// (`lo`), the most the opponent lets it have likewise (`hi`), and its likeliest share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The least share the side to move can force.
    pub lo: u8,
    /// The most share it can get if the opponent forces likewise.
    pub hi: u8,
    /// The likeliest share, `lo <= likely <= hi`: the value itself on a settled board.
    pub likely: u8,
}

impl Entry {
    /// A settled board's entry.
    pub fn settled(value: u8) -> Entry {
        Entry {
            lo: value,
            hi: value,
            likely: value,
        }
    }

    /// Whether play that ends settles the board.
    pub fn is_settled(&self) -> bool {
        self.lo == self.hi
    }
}

/// How many entries a layer of `seeds` seeds has room for.
pub fn room(seeds: usize) -> usize {
    255 - seeds.min(255)
}

/// The entry a byte stands for, given its layer's table and seed count. A byte that only a
/// damaged file can hold (a number past the table, an entry out of order) gives the widest
/// bounds rather than a wrong settled value.
#[inline]
pub fn entry(byte: u8, table: &[Entry], seeds: usize) -> Entry {
    let k = seeds as u8;
    if byte <= k {
        return Entry::settled(byte);
    }
    match table.get((byte - k - 1) as usize) {
        Some(&e) if e.lo < e.hi && e.hi <= k && (e.lo..=e.hi).contains(&e.likely) => e,
        _ => Entry {
            lo: 0,
            hi: k,
            likely: k / 2,
        },
    }
}

/// Codes a solved layer of `seeds` seeds: its bytes and its table.
pub fn encode(entries: &[Entry], seeds: usize) -> (Vec<u8>, Vec<Entry>) {
    use std::collections::HashMap;
    let k = seeds as u8;
    let mut count = HashMap::<Entry, u64>::new();
    for e in entries.iter().filter(|e| !e.is_settled()) {
        *count.entry(*e).or_default() += 1;
    }
    // The most frequent first, ties in the entries' order: the same table every time.
    let mut frequent: Vec<(Entry, u64)> = count.into_iter().collect();
    frequent.sort_by_key(|&(e, n)| (std::cmp::Reverse(n), e.lo, e.hi, e.likely));
    let room = room(seeds);
    let table: Vec<Entry> = if frequent.len() <= room {
        frequent.iter().map(|&(e, _)| e).collect()
    } else {
        // Every pair of bounds first (its most frequent entry), then the other entries.
        let mut firsts = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for &(e, _) in &frequent {
            if seen.insert((e.lo, e.hi)) {
                firsts.push(e);
            }
        }
        let widest = Entry {
            lo: 0,
            hi: k,
            likely: k / 2,
        };
        if firsts.len() >= room {
            firsts.truncate(room - 1);
            if !firsts.iter().any(|e| (e.lo, e.hi) == (0, k)) {
                firsts.push(widest);
            }
        }
        let mut table = firsts.clone();
        for &(e, _) in &frequent {
            if table.len() == room {
                break;
            }
            if !firsts.contains(&e) {
                table.push(e);
            }
        }
        table
    };
    let number = |e: Entry| -> usize {
        if let Some(n) = table.iter().position(|&t| t == e) {
            return n;
        }
        (0..table.len())
            .filter(|&n| table[n].lo <= e.lo && table[n].hi >= e.hi)
            .min_by_key(|&n| {
                let t = table[n];
                (t.hi - t.lo, t.likely.abs_diff(e.likely))
            })
            .expect("the widest bounds contain every entry")
    };
    let mut numbers = HashMap::new();
    let bytes = entries
        .iter()
        .map(|&e| {
            if e.is_settled() {
                e.lo
            } else {
                k + 1 + *numbers.entry(e).or_insert_with(|| number(e)) as u8
            }
        })
        .collect();
    (bytes, table)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(lo: u8, hi: u8, likely: u8) -> Entry {
        Entry { lo, hi, likely }
    }

    #[test]
    fn settled_boards_keep_their_value_and_cycling_boards_their_entry() {
        let entries = [
            Entry::settled(3),
            e(0, 4, 2),
            e(1, 2, 1),
            e(1, 2, 1),
            e(2, 4, 4),
            Entry::settled(0),
        ];
        let (bytes, table) = encode(&entries, 4);
        assert_eq!(bytes[0], 3);
        assert_eq!(bytes[5], 0);
        for (i, &want) in entries.iter().enumerate() {
            assert_eq!(entry(bytes[i], &table, 4), want, "board {i}");
        }
        // The most frequent entry is number 0, just past the seed count.
        assert_eq!(bytes[2], 5);
    }

    #[test]
    fn a_layer_with_more_entries_than_room_keeps_sound_bounds_and_near_estimates() {
        let k = 30u8;
        let mut entries = Vec::new();
        for lo in 0..k {
            for hi in lo + 1..=k {
                for likely in lo..=hi {
                    entries.push(e(lo, hi, likely));
                }
            }
        }
        assert!(entries.len() > room(k as usize));
        let (bytes, table) = encode(&entries, k as usize);
        assert_eq!(table.len(), room(k as usize));
        assert!(table.iter().any(|t| (t.lo, t.hi) == (0, k)));
        let mut exact = 0;
        for (i, want) in entries.iter().enumerate() {
            let got = entry(bytes[i], &table, k as usize);
            assert!(
                got.lo <= want.lo && got.hi >= want.hi,
                "{want:?} within {got:?}"
            );
            exact += usize::from(got == *want);
        }
        assert_eq!(exact, room(k as usize));
    }

    #[test]
    fn damaged_bytes_give_legal_entries() {
        assert_eq!(entry(5, &[], 10), Entry::settled(5));
        assert_eq!(entry(11, &[e(1, 2, 1)], 10), e(1, 2, 1));
        assert_eq!(entry(12, &[e(1, 2, 1)], 10), e(0, 10, 5));
        assert_eq!(entry(11, &[e(3, 12, 4)], 10), e(0, 10, 5));
        assert_eq!(entry(11, &[e(3, 5, 6)], 10), e(0, 10, 5));
    }
}
