//! The rules of pion's games: the [`game::Game`] trait and its parts, Avalam, Awale and perft.
//!
//! Rules code is pure: it never prints and never searches. Everything a front end or a search
//! needs to know about a position comes from here.

#![warn(missing_docs)]

pub mod avalam;
pub mod awale;
pub mod game;
mod kind;
pub mod zobrist;

pub use kind::GameKind;
