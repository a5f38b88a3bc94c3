//! What the referee's end-to-end tests share: where the binaries and the repository's files are.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The `referee` binary under test.
pub const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// The `pion` binary, built beside `referee` by `cargo test` at the workspace root (it belongs to
/// another package of the workspace, so Cargo gives no `CARGO_BIN_EXE_pion` here).
pub fn pion() -> String {
    let path = Path::new(REFEREE).with_file_name(format!("pion{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: run the tests from the workspace root (cargo test --release), which builds pion too",
        path.display()
    );
    path.display().to_string()
}

/// The repository's root, where `scripts/` and `openings/` are.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}
