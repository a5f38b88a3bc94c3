//! Games from cycle positions the databases prove at least drawn (`pion::egtb::cycles`): the
//! side with the databases against the same search without them, both at a fixed depth, with
//! and without the databases' cycle marks. Usage:
//! `cargo run --release --features lab --example cycle_games -- [MAX_SEEDS] [COUNT] [DEPTH] [VARIANT]`.

use pion::egtb::cycles::{build_into, play_out, proven_cycles};
use pion_rules::awale::Awale;
use pion_rules::game::Game;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: usize| {
        args.get(i)
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let (max_seeds, count, depth) = (number(0, 10), number(1, 20), number(2, 8) as u32);
    let variant = args.get(3).map_or(Default::default(), |v| {
        Awale::parse_variant(v).expect("a variant")
    });
    for marks in [false, true] {
        let dir = std::env::temp_dir().join(format!("pion-cycles-{}-{marks}", std::process::id()));
        let layers = build_into(&dir, variant, max_seeds, marks).expect("built");
        let (mut wins, mut draws, mut losses, mut repeated, mut cut) = (0, 0, 0, 0, 0);
        for seeds in (max_seeds - 2)..=max_seeds {
            for (position, _) in proven_cycles(&layers, variant, seeds, count) {
                match play_out(position, &dir, depth, 400) {
                    None => cut += 1,
                    Some((points, repetition)) => {
                        repeated += usize::from(repetition);
                        match points[0].cmp(&points[1]) {
                            std::cmp::Ordering::Greater => wins += 1,
                            std::cmp::Ordering::Equal => draws += 1,
                            std::cmp::Ordering::Less => {
                                losses += 1;
                                println!(
                                    "lost: {} {} ({points:?}, repetition {repetition})",
                                    position.format_position(),
                                    1
                                );
                            }
                        }
                    }
                }
            }
        }
        println!(
            "marks {marks}: {wins} wins, {draws} draws, {losses} losses ({repeated} by repetition), {cut} cut at 400 plies"
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}
