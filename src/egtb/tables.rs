//! Loaded databases and probing them from a game position.

use std::path::Path;

use super::file::{FileError, read_layer};
use super::index::rank;
use super::solve::turn;
use pion_rules::awale::{Awale, Variant};
use pion_rules::game::{Game, Player};

/// The solved layers of one variant, from 0 seeds up to the largest found, in memory.
pub struct Tables {
    variant: Variant,
    layers: Vec<Vec<u8>>,
}

/// What a database says about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// How many of the seeds on the board the side to move ends with.
    pub share: u8,
    /// The final margin for the side to move: its captures and share, less the opponent's.
    pub margin: i32,
}

impl Tables {
    /// Loads the layers `0, 1, 2, ...` of `variant` found in `dir`, up to `max_seeds` at most
    /// and up to the first missing one; a damaged or foreign file, or no layer at all, is an
    /// error.
    pub fn load(dir: &Path, variant: Variant, max_seeds: usize) -> Result<Tables, FileError> {
        let mut layers = Vec::new();
        for seeds in 0..=max_seeds {
            match read_layer(dir, variant, seeds) {
                Ok(values) => layers.push(values),
                Err(FileError::Missing { .. }) if seeds > 0 => break,
                Err(e) => return Err(e),
            }
        }
        Ok(Tables { variant, layers })
    }

    /// Tables from layers already in memory (layer `j` holds the boards of `j` seeds).
    pub fn from_layers(variant: Variant, layers: Vec<Vec<u8>>) -> Tables {
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
    pub fn layers(&self) -> &[Vec<u8>] {
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
        let share = layer[rank(&board) as usize];
        let captured = position.captured();
        let own = captured[me.index()] as i32 + share as i32;
        let theirs = captured[me.other().index()] as i32 + (seeds as i32 - share as i32);
        Some(Probe {
            share,
            margin: own - theirs,
        })
    }
}
