//! The transposition table: a fixed array of four-entry clusters keyed by the Zobrist hash.
//!
//! Replacement: an entry for the same position is always overwritten; otherwise the first empty
//! slot, otherwise the slot with the least `depth - 8 * age` (stale entries from earlier searches
//! go first, then shallow ones). Proven entries count as very deep, since they stay exact at
//! any depth.
//!
//! Contexts: where a repeated position ends the game, a value depends on the positions met since
//! the last irreversible move (those a line may repeat), not on the position alone. A proven
//! value whose search met a repetition of a position above it is then stored for its *context*
//! (a fingerprint of that set of positions) under a key mixed with the context, in the cluster
//! of the position, and counts only when probed in that context. The position's own entry
//! serves every path (see docs/engine.md, "Repetitions in the table").

/// How a stored value bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is exact (it was inside the window).
    Exact,
    /// The true value is at least this (a beta cut-off).
    Lower,
    /// The true value is at most this (every move failed low).
    Upper,
}

/// What a probe finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The stored value (still relative to the stored node: see `value::from_table`).
    pub value: i32,
    /// The depth it was searched to.
    pub depth: u8,
    /// How the value bounds the true one.
    pub bound: Bound,
    /// The best move found, encoded by the game (0: none).
    pub mv: u16,
    /// Whether the value was computed without any heuristic leaf (valid at any depth).
    pub proven: bool,
}

#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    value: i32,
    mv: u16,
    depth: u8,
    /// Bits 0-1: bound (0 = empty slot); bit 2: proven; bits 3-7: age.
    flags: u8,
}

impl Entry {
    /// An entry with no age yet (the table sets it when storing).
    fn new(key: u64, depth: u8, value: i32, bound: Bound, mv: u16, proven: bool) -> Entry {
        let bits = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        Entry {
            key,
            value,
            mv,
            depth,
            flags: bits | (proven as u8) << 2,
        }
    }
}

const CLUSTER: usize = 4;

#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Cluster([Entry; CLUSTER]);

/// The table itself.
pub struct Table {
    clusters: Vec<Cluster>,
    age: u8,
}

impl Table {
    /// A table of about `mib` MiB (at least one cluster).
    pub fn new(mib: usize) -> Table {
        let count = (mib.max(1) << 20) / std::mem::size_of::<Cluster>();
        Table {
            clusters: vec![Cluster::default(); count.max(1)],
            age: 0,
        }
    }

    /// The size in MiB it was created with (rounded down).
    pub fn mib(&self) -> usize {
        (self.clusters.len() * std::mem::size_of::<Cluster>()) >> 20
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.clusters.fill(Cluster::default());
        self.age = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 31;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.clusters.len() as u128) >> 64) as usize
    }

    /// Asks the processor to start loading the cluster of `key`, so that a probe of several
    /// positions in a row waits for memory once rather than once per position.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let cluster: *const Cluster = &self.clusters[self.index(key)];
            // SAFETY: SSE is part of every x86_64 processor, and a prefetch only hints the
            // cache: it never faults, whatever the address (here a valid one).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(cluster.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks a position up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        self.find(key, key)
    }

    /// Looks a position up in `context` (0: the empty one): a proven entry stored for that
    /// context if there is one, otherwise the position's own entry.
    #[inline]
    pub fn probe_in(&self, key: u64, context: u64) -> Option<Hit> {
        if context == 0 {
            return self.probe(key);
        }
        self.find(key, context_key(key, context))
            .or_else(|| self.find(key, key))
    }

    /// Stores a proven value of the position `key` for `context` (0: the empty one, where the
    /// entry is the position's own).
    #[inline]
    pub fn store_proven(&mut self, key: u64, context: u64, depth: u8, value: i32, bound: Bound) {
        let stored = context_key(key, context);
        self.store_at(key, Entry::new(stored, depth, value, bound, 0, true));
    }

    #[inline]
    fn find(&self, key: u64, stored: u64) -> Option<Hit> {
        let cluster = &self.clusters[self.index(key)];
        cluster
            .0
            .iter()
            .find(|e| e.key == stored && e.flags & 3 != 0)
            .map(|e| Hit {
                value: e.value,
                depth: e.depth,
                bound: match e.flags & 3 {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    _ => Bound::Upper,
                },
                mv: e.mv,
                proven: e.flags & 4 != 0,
            })
    }

    /// Stores a search result; `mv` 0 keeps the move already stored for this position.
    #[inline]
    pub fn store(&mut self, key: u64, depth: u8, value: i32, bound: Bound, mv: u16, proven: bool) {
        self.store_at(key, Entry::new(key, depth, value, bound, mv, proven));
    }

    /// Stores `new` (its own key, the age not yet set) in the cluster of `key`.
    #[inline]
    fn store_at(&mut self, key: u64, new: Entry) {
        let age = self.age;
        let i = self.index(key);
        let key = new.key;
        let cluster = &mut self.clusters[i].0;
        let worth = |e: &Entry| -> i32 {
            if e.flags & 3 == 0 {
                return i32::MIN;
            }
            let stale = ((age as i32 - (e.flags >> 3) as i32) & 31) * 8;
            let depth = if e.flags & 4 != 0 {
                255
            } else {
                e.depth as i32
            };
            depth - stale
        };
        let slot = match cluster
            .iter()
            .position(|e| e.key == key && e.flags & 3 != 0)
        {
            Some(slot) => slot,
            None => (0..CLUSTER)
                .min_by_key(|&s| worth(&cluster[s]))
                .unwrap_or(0),
        };
        let entry = &mut cluster[slot];
        let mv = if new.mv == 0 && entry.key == key {
            entry.mv
        } else {
            new.mv
        };
        *entry = Entry {
            mv,
            flags: new.flags | age << 3,
            ..new
        };
    }

    /// The share of the first thousand slots used by the current search, per mille.
    pub fn hashfull(&self) -> u32 {
        let mut used = 0;
        let mut seen = 0;
        for cluster in self.clusters.iter().take(1000 / CLUSTER) {
            for e in &cluster.0 {
                seen += 1;
                if e.flags & 3 != 0 && e.flags >> 3 == self.age {
                    used += 1;
                }
            }
        }
        used * 1000 / seen.max(1)
    }
}

