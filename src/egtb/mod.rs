//! Awale endgame databases: the exact value of every board with few seeds left, by retrograde
//! analysis (docs/egtb.md).

/// Where `pion egtb build` writes and `verify` reads by default (out of git, under target/).
pub const DEFAULT_DIR: &str = "target/egtb";

pub mod build;
pub mod file;
pub mod index;
pub mod reference;
pub mod solve;
pub mod tables;

#[cfg(test)]
mod tests;
