//! The engine end to end, one test binary: each module is one subject (the protocol, its
//! document, the search, the terminal game, the documents' commands, the bot guide...).

mod common;

mod auale_client;
mod book;
mod bot_guide;
mod cli;
mod docs_commands;
mod egtb;
mod egtb_cycles;
mod fuzz;
mod inf8215;
mod ogn_load;
mod play;
mod protocol;
mod protocol_doc;
mod python_engine;
mod repetition_losses;
mod review;
mod search;
mod train_network;
mod ugi_options;
