//! Tournament planning, a pure function of the engines, the format, the rounds and the shard.
//!
//! A *pairing* is two engines that meet; each pairing plays `rounds` colour-swapped pairs of
//! games, and round `r` of every pairing starts from opening `r`, so that every pairing sees
//! the same openings. The pair of round `r` and pairing `p` (of `P`) is pair `r·P + p` of the
//! tournament, and its games are `2·pair` (the pairing's first engine is player 1) and
//! `2·pair + 1`: the numbering of a two-engine match, so records, `--resume`, `--shard` and
//! `merge` treat a tournament's games as they treat a match's.
//!
//! The order of play is by round, then by colour, then pairing by pairing in the order of a
//! round-robin "circle" table, where consecutive pairings have no engine in common as long as
//! there are engines to spare. The unit of work is one game, taken from the front of the list by
//! whichever game slot is free, so `--concurrency N` keeps N games running until fewer than N
//! are left: no pairing is left to play alone at the end.

use serde::Serialize;

use crate::config::Shard;

/// Who meets whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every engine meets every other.
    RoundRobin,
    /// The first engine meets each of the others, and they do not meet each other.
    Gauntlet,
}

impl Format {
    /// Parses `round-robin` or `gauntlet`.
    pub fn parse(text: &str) -> Result<Format, String> {
        match text {
            "round-robin" | "roundrobin" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            _ => Err(format!(
                "bad --tournament '{text}': expected 'round-robin' or 'gauntlet'"
            )),
        }
    }

    /// The word used on the command line and in records.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        }
    }
}

/// One game of the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Planned {
    /// Index of the game in the whole tournament.
    pub game: u64,
    /// Index of its pair (`game / 2`).
    pub pair: u64,
    /// The round, which is also the index of the opening.
    pub round: u64,
    /// Index of the pairing in [`pairings`].
    pub pairing: usize,
    /// Engine indices of player 1 and player 2.
    pub players: [usize; 2],
}

/// The pairings of `engines` engines in circle order; each names the lower engine index first.
pub fn pairings(format: Format, engines: usize) -> Vec<[usize; 2]> {
    match format {
        Format::Gauntlet => (1..engines).map(|j| [0, j]).collect(),
        Format::RoundRobin => circle(engines),
    }
}

/// The round-robin table by the circle method: with an even count `m` of seats (one empty seat
/// when `n` is odd), seat `m - 1` stays and the others turn one place per round.
fn circle(n: usize) -> Vec<[usize; 2]> {
    if n < 2 {
        return Vec::new();
    }
    let m = n + n % 2;
    let mut seats: Vec<usize> = (0..m).collect();
    let mut out = Vec::with_capacity(n * (n - 1) / 2);
    for _ in 0..m - 1 {
        for i in 0..m / 2 {
            let (a, b) = (seats[i], seats[m - 1 - i]);
            if a < n && b < n {
                out.push([a.min(b), a.max(b)]);
            }
        }
        seats[..m - 1].rotate_right(1);
    }
    out
}

/// The games of a tournament (of this shard, if any), in the order they are to be started.
pub fn plan(format: Format, engines: usize, rounds: u64, shard: Option<Shard>) -> Vec<Planned> {
    let table = pairings(format, engines);
    let count = table.len() as u64;
    let mut out = Vec::new();
    for round in 0..rounds {
        for colour in 0..2u64 {
            for (index, pairing) in table.iter().enumerate() {
                let pair = round * count + index as u64;
                if shard.is_some_and(|s| !s.owns(pair)) {
                    continue;
                }
                let players = if colour == 0 {
                    *pairing
                } else {
                    [pairing[1], pairing[0]]
                };
                out.push(Planned {
                    game: 2 * pair + colour,
                    pair,
                    round,
                    pairing: index,
                    players,
                });
            }
        }
    }
    out
}

