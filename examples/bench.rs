//! Runs the search bench and prints per-game figures: `cargo run --release --features lab --example bench [depth]`.

mod common;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth = common::arg(&args, 1, "depth", "usage: bench [depth]");
    let report = pion::search::bench::bench(depth);
    println!(
        "avalam nodes {} time {} nps {}",
        report.avalam.nodes,
        report.avalam.time_ms,
        report.avalam.nps()
    );
    println!(
        "awale nodes {} time {} nps {}",
        report.awale.nodes,
        report.awale.time_ms,
        report.awale.nps()
    );
    println!("{report}");
}