/// The key a proven value of the position `key` is stored under in `context`. The context is
/// mixed (not XORed as it is) so that a position and a context cannot trade places.
pub fn context_key(key: u64, context: u64) -> u64 {
    if context == 0 {
        return key;
    }
    // The finaliser of SplitMix64.
    let mut z = context.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    key ^ (z ^ (z >> 31)) ^ 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_then_probe_returns_the_entry() {
        let mut table = Table::new(1);
        assert_eq!(table.probe(42), None);
        table.store(42, 5, -17, Bound::Lower, 9, false);
        let hit = table.probe(42).expect("stored");
        assert_eq!(
            hit,
            Hit {
                value: -17,
                depth: 5,
                bound: Bound::Lower,
                mv: 9,
                proven: false
            }
        );
        // Same key: overwritten, and a missing move keeps the old one.
        table.store(42, 2, 30, Bound::Exact, 0, true);
        let hit = table.probe(42).unwrap();
        assert_eq!((hit.depth, hit.value, hit.mv, hit.proven), (2, 30, 9, true));
        assert_eq!(hit.bound, Bound::Exact);
        assert_eq!(table.probe(43), None);
    }

    #[test]
    fn a_proven_value_counts_only_in_its_context() {
        let mut table = Table::new(1);
        table.store(42, 3, 10, Bound::Exact, 5, false);
        table.store_proven(42, 7, 9, 2000, Bound::Lower);
        let hit = table.probe_in(42, 7).unwrap();
        assert_eq!(
            (hit.value, hit.proven, hit.bound),
            (2000, true, Bound::Lower)
        );
        // Another context sees the position's own entry.
        let other = table.probe_in(42, 8).unwrap();
        assert_eq!((other.value, other.proven, other.mv), (10, false, 5));
        assert_eq!(table.probe(42).unwrap().value, 10);
        assert_ne!(context_key(1, 2), context_key(2, 1));
    }

    #[test]
    fn a_full_cluster_evicts_the_shallowest_entry() {
        let mut table = Table::new(1);
        let n = table.clusters.len() as u128;
        // Keys that land in cluster 0: key * n < 2^64.
        let keys: Vec<u64> = (1..=5u64).collect();
        assert!(keys.iter().all(|&k| (k as u128 * n) >> 64 == 0));
        for (i, &k) in keys[..4].iter().enumerate() {
            table.store(k, [7, 3, 9, 5][i], 0, Bound::Exact, 1, false);
        }
        table.store(keys[4], 4, 0, Bound::Exact, 1, false);
        assert_eq!(table.probe(keys[1]), None, "depth 3 was the victim");
        for k in [keys[0], keys[2], keys[3], keys[4]] {
            assert!(table.probe(k).is_some());
        }
    }

    #[test]
    fn hashfull_counts_current_entries_and_clear_empties() {
        let mut table = Table::new(1);
        assert_eq!(table.hashfull(), 0);
        let n = table.clusters.len() as u64;
        // One key per cluster among the first 250 clusters fills a quarter of the sampled slots.
        for c in 0..250u64 {
            let key = ((c as u128) << 64).div_ceil(n as u128) as u64;
            table.store(key, 1, 0, Bound::Exact, 0, false);
        }
        assert_eq!(table.hashfull(), 250);
        table.new_search();
        assert_eq!(
            table.hashfull(),
            0,
            "entries of the previous search do not count"
        );
        table.clear();
        assert_eq!(table.probe(1), None);
    }
}