/// Games of the whole tournament (all shards).
pub fn total_games(format: Format, engines: usize, rounds: u64) -> u64 {
    2 * rounds * pairings(format, engines).len() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{HashMap, HashSet};

    #[test]
    fn a_round_robin_pairs_every_two_engines_once() {
        for n in 2..=9 {
            let table = pairings(Format::RoundRobin, n);
            assert_eq!(table.len(), n * (n - 1) / 2, "{n} engines");
            let set: HashSet<[usize; 2]> = table.iter().copied().collect();
            assert_eq!(set.len(), table.len(), "{n} engines: a pairing twice");
            assert!(table.iter().all(|[a, b]| a < b && *b < n));
        }
    }

    #[test]
    fn consecutive_pairings_of_a_circle_round_share_no_engine() {
        for n in 4..=8 {
            let table = pairings(Format::RoundRobin, n);
            for round in table.chunks(n / 2) {
                let engines: HashSet<usize> = round.iter().flatten().copied().collect();
                assert_eq!(engines.len(), 2 * round.len(), "{n} engines: {round:?}");
            }
        }
    }

    #[test]
    fn a_gauntlet_pairs_the_first_engine_with_each_other() {
        assert_eq!(pairings(Format::Gauntlet, 4), vec![[0, 1], [0, 2], [0, 3]]);
        assert_eq!(total_games(Format::Gauntlet, 4, 5), 30);
    }

    #[test]
    fn every_pairing_plays_both_colours_on_each_opening() {
        let games = plan(Format::RoundRobin, 5, 3, None);
        assert_eq!(games.len() as u64, total_games(Format::RoundRobin, 5, 3));
        assert_eq!(games.len(), 10 * 3 * 2);
        let mut seen = HashMap::new();
        for g in &games {
            assert_eq!(g.pair, g.game / 2);
            let pairing = pairings(Format::RoundRobin, 5)[g.pairing];
            let first = if g.game % 2 == 0 {
                pairing[0]
            } else {
                pairing[1]
            };
            assert_eq!(g.players[0], first);
            let mut sorted = g.players;
            sorted.sort();
            assert_eq!(sorted, pairing);
            *seen.entry((g.pairing, g.round, g.players[0])).or_insert(0) += 1;
        }
        // Each pairing, each round (opening), each engine as player 1 exactly once.
        assert_eq!(seen.len(), 60);
        assert!(seen.values().all(|&c| c == 1));
        let numbers: HashSet<u64> = games.iter().map(|g| g.game).collect();
        assert_eq!(numbers, (0..60).collect());
    }

    #[test]
    fn rounds_are_played_in_order() {
        let games = plan(Format::Gauntlet, 3, 4, None);
        assert!(games.windows(2).all(|w| w[0].round <= w[1].round));
    }

    #[test]
    fn shards_split_the_pairs_and_together_make_the_whole() {
        let whole = plan(Format::RoundRobin, 4, 5, None);
        let mut union = Vec::new();
        for index in 0..3 {
            let shard = Shard { index, count: 3 };
            let part = plan(Format::RoundRobin, 4, 5, Some(shard));
            assert!(part.iter().all(|g| shard.owns(g.pair)));
            union.extend(part);
        }
        union.sort_by_key(|g| g.game);
        let mut sorted = whole.clone();
        sorted.sort_by_key(|g| g.game);
        assert_eq!(union, sorted);
    }

    /// Plays the plan on `slots` game slots, game `g` lasting `length(g)`, and returns when each
    /// slot went idle for good.
    fn idle_times(games: &[Planned], slots: usize, length: impl Fn(u64) -> u64) -> Vec<u64> {
        let mut free_at = vec![0u64; slots];
        for g in games {
            let slot = (0..slots).min_by_key(|&s| free_at[s]).unwrap();
            free_at[slot] += length(g.game);
        }
        free_at
    }

    #[test]
    fn concurrency_keeps_every_slot_busy_to_the_end() {
        // 6 engines, 15 pairings, 2 rounds: 60 games of lengths 5..=14.
        let games = plan(Format::RoundRobin, 6, 2, None);
        for slots in [2, 3, 4, 7] {
            let idle = idle_times(&games, slots, |g| 5 + g * 7 % 10);
            let (first, last) = (idle.iter().min().unwrap(), idle.iter().max().unwrap());
            // No slot waits longer than the longest game while another still plays.
            assert!(last - first <= 14, "{slots} slots: {idle:?}");
        }
    }

    #[test]
    fn formats_parse() {
        assert_eq!(Format::parse("round-robin"), Ok(Format::RoundRobin));
        assert_eq!(Format::parse("gauntlet"), Ok(Format::Gauntlet));
        assert_eq!(
            Format::parse("swiss").unwrap_err(),
            "bad --tournament 'swiss': expected 'round-robin' or 'gauntlet'"
        );
    }
}
