//! pion-web: a web front end for engines that speak the pion protocol.
//!
//! The server is a transport: it serves a page and relays lines between the page's WebSocket
//! and engine processes started from the specs it was given. The page speaks protocol.md itself.

#![warn(missing_docs)]

pub mod assets;
pub mod guard;
pub mod oware_uci;
pub mod process;
pub mod records;
pub mod server;
pub mod session;
