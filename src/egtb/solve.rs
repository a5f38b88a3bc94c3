//! Retrograde analysis of one layer: every board with `k` seeds, the side to move's row first.
//!
//! The value of a board is how many of its `k` seeds the side to move ends with under best play
//! (captured from now on, or left on its side when the game ends). A move that captures leads to a
//! smaller layer, already solved; a move that does not stays in the layer, and those moves can
//! cycle. Either way the mover ends with `k` less the opponent's share of the child.
//!
//! Within a layer two bounds are iterated to their fixpoint from below and above:
//! `lo` is what the mover can force by play that ends, whatever the opponent does, and `k - hi`
//! what the opponent can force likewise. A capture counts by the smaller layer's bounds of its
//! child, not by a value: a board whose every line leaves the layer by a capture into a board
//! that cycles is not settled either. A board with `lo == hi` is settled by play that ends
//! (every line ends, under any rule for repetitions); between the two, both sides can keep the game inside the layer and
//! neither can leave it without doing worse, so the game goes on until a position repeats, and
//! the repetition gives each side the seeds on its own row. Such a board keeps both bounds, and
//! a likeliest share between them: the value it would have if every repetition were scored on
//! the board where play entered the cycle, `max(lo, min(hi, own row))` for bounds computed with
//! the captures counted by their children's likeliest shares (the convention of the Awari
//! databases; see `code`, and docs/egtb.md for what this means and how it is tested).

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use super::code::Entry;
use super::index::{Boards, layer_size, rank};
use super::layer::Layer;
use pion_rules::awale::{Awale, PITS, Variant};
use pion_rules::game::{Game, Player};

/// The children of a board: at most six moves.
pub type Children = pion_rules::game::MoveList<[u8; PITS], 6>;

/// The children of a board whose side to move owns pits 0..6, each as the board seen by the
/// opponent (its row first); empty when the side to move has no seed (the game is over).
pub fn children(pits: &[u8; PITS], variant: Variant, out: &mut Children) {
    out.clear();
    let seeds: u32 = pits.iter().map(|&s| s as u32).sum();
    // Captures split so that neither side is past 24: the database plays every game to its end.
    let captured = 48 - seeds;
    let split = [(captured / 2) as u8, (captured - captured / 2) as u8];
    let position = Awale::from_parts(*pits, split, Player::One, variant);
    let mut moves = <Awale as Game>::Moves::default();
    position.legal_moves(&mut moves);
    for &mv in moves.iter() {
        let mut child = position;
        child.play(mv);
        out.push(turn(child.pits()));
    }
}

/// The board seen from the other side: its row first.
#[inline]
pub fn turn(pits: &[u8; PITS]) -> [u8; PITS] {
    let mut turned = [0; PITS];
    turned[..6].copy_from_slice(&pits[6..]);
    turned[6..].copy_from_slice(&pits[..6]);
    turned
}

/// Seeds on the side to move's row.
#[inline]
pub fn own_row(pits: &[u8; PITS]) -> u8 {
    pits[..6].iter().sum()
}

#[inline]
fn seeds_of(pits: &[u8; PITS]) -> usize {
    pits.iter().map(|&s| s as usize).sum()
}

/// Progress of a layer's solution, for a progress bar.
pub trait Progress: Sync {
    /// `boards` more boards have had their moves generated once.
    fn advance(&self, boards: u64);
    /// A sweep over the unsettled boards ended, changing `changed` bounds.
    fn sweep(&self, number: u32, changed: u64);
}

/// No progress report.
pub struct Quiet;

impl Progress for Quiet {
    fn advance(&self, _: u64) {}
    fn sweep(&self, _: u32, _: u64) {}
}

/// No child in this slot.
const NONE: u32 = u32::MAX;
/// In-layer children kept per board: at most six moves.
const SLOTS: usize = 6;

/// Bits of a set of boards, shared by the threads.
struct Bits(Vec<AtomicU64>);

