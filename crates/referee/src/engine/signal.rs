//! Ctrl-C and SIGTERM: a flag that every wait of the referee looks at.
//!
//! The handler only stores to an atomic (async-signal-safe); the workers see the flag within a
//! poll interval, abandon the games in progress, kill their engines, and the main thread prints
//! the summary of the finished games. A crate (ctrlc) would add a thread and a pipe for the same.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Installs the handler for SIGINT and SIGTERM.
pub fn install() {
    // SAFETY: the handler is async-signal-safe (one atomic store); sigaction is given a zeroed,
    // then filled, struct.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_signal as *const () as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut());
        libc::sigaction(libc::SIGTERM, &action, std::ptr::null_mut());
    }
}

/// Whether Ctrl-C (or SIGTERM) was received.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
