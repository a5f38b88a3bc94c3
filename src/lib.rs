//! pion's engine: the searches, the evaluations and the session behind the protocol.
//!
//! The rules live in `pion-rules` and the protocol's text in `pion-protocol`; this crate turns
//! typed commands into searches and typed replies. The `pion` binary is a thin front over it.

#![warn(missing_docs)]

pub mod book;
pub mod egtb;
pub mod engine;
pub mod eval;
pub mod options;
pub mod search;
