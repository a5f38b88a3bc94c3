//! Players, why a game ended, and its outcome.

/// One of the two players. `One` moves first (yellow in Avalam, pits `A`..`F` in Awale).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The first player.
    One,
    /// The second player.
    Two,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// 0 for player one, 1 for player two: an index into per-player arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The protocol's digit for the player, `1` or `2`.
    pub fn number(self) -> u8 {
        self as u8 + 1
    }

    /// Parses the protocol's `1` or `2`.
    pub fn from_number(text: &str) -> Option<Player> {
        match text {
            "1" => Some(Player::One),
            "2" => Some(Player::Two),
            _ => None,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The player to move has no legal move (Avalam: nobody has one).
    NoMoves,
    /// A player captured more than half of the seeds (Awale).
    Captures,
    /// The position repeated (Awale).
    Repetition,
}

impl EndReason {
    /// The word the protocol uses for the reason.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::NoMoves => "nomoves",
            EndReason::Captures => "captures",
            EndReason::Repetition => "repetition",
        }
    }

    /// The reason a protocol word names, if any ([`EndReason::as_str`] read back).
    pub fn from_word(word: &str) -> Option<EndReason> {
        [
            EndReason::NoMoves,
            EndReason::Captures,
            EndReason::Repetition,
        ]
        .into_iter()
        .find(|reason| reason.as_str() == word)
    }
}

/// The result of a finished game: the final points of each player and why it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Final points, indexed by [`Player::index`].
    pub score: [u32; 2],
    /// What decides equal points under a variant with a tie-break (see [`crate::game::Game::tiebreak`]).
    pub tiebreak: Option<[u32; 2]>,
    /// What ended the game.
    pub reason: EndReason,
}

/// Who leads with these points and tie-break: more points, then (equal points) more of the
/// tie-break; `None` when level on both.
pub fn leader(score: [u32; 2], tiebreak: Option<[u32; 2]>) -> Option<Player> {
    let [one, two] = tiebreak.unwrap_or([0, 0]);
    match (score[0], one).cmp(&(score[1], two)) {
        std::cmp::Ordering::Greater => Some(Player::One),
        std::cmp::Ordering::Less => Some(Player::Two),
        std::cmp::Ordering::Equal => None,
    }
}

impl Outcome {
    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Player> {
        leader(self.score, self.tiebreak)
    }

    /// Whether the tie-break, not the points, named the winner.
    pub fn decided_by_tiebreak(&self) -> bool {
        self.score[0] == self.score[1] && self.winner().is_some()
    }

    /// The margin of the final score from `player`'s point of view (positive when it won).
    pub fn margin_for(&self, player: Player) -> i32 {
        let own = self.score[player.index()] as i32;
        let other = self.score[player.other().index()] as i32;
        own - other
    }
}
