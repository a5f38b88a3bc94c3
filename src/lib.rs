//! pion: a game engine for Avalam and Awale.
//!
//! The library holds everything: the rules behind one [`game::Game`] trait, the searches, the
//! protocol parser and formatter, the engine session and the referee. The two binaries are thin
//! command-line front ends over it.

pub mod avalam;
pub mod awale;
pub mod game;
pub mod referee;
pub mod search;
pub mod zobrist;