impl Bits {
    fn new(size: usize, set: bool) -> Bits {
        let word = if set { u64::MAX } else { 0 };
        Bits(
            (0..size.div_ceil(64))
                .map(|_| AtomicU64::new(word))
                .collect(),
        )
    }

    #[inline]
    fn get(&self, i: usize) -> bool {
        self.0[i / 64].load(Ordering::Relaxed) >> (i % 64) & 1 != 0
    }

    #[inline]
    fn set(&self, i: usize) {
        self.0[i / 64].fetch_or(1 << (i % 64), Ordering::Relaxed);
    }
}

/// Solves the layer of `seeds` seeds; `lower[j]` holds the solved layer of `j` seeds for every
/// `j < seeds`. The work is split over `threads` threads.
pub fn solve_layer(
    seeds: usize,
    variant: Variant,
    lower: &[Layer],
    threads: usize,
    progress: &dyn Progress,
) -> Layer {
    Layer::from_entries(seeds, &solve(seeds, variant, lower, threads, progress))
}

/// Every board's entry in the layer of `seeds` seeds (see the module comment): `lo` what the
/// side to move can force by play that ends, `k - hi` what the opponent can, so that whatever
/// the rule that scores a repetition, the value under best play lies between them; and the
/// likeliest share, the value when every repetition is scored on the board where play entered
/// it and every capture counts by its child's likeliest share.
///
/// One pass generates every board's moves, scores the captures from the smaller layers and
/// keeps the indices of the children inside the layer (4 bytes a move); two fixpoints then read
/// only those, one for the bounds and one for the likeliest shares.
pub fn solve(
    seeds: usize,
    variant: Variant,
    lower: &[Layer],
    threads: usize,
    progress: &dyn Progress,
) -> Vec<Entry> {
    assert!(lower.len() >= seeds, "the smaller layers come first");
    let size = layer_size(seeds) as usize;
    assert!(size < NONE as usize, "a layer's indices fit in 32 bits");
    let k = seeds as u8;
    let threads = threads.max(1);
    // Chunks of whole 64-board words, so that each thread owns its words of the bit sets.
    let chunk = size.div_ceil(threads).div_ceil(64).max(1) * 64;
    // The best the mover gets by a capture ((0, 0) without one): by the children's bounds, and
    // by their likeliest shares.
    let mut by_bounds = vec![(0u8, 0u8); size];
    let mut by_likely = vec![0u8; size];
    let mut edges = vec![NONE; size * SLOTS];
    std::thread::scope(|scope| {
        for (t, ((by_bounds, by_likely), edges)) in by_bounds
            .chunks_mut(chunk)
            .zip(by_likely.chunks_mut(chunk))
            .zip(edges.chunks_mut(chunk * SLOTS))
            .enumerate()
        {
            scope.spawn(move || {
                let start = t * chunk;
                let mut kids = Children::default();
                let mut counted = 0;
                for (offset, pits) in
                    Boards::new(seeds, start as u64, (start + edges.len() / SLOTS) as u64)
                        .enumerate()
                {
                    children(&pits, variant, &mut kids);
                    let (mut best_lo, mut best_hi, mut best_likely) = (0u8, 0u8, 0u8);
                    let mut inner = 0;
                    for child in kids.iter() {
                        let child_seeds = seeds_of(child);
                        if child_seeds == seeds {
                            edges[offset * SLOTS + inner] = rank(child) as u32;
                            inner += 1;
                        } else {
                            // The opponent can force `lo` there and be held to `hi`.
                            let e = lower[child_seeds].entry(rank(child) as usize);
                            best_lo = best_lo.max(k - e.hi);
                            best_hi = best_hi.max(k - e.lo);
                            best_likely = best_likely.max(k - e.likely);
                        }
                    }
                    by_bounds[offset] = (best_lo, best_hi);
                    by_likely[offset] = best_likely;
                    counted += 1;
                    if counted == 1 << 16 {
                        progress.advance(counted);
                        counted = 0;
                    }
                }
                progress.advance(counted);
            });
        }
    });
    let (lo, hi) = fixpoint(k, |i| by_bounds[i], &edges, threads, chunk, progress);
    drop(by_bounds);
    let likely_base = |i: usize| (by_likely[i], by_likely[i]);
    let (likely_lo, likely_hi) = fixpoint(k, likely_base, &edges, threads, chunk, progress);
    drop(edges);
    Boards::new(seeds, 0, size as u64)
        .enumerate()
        .map(|(i, pits)| {
            let likely = likely_lo[i].max(likely_hi[i].min(own_row(&pits)));
            Entry {
                lo: lo[i],
                hi: hi[i],
                // Between the bounds: the captures' likeliest shares lie within theirs.
                likely: likely.clamp(lo[i], hi[i]),
            }
        })
        .collect()
}

