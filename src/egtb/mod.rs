//! Awale endgame databases: the exact value of every board with few seeds left, by retrograde
//! analysis (docs/egtb.md).

pub mod file;
pub mod index;
pub mod reference;
pub mod solve;
pub mod tables;

#[cfg(test)]
mod tests;
