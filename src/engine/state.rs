//! The session's game state: the game being played, its moves and its searcher.

use std::any::Any;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::search::{SearchGame, Searcher, Settings};
use pion_rules::game::History;
use pion_rules::{GameKind, with_game};

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
/// parameter. It holds the [`Table`] of its game's type, whichever games the registry
/// ([`GameKind`], `with_game!`) lists, so that adding a game adds nothing here.
pub(super) struct AnyTable {
    kind: GameKind,
    table: Box<dyn Any + Send>,
}

impl AnyTable {
    /// A table of `kind` at its start position, with the standard variant.
    pub(super) fn new(kind: GameKind, settings: Settings) -> AnyTable {
        with_game!(kind, G => AnyTable {
            kind,
            table: Box::new(Table::<G>::new(Default::default(), settings)),
        })
    }

    /// The game being played.
    pub(super) fn kind(&self) -> GameKind {
        self.kind
    }

    /// The table as its game's type; `G` is the type `with_game!` gives for [`Self::kind`].
    pub(super) fn get<G: SearchGame>(&self) -> &Table<G> {
        self.table
            .downcast_ref()
            .expect("a table holds its kind's game")
    }

    /// The table as its game's type, to change it.
    pub(super) fn get_mut<G: SearchGame>(&mut self) -> &mut Table<G> {
        self.table
            .downcast_mut()
            .expect("a table holds its kind's game")
    }
}

/// Runs `$body` with `$t` bound to the current game's table (`&mut` or `&` as the table is
/// given), as a `Table<G>` of the game's own type.
macro_rules! with_table {
    (&mut $table:expr, $t:ident => $body:expr) => {{
        let table: &mut AnyTable = &mut $table;
        pion_rules::with_game!(table.kind(), G => {
            let $t = table.get_mut::<G>();
            $body
        })
    }};
    (&$table:expr, $t:ident => $body:expr) => {{
        let table: &AnyTable = &$table;
        pion_rules::with_game!(table.kind(), G => {
            let $t = table.get::<G>();
            $body
        })
    }};
}
pub(super) use with_table;
