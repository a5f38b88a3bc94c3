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
    /// What ended the game.
    pub reason: EndReason,
}

impl Outcome {
    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Player> {
        match self.score[0].cmp(&self.score[1]) {
            std::cmp::Ordering::Greater => Some(Player::One),
            std::cmp::Ordering::Less => Some(Player::Two),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The margin of the final score from `player`'s point of view (positive when it won).
    pub fn margin_for(&self, player: Player) -> i32 {
        let own = self.score[player.index()] as i32;
        let other = self.score[player.other().index()] as i32;
        own - other
    }
}