/// The least and greatest fixpoint of the bounds of a layer whose board `i` gets `base(i)` by
/// its best capture (`(0, 0)` without one) and moves to the boards `edges` lists inside the
/// layer. A board is looked at again only when one of its children changed in the sweep before.
fn fixpoint(
    k: u8,
    base: impl Fn(usize) -> (u8, u8) + Sync,
    edges: &[u32],
    threads: usize,
    chunk: usize,
    progress: &dyn Progress,
) -> (Vec<u8>, Vec<u8>) {
    let size = edges.len() / SLOTS;
    let lo: Vec<AtomicU8> = (0..size).map(|i| AtomicU8::new(base(i).0)).collect();
    // A board with no move inside the layer (the end of the game, or captures only) has the
    // bounds of its captures from the start.
    let hi: Vec<AtomicU8> = (0..size)
        .map(|i| {
            AtomicU8::new(if edges[i * SLOTS] == NONE {
                base(i).1
            } else {
                k
            })
        })
        .collect();
    // Boards whose bounds changed in the last sweep: at first, every board.
    let mut changed_before = Bits::new(size, true);
    let mut sweep = 0;
    loop {
        sweep += 1;
        let changed_now = Bits::new(size, false);
        let changed = AtomicU64::new(0);
        std::thread::scope(|scope| {
            for t in 0..threads {
                let (lo, hi, base) = (&lo, &hi, &base);
                let (before, now, changed) = (&changed_before, &changed_now, &changed);
                scope.spawn(move || {
                    let mut count = 0;
                    for i in t * chunk..((t + 1) * chunk).min(size) {
                        let (old_lo, old_hi) =
                            (lo[i].load(Ordering::Relaxed), hi[i].load(Ordering::Relaxed));
                        if old_lo == old_hi {
                            continue;
                        }
                        let kids = &edges[i * SLOTS..(i + 1) * SLOTS];
                        let kids = &kids[..kids.iter().take_while(|&&c| c != NONE).count()];
                        if sweep > 1 && !kids.iter().any(|&c| before.get(c as usize)) {
                            continue;
                        }
                        let (mut new_lo, mut new_hi) = base(i);
                        for &c in kids {
                            let c = c as usize;
                            new_lo = new_lo.max(k - hi[c].load(Ordering::Relaxed));
                            new_hi = new_hi.max(k - lo[c].load(Ordering::Relaxed));
                        }
                        // Bounds only tighten: a value read from another thread may be a sweep
                        // old, which is a looser bound, never a wrong one; its change is seen
                        // in the next sweep.
                        if new_lo > old_lo || new_hi < old_hi {
                            lo[i].store(new_lo.max(old_lo), Ordering::Relaxed);
                            hi[i].store(new_hi.min(old_hi), Ordering::Relaxed);
                            now.set(i);
                            count += 1;
                        }
                    }
                    changed.fetch_add(count, Ordering::Relaxed);
                });
            }
        });
        let changed = changed.into_inner();
        progress.sweep(sweep, changed);
        if changed == 0 {
            break;
        }
        changed_before = changed_now;
    }
    (
        lo.into_iter().map(AtomicU8::into_inner).collect(),
        hi.into_iter().map(AtomicU8::into_inner).collect(),
    )
}
