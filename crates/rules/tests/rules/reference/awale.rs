//! Awale (Oware) on a plain array of twelve pits, from the rules text of protocol.md.

/// The grand-slam rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrandSlam {
    /// A move must leave the opponent a seed, captures included, unless no move does.
    Forbidden,
    /// A grand slam is legal but captures nothing.
    NoCapture,
    /// Feeding is checked only when the opponent's row is empty, on sowing alone; a grand slam
    /// captures everything.
    Capture,
}

/// An Awale position: pits 0..6 are `A`..`F` (player 1), 6..12 are `a`..`f` (player 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Awale {
    /// Seeds in each pit.
    pub pits: [u32; 12],
    /// Seeds captured by player 1 and player 2.
    pub captured: [u32; 2],
    /// 0 when player 1 is to move.
    pub side: usize,
    /// The grand-slam rule in force.
    pub rule: GrandSlam,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// More than 24 captured by a player.
    Captures,
    /// The player to move has no legal move.
    NoMoves,
    /// The position (pits and side) occurred before.
    Repetition,
}

fn owner(pit: usize) -> usize {
    pit / 6
}

impl Awale {
    /// Four seeds in every pit, player 1 to move.
    pub fn start(rule: GrandSlam) -> Awale {
        Awale {
            pits: [4; 12],
            captured: [0, 0],
            side: 0,
            rule,
        }
    }

    fn opponent_seeds(pits: &[u32; 12], side: usize) -> u32 {
        (0..12).filter(|&p| owner(p) != side).map(|p| pits[p]).sum()
    }

    /// The pits after sowing `pit`, before any capture.
    fn plain_sowing(&self, pit: usize) -> [u32; 12] {
        let mut pits = self.pits;
        let mut hand = pits[pit];
        pits[pit] = 0;
        let mut at = pit;
        while hand > 0 {
            at = (at + 1) % 12;
            if at == pit {
                continue; // the origin pit is skipped when the move laps the board
            }
            pits[at] += 1;
            hand -= 1;
        }
        pits
    }

    /// The pit the last seed of `pit` lands in.
    fn last_pit(&self, pit: usize) -> usize {
        let mut hand = self.pits[pit];
        let mut at = pit;
        while hand > 0 {
            at = (at + 1) % 12;
            if at != pit {
                hand -= 1;
            }
        }
        at
    }

    /// The pits and captures after a move, under the grand-slam rule.
    fn result(&self, pit: usize) -> ([u32; 12], u32) {
        let sown = self.plain_sowing(pit);
        let mut pits = sown;
        let mut captured = 0;
        // From the last pit backwards, while the pit is the opponent's and holds 2 or 3.
        let mut i = self.last_pit(pit) as isize;
        while i >= 0
            && owner(i as usize) != self.side
            && (pits[i as usize] == 2 || pits[i as usize] == 3)
        {
            captured += pits[i as usize];
            pits[i as usize] = 0;
            i -= 1;
        }
        let grand_slam = captured > 0 && Self::opponent_seeds(&pits, self.side) == 0;
        if grand_slam && self.rule == GrandSlam::NoCapture {
            return (sown, 0);
        }
        (pits, captured)
    }

    fn plain_sowing_feeds(&self, pit: usize) -> bool {
        Self::opponent_seeds(&self.plain_sowing(pit), self.side) > 0
    }

    fn own_nonempty(&self) -> Vec<usize> {
        (0..12)
            .filter(|&p| owner(p) == self.side && self.pits[p] > 0)
            .collect()
    }

    /// The legal moves as pit indices, ascending (none once a player has more than 24).
    pub fn moves(&self) -> Vec<usize> {
        if self.captured.iter().any(|&c| c > 24) {
            return Vec::new();
        }
        let candidates = self.own_nonempty();
        let feeding: Vec<usize> = match self.rule {
            GrandSlam::Forbidden | GrandSlam::NoCapture => candidates
                .iter()
                .copied()
                .filter(|&p| Self::opponent_seeds(&self.result(p).0, self.side) > 0)
                .collect(),
            GrandSlam::Capture => {
                if Self::opponent_seeds(&self.pits, self.side) > 0 {
                    candidates.clone()
                } else {
                    candidates
                        .iter()
                        .copied()
                        .filter(|&p| self.plain_sowing_feeds(p))
                        .collect()
                }
            }
        };
        if feeding.is_empty() {
            candidates
        } else {
            feeding
        }
    }

    /// Plays a legal move.
    pub fn play(&mut self, pit: usize) {
        assert!(self.moves().contains(&pit));
        let (pits, captured) = self.result(pit);
        self.pits = pits;
        self.captured[self.side] += captured;
        self.side = 1 - self.side;
    }

    /// Captured seeds plus the seeds on each player's side.
    pub fn points(&self) -> [u32; 2] {
        let mut points = self.captured;
        for p in 0..12 {
            points[owner(p)] += self.pits[p];
        }
        points
    }

    /// The end by the position's own rules (not repetition).
    pub fn outcome(&self) -> Option<([u32; 2], End)> {
        if self.captured.iter().any(|&c| c > 24) {
            Some((self.points(), End::Captures))
        } else if self.moves().is_empty() {
            Some((self.points(), End::NoMoves))
        } else {
            None
        }
    }

    /// The position in the notation: `A,..,F/a,..,f/cap1,cap2 side`.
    pub fn format(&self) -> String {
        let join = |s: &[u32]| {
            s.iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "{}/{}/{} {}",
            join(&self.pits[..6]),
            join(&self.pits[6..]),
            join(&self.captured),
            self.side + 1
        )
    }

    /// Leaves of the game tree `depth` plies deep (no repetition); a finished game is a leaf.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if moves.is_empty() {
            return 1;
        }
        moves
            .iter()
            .map(|&m| {
                let mut child = self.clone();
                child.play(m);
                child.perft(depth - 1)
            })
            .sum()
    }
}

/// A game with its earlier positions, for the repetition rule.
#[derive(Clone, Debug)]
pub struct Game {
    /// The current position.
    pub position: Awale,
    seen: Vec<([u32; 12], usize)>,
}

impl Game {
    /// A game from a position.
    pub fn new(position: Awale) -> Game {
        Game {
            position,
            seen: Vec::new(),
        }
    }

    /// Plays a move, remembering the position it left.
    pub fn play(&mut self, pit: usize) {
        self.seen.push((self.position.pits, self.position.side));
        self.position.play(pit);
    }

    /// The end: by the rules, or because the same pits with the same side occurred before
    /// (each player then takes the seeds on their own side).
    pub fn outcome(&self) -> Option<([u32; 2], End)> {
        if let Some(end) = self.position.outcome() {
            return Some(end);
        }
        let now = (self.position.pits, self.position.side);
        self.seen
            .contains(&now)
            .then(|| (self.position.points(), End::Repetition))
    }

    /// Legal moves, none once the game is over.
    pub fn moves(&self) -> Vec<usize> {
        if self.outcome().is_some() {
            Vec::new()
        } else {
            self.position.moves()
        }
    }
}

/// A pit's letter: `A`..`F` for player 1, `a`..`f` for player 2.
pub fn format_move(pit: usize) -> String {
    let c = if pit < 6 {
        b'A' + pit as u8
    } else {
        b'a' + pit as u8 - 6
    };
    (c as char).to_string()
}
