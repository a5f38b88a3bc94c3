//! Loaded databases and probing them from a game position.

use std::path::Path;

use super::file::{Check, FileError, open_layer, path_of};
use super::index::rank;
use super::layer::Layer;
use super::solve::turn;
use pion_rules::awale::{Awale, Variant};
use pion_rules::game::{Game, Player};

/// The solved layers of one variant, from 0 seeds up to the largest found, mapped or in
/// memory.
pub struct Tables {
    variant: Variant,
    layers: Vec<Layer>,
}

/// What a database says about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// How many of the seeds on the board the side to move ends with: the value of a settled
    /// board, the likeliest share of one that can cycle.
    pub share: u8,
    /// The final margin for the side to move: its captures and share, less the opponent's.
    pub margin: i32,
    /// Whether play from the board can cycle (it is not settled by play that ends): the
    /// share is then an estimate between the bounds, which pion's first-repetition rule need
    /// not give.
    pub cycle: bool,
    /// The final margin the side to move can force by play that ends (`lo`), and the most the
    /// opponent lets it have likewise (`hi`): equal to `margin` on a settled board, around it
    /// on a cycling one, where the game's result lies between them.
    pub low: i32,
    /// See `low`.
    pub high: i32,
}

impl Tables {
    /// Opens the layers `0, 1, 2, ...` of `variant` found in `dir`, up to `max_seeds` at most
    /// and up to the first missing one, each checked as `check` says. A damaged or foreign
    /// file, no layer at all, or a missing layer below one that is there is an error.
    pub fn load(
        dir: &Path,
        variant: Variant,
        max_seeds: usize,
        check: Check,
    ) -> Result<Tables, FileError> {
        let mut layers = Vec::new();
        for seeds in 0..=max_seeds {
            match open_layer(dir, variant, seeds, check) {
                Ok(values) => layers.push(values),
                Err(FileError::Missing { path }) if seeds > 0 => {
                    if let Some(above) = (seeds + 1..=max_seeds)
                        .find(|&s| path_of(dir, variant, s).symlink_metadata().is_ok())
                    {
                        return Err(FileError::Gap { path, above });
                    }
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        Ok(Tables { variant, layers })
    }

    /// Tables from layers already in memory (layer `j` holds the boards of `j` seeds).
    pub fn from_layers(variant: Variant, layers: Vec<Layer>) -> Tables {
        Tables { variant, layers }
    }

    /// The variant whose rules the tables hold.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The most seeds on the board of a position the tables hold.
    pub fn max_seeds(&self) -> usize {
        self.layers.len().saturating_sub(1)
    }

    /// The layers, layer `j` holding the boards of `j` seeds.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// The value of a position of the game, if its seeds on the board are few enough and its
    /// variant is the tables' (the caller handles a finished game first).
    #[inline]
    pub fn probe(&self, position: &Awale) -> Option<Probe> {
        if position.variant() != self.variant {
            return None;
        }
        let pits = position.pits();
        let seeds: usize = pits.iter().map(|&s| s as usize).sum();
        let layer = self.layers.get(seeds)?;
        let me = position.side_to_move();
        let board = if me == Player::One { *pits } else { turn(pits) };
        let entry = layer.entry(rank(&board) as usize);
        let captured = position.captured();
        let (own, theirs) = (
            captured[me.index()] as i32,
            captured[me.other().index()] as i32,
        );
        let margin = |share: u8| own + share as i32 - theirs - (seeds as i32 - share as i32);
        Some(Probe {
            share: entry.likely,
            margin: margin(entry.likely),
            cycle: !entry.is_settled(),
            low: margin(entry.lo),
            high: margin(entry.hi),
        })
    }
}
