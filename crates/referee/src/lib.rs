//! The referee: plays matches between engine processes that speak the protocol, and reports
//! who is stronger and by how much.
//!
//! It owns the rules and distrusts engines: every move is checked against its own legal list,
//! every read has a deadline, every process is killed and reaped, every finished game is
//! recorded at once.

pub mod adjudicate;
pub mod conditions;
pub mod config;
pub mod crosstable;
pub mod engine;
pub mod export;
pub mod export_file;
pub mod game;
pub mod handshake;
pub mod openings;
pub mod pool;
pub mod ratings;
pub mod record;
pub mod report;
pub mod results;
pub mod schedule;
pub mod seat;
pub mod signal;
pub mod stats;
pub mod summary;
pub mod tournament;
