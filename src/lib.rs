//! pion: a game engine for Avalam and Awale.
//!
//! The library holds everything: the rules behind one [`game::Game`] trait, the searches, the
//! protocol parser and formatter, the engine session and the referee. The two binaries are thin
//! command-line front ends over it.

#![warn(missing_docs)]

pub mod avalam;
pub mod awale;
pub mod cli;
pub mod engine;
pub mod game;
pub mod protocol;
pub mod referee;
pub mod search;
pub mod zobrist;
