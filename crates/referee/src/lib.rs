//! The referee: plays matches between engine processes that speak the protocol, and reports
//! who is stronger and by how much.
//!
//! It owns the rules and distrusts engines: every move is checked against its own legal list,
//! every read has a deadline, every process is killed and reaped, every finished game is
//! recorded at once.
//!
//! Its parts, grouped as fastchess groups its own: [`engine`] (the conversation with one
//! engine process), [`run`] (one game, its openings, the plan and the runner of a match or a
//! tournament), [`record`] (the records of finished games and their export), [`report`]
//! (summaries, standings, ratings and statistics built from records), and [`config`], the
//! settings all of them share.

pub mod cli;
pub mod config;
pub mod engine;
pub mod record;
pub mod report;
pub mod run;
