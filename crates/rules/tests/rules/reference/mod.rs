//! Slow, obvious implementations of both games, written from the rules text (protocol.md's
//! "Games and notation") and not from the fast code, so that the differential tests compare two
//! independent readings.

pub mod avalam;
pub mod awale;
