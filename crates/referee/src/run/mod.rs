//! Running games: one game between two seated engines, its adjudication, the openings it starts
//! from, the plan of a tournament's pairings, and the run that plays them all.

pub mod adjudicate;
pub mod game;
pub mod openings;
pub mod schedule;
pub mod tournament;
