use super::code::Entry;
use super::index::{Boards, layer_size};
use super::layer::Layer;
use super::reference::{Exhaustive, thresholds};
use super::solve::{Quiet, solve_layer};
use pion_rules::awale::Variant;

use super::VARIANTS;

fn solve_up_to(seeds: usize, variant: Variant) -> Vec<Layer> {
    let mut layers = Vec::new();
    for k in 0..=seeds {
        let layer = solve_layer(k, variant, &layers, 2, &Quiet);
        layers.push(layer);
    }
    layers
}

/// Every board's likeliest share (its value where it is settled).
fn values_up_to(seeds: usize, variant: Variant) -> Vec<Vec<u8>> {
    solve_up_to(seeds, variant)
        .iter()
        .map(|layer| (0..layer.len()).map(|i| layer.entry(i).likely).collect())
        .collect()
}

#[test]
fn every_board_without_a_cycle_has_the_value_of_the_exhaustive_search() {
    for &variant in VARIANTS {
        let seeds = 6;
        let layers = values_up_to(seeds, variant);
        let mut exhaustive = Exhaustive::new(variant);
        let mut checked = 0;
        for (k, layer) in layers.iter().enumerate() {
            for (i, pits) in Boards::new(k, 0, layer_size(k)).enumerate() {
                if let Some(want) = exhaustive.value(&pits) {
                    assert_eq!(layer[i], want, "{variant:?} {pits:?}");
                    checked += 1;
                }
            }
        }
        // About one board in eight up to 6 seeds can reach no repetition (2267 of 18564 in
        // the standard rules): the comparison must cover them.
        let total: u64 = (0..=seeds).map(layer_size).sum();
        assert!(checked * 10 > total, "{variant:?}: {checked} of {total}");
    }
}

#[test]
fn every_board_has_the_entry_of_the_per_threshold_sets() {
    for &variant in VARIANTS {
        let seeds = 7;
        let entries: Vec<Vec<Entry>> = solve_up_to(seeds, variant)
            .iter()
            .map(|layer| (0..layer.len()).map(|i| layer.entry(i)).collect())
            .collect();
        let want = thresholds(seeds, variant);
        assert_eq!(entries, want, "{variant:?}");
        let cycling = want.iter().flatten().filter(|e| !e.is_settled()).count();
        // The likeliest share is not always a bound: the two computations differ.
        let inside = want
            .iter()
            .flatten()
            .filter(|e| e.lo < e.likely && e.likely < e.hi)
            .count();
        assert!(
            cycling > 1000 && inside > 100,
            "{variant:?}: {cycling} cycle, {inside}"
        );
    }
}
