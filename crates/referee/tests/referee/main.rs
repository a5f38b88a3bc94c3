//! The referee end to end against scripted engines, one test binary: each module is one
//! subject (matches, forfeits, tournaments, resume, signals, records, export...).

mod support;

mod adjudication;
mod command_line;
mod damaged_records;
mod export;
mod forfeits;
mod matches;
mod ogn;
mod openings;
mod referee_pion;
mod resume_and_shards;
mod signals;
mod tiebreak;
mod tournament;
mod uci;
mod ugi;
