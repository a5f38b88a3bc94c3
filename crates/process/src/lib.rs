//! pion-process: the one process layer of pion. The referee, pion-web and `pion play` start the
//! programs they talk to through it.
//!
//! A [`Process`] is a child program spoken to in lines. It runs in its own process group with
//! Linux's parent-death signal; its output lines are cut at a length; a write never blocks the
//! caller (a bounded queue, and a deadline on each write); its exit is seen even when something
//! it started still holds its output open; and its group is signalled only while its pid is
//! still ours (never after it was reaped). Nothing here knows what the lines mean.

#![warn(missing_docs)]

mod clock;
mod lines;
mod process;
mod registry;
mod tests;
mod threads;

pub use clock::utc_timestamp;
pub use lines::{STDERR_TAIL, read_capped_line};
pub use process::{Event, Launch, Line, Output, Process, ReadError, SendError, SpawnError};
pub use registry::{kill_all, live_count};
pub use threads::Sink;
