//! Finding the binaries a test runs, also those of other packages of the workspace.

#![allow(dead_code)]

use std::path::PathBuf;

/// The directory cargo puts binaries in for this build: the parent of the test executable's
/// `deps/` directory (as assert_cmd's `cargo_bin` finds it).
pub fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its own path");
    let deps = exe.parent().expect("the test executable is in deps/");
    deps.parent()
        .expect("deps/ is in the target directory")
        .to_path_buf()
}

/// The path of binary `name` built next to this test; a clear failure when it was not built.
pub fn binary(name: &str) -> PathBuf {
    let path = target_dir().join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "{} is missing: build it first (cargo build --workspace, or cargo test --workspace), \
         since a test builds only its own package's binaries",
        path.display()
    );
    path
}
