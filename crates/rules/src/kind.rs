//! The registry of games: the one list of what pion plays, and the one place that turns a
//! game chosen at run time into the game type the searches and the referee are generic over.

use std::fmt;
use std::str::FromStr;

/// A game pion plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Avalam.
    Avalam,
    /// Awale (Oware).
    Awale,
}

impl GameKind {
    /// Every game, in the order `pion` lists them.
    pub const ALL: [GameKind; 2] = [GameKind::Avalam, GameKind::Awale];

    /// The game's name in the protocol, on command lines and in records.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Avalam => "avalam",
            GameKind::Awale => "awale",
        }
    }

    /// The game of a name, in any case (`Awale` as well as `awale`).
    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.name().eq_ignore_ascii_case(name))
    }

    /// The names of every game, for messages and option lists.
    pub fn names() -> Vec<&'static str> {
        GameKind::ALL.iter().map(|g| g.name()).collect()
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = String;

    fn from_str(name: &str) -> Result<GameKind, String> {
        GameKind::from_name(name).ok_or_else(|| {
            format!(
                "unknown game '{}' (expected one of: {})",
                crate::game::shorten(name),
                GameKind::names().join(", ")
            )
        })
    }
}

/// Evaluates `$body` with the type name `$G` standing for the game type of `$kind`: the one
/// run-time choice of game, monomorphised into each game's own code.
///
/// ```
/// use pion_rules::{GameKind, with_game, game::Game};
/// let moves = with_game!(GameKind::Awale, G => G::start(Default::default()).count_moves());
/// assert_eq!(moves, 6);
/// ```
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {
        match $kind {
            $crate::GameKind::Avalam => {
                type $G = $crate::avalam::Avalam;
                $body
            }
            $crate::GameKind::Awale => {
                type $G = $crate::awale::Awale;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn names_read_back_and_match_the_game_types() {
        for kind in GameKind::ALL {
            assert_eq!(kind.name().parse::<GameKind>(), Ok(kind));
            assert_eq!(with_game!(kind, G => G::KIND), kind);
        }
        assert_eq!("AWALE".parse::<GameKind>(), Ok(GameKind::Awale));
        assert_eq!(
            "chess".parse::<GameKind>(),
            Err("unknown game 'chess' (expected one of: avalam, awale)".to_string())
        );
    }
}
