//! The evaluations: what the search knows about each game beyond its rules.

pub mod avalam;
pub mod awale;
mod awale_exact;
