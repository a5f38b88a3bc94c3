//! The rules crate's integration tests, in one test binary: the rules against the slow
//! reference implementations, and the notation parsers' properties.

mod differential;
mod notation_props;
mod reference;
