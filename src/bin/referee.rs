//! The `referee` binary: plays matches between engine processes (not built yet).

fn main() {
    eprintln!("referee: not built yet");
    std::process::exit(2);
}
