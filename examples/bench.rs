//! Runs the search bench and prints per-game figures: `cargo run --release --example bench [depth]`.

fn main() {
    let depth = std::env::args().nth(1).and_then(|d| d.parse().ok());
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
