//! The session's game state: the game being played, its moves and its searcher.

use std::sync::{Arc, Mutex, MutexGuard};

use crate::search::{SearchGame, Searcher, Settings};
use pion_rules::avalam::Avalam;
use pion_rules::awale::Awale;
use pion_rules::game::History;

/// The state of one game: the moves played and the searcher that remembers them.
pub(super) struct Table<G: SearchGame> {
    pub(super) history: History<G>,
    pub(super) variant: G::Variant,
    pub(super) searcher: Arc<Mutex<Searcher<G>>>,
}

impl<G: SearchGame> Table<G> {
    pub(super) fn new(variant: G::Variant, settings: Settings) -> Self {
        Table {
            history: History::new(G::start(variant)),
            variant,
            searcher: Arc::new(Mutex::new(Searcher::new(settings))),
        }
    }

    /// A new game of `variant`: the start position and an empty table, in the memory of the old
    /// one (a `Hash` of gigabytes is not held twice).
    pub(super) fn restart(&mut self, variant: G::Variant) {
        self.history = History::new(G::start(variant));
        self.variant = variant;
        self.searcher().clear();
    }

    pub(super) fn searcher(&self) -> MutexGuard<'_, Searcher<G>> {
        self.searcher
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The game being played, chosen at run time: the one place where the game is not a type
/// parameter.
pub(super) enum AnyTable {
    Avalam(Table<Avalam>),
    Awale(Table<Awale>),
}

/// Runs `$body` with `$t` bound to the current game's table, whatever the game.
macro_rules! with_table {
    ($table:expr, $t:ident => $body:expr) => {
        match $table {
            AnyTable::Avalam($t) => $body,
            AnyTable::Awale($t) => $body,
        }
    };
}
pub(super) use with_table;
