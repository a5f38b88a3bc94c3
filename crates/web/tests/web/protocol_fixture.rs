//! The page's reader of `info` lines (engine.js's `parseInfo`), run in headless Chromium on the
//! fixture that the protocol crate's own reader is checked against
//! (crates/protocol/tests/protocol/fixtures/info_lines.json): one source of truth for the grammar.

use std::time::Duration;

use crate::browser::{Browser, browser_slot, require};
use crate::common::{Server, pion};
use serde_json::Value;

/// The fixture's text.
const FIXTURE: &str = include_str!("../../../protocol/tests/protocol/fixtures/info_lines.json");

#[tokio::test]
async fn the_page_reads_every_info_line_of_the_fixture_as_the_protocol_crate_does() {
    require();
    let _slot = browser_slot().await;
    let server = Server::start(&[pion()], &[]);
    let b = Browser::start(800, 600).await;
    b.client
        .goto(&format!("http://{}/", server.addr))
        .await
        .expect("the page opens");
    let cases: Vec<Value> = serde_json::from_str(FIXTURE).unwrap();
    let lines: Vec<&str> = cases.iter().map(|c| c["line"].as_str().unwrap()).collect();
    let script = format!(
        "window.__readings = null;
         import('/engine.js').then((m) => {{
           window.__readings = {}.map((line) => {{ const r = m.parseInfo(line); delete r.nps; return r; }});
         }});
         return true;",
        serde_json::to_string(&lines).unwrap()
    );
    b.js(&script).await;
    let readings = b
        .wait(
            "the readings",
            "return window.__readings",
            Duration::from_secs(10),
        )
        .await;
    for (case, got) in cases.iter().zip(readings.as_array().unwrap()) {
        assert_eq!(got, &case["reading"], "{}", case["line"]);
    }
    b.close().await;
}
