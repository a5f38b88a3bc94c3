//! The engine processes of a tournament, shared by its game slots: a game takes a seat of each
//! of its two engines and gives them back when it is over, so that a process plays game after
//! game (as fastchess's engine cache does) whichever slot plays them.
//!
//! A seat taken while none of its engine is idle is a new one (its process starts when the game
//! prepares it), so an engine has at most as many processes as games it plays at once. Idle
//! seats beyond twice the number of slots are closed, the longest idle first: with thirty
//! engines and four slots, at most eight processes wait at any time.

use std::path::PathBuf;
use std::sync::Mutex;

use crate::config::EngineSpec;
use crate::engine::log_path;
use crate::engine::seat::{Seat, StartSettings};

struct Idle {
    /// Per engine, its idle seats with the tick they were given back at.
    seats: Vec<Vec<(u64, Seat)>>,
    /// Per engine, the seats made so far (the number in each new seat's log name).
    made: Vec<usize>,
    tick: u64,
}

/// The seats of every engine.
pub struct Pool {
    specs: Vec<EngineSpec>,
    settings: StartSettings,
    log_dir: PathBuf,
    max_idle: usize,
    idle: Mutex<Idle>,
}

impl Pool {
    /// A pool of these engines for `slots` concurrent games, with no process yet.
    pub fn new(
        specs: Vec<EngineSpec>,
        settings: StartSettings,
        log_dir: PathBuf,
        slots: usize,
    ) -> Pool {
        let n = specs.len();
        Pool {
            specs,
            settings,
            log_dir,
            max_idle: 2 * slots.max(1),
            idle: Mutex::new(Idle {
                seats: (0..n).map(|_| Vec::new()).collect(),
                made: vec![0; n],
                tick: 0,
            }),
        }
    }

    /// A seat of engine `engine`: the one idle the shortest time, or a new one.
    pub fn take(&self, engine: usize) -> Seat {
        let mut idle = self.idle.lock().expect("no panic while holding the pool");
        if let Some((_, seat)) = idle.seats[engine].pop() {
            return seat;
        }
        let number = idle.made[engine];
        idle.made[engine] += 1;
        let spec = self.specs[engine].clone();
        let log = log_path(&self.log_dir, &spec.name, number);
        Seat::new(spec, log, self.settings.clone())
    }

    /// Gives a seat back after a game; closes the longest idle seat if too many wait.
    pub fn give_back(&self, engine: usize, seat: Seat) {
        let evicted = {
            let mut idle = self.idle.lock().expect("no panic while holding the pool");
            idle.tick += 1;
            let tick = idle.tick;
            idle.seats[engine].push((tick, seat));
            let waiting: usize = idle.seats.iter().map(Vec::len).sum();
            if waiting > self.max_idle {
                let oldest = (0..idle.seats.len())
                    .filter(|&e| !idle.seats[e].is_empty())
                    .min_by_key(|&e| idle.seats[e][0].0)
                    .expect("some seat waits");
                Some(idle.seats[oldest].remove(0).1)
            } else {
                None
            }
        };
        // Closing waits for the process to quit: not while holding the lock.
        if let Some(mut seat) = evicted {
            seat.close();
        }
    }

    /// The number of seats waiting, per engine.
    pub fn idle_counts(&self) -> Vec<usize> {
        let idle = self.idle.lock().expect("no panic while holding the pool");
        idle.seats.iter().map(Vec::len).collect()
    }

    /// Ends every idle seat: `quit`, then a kill after the grace period; or a kill at once
    /// with `kill` (the run was interrupted).
    pub fn close_all(&self, kill: bool) {
        let seats: Vec<Seat> = {
            let mut idle = self.idle.lock().expect("no panic while holding the pool");
            idle.seats
                .iter_mut()
                .flat_map(|s| s.drain(..).map(|(_, seat)| seat))
                .collect()
        };
        for mut seat in seats {
            if kill {
                seat.discard();
            } else {
                seat.close();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn pool(engines: usize, slots: usize) -> Pool {
        let specs = (0..engines)
            .map(|i| EngineSpec::parse(&[format!("name=e{i}"), "cmd=true".to_string()]).unwrap())
            .collect();
        let settings = StartSettings {
            game: pion_rules::GameKind::Awale,
            variant: None,
            startup_timeout: Duration::from_secs(1),
            isready_timeout: Duration::from_secs(1),
            quit_timeout: Duration::from_millis(10),
            log_all_info: false,
        };
        Pool::new(specs, settings, std::env::temp_dir(), slots)
    }

    #[test]
    fn seats_are_reused_and_made_only_when_none_waits() {
        let p = pool(3, 2);
        let a = p.take(0);
        let b = p.take(0);
        assert_eq!(a.spec.name, "e0");
        p.give_back(0, a);
        p.give_back(0, b);
        assert_eq!(p.idle_counts(), [2, 0, 0]);
        let _again = p.take(0);
        assert_eq!(p.idle_counts(), [1, 0, 0]);
        let other = p.take(2);
        assert_eq!(other.spec.name, "e2");
    }

    #[test]
    fn idle_seats_beyond_twice_the_slots_are_closed_oldest_first() {
        let p = pool(4, 1);
        let seats: Vec<(usize, Seat)> = (0..4).map(|e| (e, p.take(e))).collect();
        for (e, seat) in seats {
            p.give_back(e, seat);
        }
        // Two may wait with one slot: e0 and e1 were given back first and are gone.
        assert_eq!(p.idle_counts(), [0, 0, 1, 1]);
        p.close_all(false);
        assert_eq!(p.idle_counts(), [0, 0, 0, 0]);
    }
}
