//! The protocol crate's integration tests, in one test binary: the `info` fixture that the page
//! is checked against too, and the parsers' properties.

mod info_fixture;
mod parser_props;
