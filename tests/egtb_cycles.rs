//! No lost cycles: from cycle positions the databases prove at least drawn for the side to
//! move (`pion::egtb::cycles`), pion with its databases plays against the same search without
//! them, which sees repetitions on its path and steers to those that favour it. Databases
//! without the cycle marks take every value as exact, the repetition's too, and lose such
//! games by repetition (23-25, as pion did against Aalina); the marks make pion search those
//! boards instead. One test: the databases are installed for the whole process.

use pion::egtb::cycles::{build_into, play_out, proven_cycles};
use pion_rules::awale::Variant;

/// Losses of the side with the databases, and the positions lost.
fn losses(marks: bool) -> (usize, usize, Vec<String>) {
    let dir = std::env::temp_dir().join(format!("pion-cycles-{}-{marks}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let variant = Variant::GrandSlamNoCapture;
    let layers = build_into(&dir, variant, 10, marks).expect("built");
    let (mut played, mut lost) = (0, Vec::new());
    for seeds in 8..=10 {
        for (position, _) in proven_cycles(&layers, variant, seeds, 20) {
            let (points, repetition) = play_out(position, &dir, 8, 400).expect("a game ends");
            played += 1;
            if points[0] < points[1] {
                lost.push(format!("{position:?}: {points:?}, repetition {repetition}"));
            }
        }
    }
    let _ = std::fs::remove_dir_all(dir);
    (played, lost.len(), lost)
}

#[test]
fn cycle_positions_proven_drawn_are_not_lost_by_repetition() {
    let (played, unmarked, _) = losses(false);
    let (played_marked, marked, lost) = losses(true);
    assert_eq!((played, played_marked), (60, 60));
    // Measured: 8 of 60 lost without the marks, 1 with them (docs/egtb.md): the one left is a
    // cycle longer than the depth-8 search, which only the bounds themselves could settle.
    assert!(
        unmarked >= 4,
        "the set must hold the damage: {unmarked} lost unmarked"
    );
    assert!(marked <= 1, "{marked} of 60 lost with the marks: {lost:?}");
}
