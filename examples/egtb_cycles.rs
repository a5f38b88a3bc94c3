//! How often the databases' convention for cycles differs from pion's first-repetition rule
//! played out from the board with no history: every board of the layers up to `max`, by a full
//! search of every line (exponential, so small layers only).
//!
//! `cargo run --release --features lab --example egtb_cycles -- [max]` (default 4)

use pion::egtb::index::{Boards, layer_size};
use pion::egtb::solve::{Children, Quiet, children, own_row, solve_layer};
use pion_rules::awale::{PITS, Variant};

/// The value under the rules: a repetition ends the game on the repeated board, each side
/// getting its row.
fn first_repetition(pits: &[u8; PITS], path: &mut Vec<[u8; PITS]>) -> u8 {
    let mut kids = Children::default();
    children(pits, Variant::Standard, &mut kids);
    if kids.is_empty() {
        return 0;
    }
    if path.iter().rev().skip(1).step_by(2).any(|b| b == pits) {
        return own_row(pits);
    }
    let seeds: u8 = pits.iter().sum();
    path.push(*pits);
    let mut best = 0;
    for child in kids.iter() {
        let theirs = if child.iter().sum::<u8>() < seeds {
            first_repetition(child, &mut Vec::new())
        } else {
            first_repetition(child, path)
        };
        best = best.max(seeds - theirs);
    }
    path.pop();
    best
}

fn main() {
    let max: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("a seed count"))
        .unwrap_or(4);
    let mut layers = Vec::new();
    for k in 0..=max {
        let layer = solve_layer(k, Variant::Standard, &layers, 2, &Quiet);
        let (mut differ, mut sign) = (0, 0);
        for (i, pits) in Boards::new(k, 0, layer_size(k)).enumerate() {
            let rule = first_repetition(&pits, &mut Vec::new());
            let value = layer.entry(i).likely;
            if rule != value {
                differ += 1;
                // With equal captures, does the winner change?
                if (2 * rule as i32 - k as i32).signum() != (2 * value as i32 - k as i32).signum() {
                    sign += 1;
                }
            }
        }
        println!(
            "layer {k}: {} boards, {differ} differ from the first-repetition rule, {sign} of them in who wins with equal captures",
            layer_size(k)
        );
        layers.push(layer);
    }
}
