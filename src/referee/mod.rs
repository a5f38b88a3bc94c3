//! The referee: everything that plays matches between engine processes and reports on them.

pub mod stats;
