//! Every process group started and not yet reaped, so that a server's shutdown (Ctrl-C, SIGTERM)
//! can kill them all whatever their owners are doing.

use std::collections::HashSet;
use std::sync::Mutex;

/// The process groups of every process started and not yet reaped.
static LIVE: Mutex<Option<HashSet<i32>>> = Mutex::new(None);

/// Notes a new group.
pub(crate) fn register(pid: i32) {
    LIVE.lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashSet::new)
        .insert(pid);
}

/// Forgets a group: called before its leader is reaped, so that [`kill_all`] (which signals
/// while holding the same lock) never signals a pid that may have been given to another process.
pub(crate) fn unregister(pid: i32) {
    if let Some(set) = LIVE.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
        set.remove(&pid);
    }
}

/// Sends SIGKILL to every process group still alive; returns how many there were.
pub fn kill_all() -> usize {
    let live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    let groups: Vec<i32> = live.iter().flatten().copied().collect();
    for &pid in &groups {
        // SAFETY: killpg only sends a signal; the group is not reaped (see `unregister`).
        unsafe {
            libc::killpg(pid, libc::SIGKILL);
        }
    }
    groups.len()
}

/// The number of processes started and not yet reaped.
pub fn live_count() -> usize {
    LIVE.lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .map_or(0, HashSet::len)
}
