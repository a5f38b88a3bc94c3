//! pion-web end to end, one test binary: the bridge, the records viewer, and the page in
//! headless Chromium.

mod browser;
mod common;

mod bridge;
mod course_agent;
mod oware_uci;
mod page;
mod players;
mod protocol_fixture;
mod records;
mod safety;
