//! What the page's browser tests share: a server and a page opened on it, seats chosen, moves
//! clicked.

use std::time::Duration;

use fantoccini::Locator;

use super::{Browser, browser_slot, require};
use crate::common::Server;

/// How long a browser test waits for what it expects.
pub const LONG: Duration = Duration::from_secs(30);

/// Opens the page and waits until the rules engine has drawn the start position.
pub async fn open(server: &Server) -> Browser {
    let b = Browser::start(1280, 900).await;
    b.client
        .goto(&format!("http://{}/?pace=50", server.addr))
        .await
        .unwrap();
    b.wait(
        "the board",
        "return document.querySelectorAll('#board .cell').length === 81",
        LONG,
    )
    .await;
    b
}

/// A browser test's page: the browser, its server, and its browser slot (dropped in that
/// order).
pub struct Test {
    pub b: Browser,
    pub server: Server,
    _slot: tokio::sync::SemaphorePermit<'static>,
}

/// Starts a server with `engines` and `args` and opens the page (the browser must be there:
/// see `require`).
pub async fn start(engines: &[Vec<String>], args: &[&str]) -> Test {
    require();
    let slot = browser_slot().await;
    let server = Server::start(engines, args);
    let b = open(&server).await;
    Test {
        b,
        server,
        _slot: slot,
    }
}

/// Chooses `value` in the select `css` with a real interaction.
pub async fn choose(b: &Browser, css: &str, value: &str) {
    let select = b.client.find(Locator::Css(css)).await.unwrap();
    select.select_by_value(value).await.unwrap();
}

/// Waits until seat `seat` (1 or 2) shows an engine's options (its Level).
pub async fn level_shown(b: &Browser, seat: u8) {
    b.wait(
        &format!("player {seat}'s options"),
        &format!("return document.querySelector('#options-{seat} select[data-option=Level]')"),
        LONG,
    )
    .await;
}

/// Seat `seat` becomes pion, and shows its options.
pub async fn seat_pion(b: &Browser, seat: u8) {
    choose(b, &format!("#kind-{seat}"), "pion").await;
    level_shown(b, seat).await;
}

/// Player 2 becomes pion at level greedy, 50 ms a move.
pub async fn quick_opponent(b: &Browser) {
    level_shown(b, 2).await;
    choose(b, "#options-2 select[data-option=Level]", "greedy").await;
    let time = b.client.find(Locator::Css("#time-2")).await.unwrap();
    time.clear().await.unwrap();
    time.send_keys("50").await.unwrap();
}

pub async fn move_count(b: &Browser) -> usize {
    b.js("return document.getElementById('move-text').value")
        .await
        .as_str()
        .unwrap()
        .split_whitespace()
        .count()
}

/// Clicks one human move (the first legal one): `source`, then `target` if the game has one.
/// A click that lands on a board being redrawn is tried again; false if no move could be made.
pub async fn click_move(b: &Browser, source: &str, target: Option<&str>) -> bool {
    let before = move_count(b).await;
    let grew = format!(
        "return document.getElementById('move-text').value.split(/\\s+/).filter(Boolean).length > {before}"
    );
    for _ in 0..20 {
        let there = format!(
            "return document.querySelector({})",
            serde_json::json!(source)
        );
        if b.try_wait(&there, LONG).await.is_none() || !b.click(source).await {
            continue;
        }
        if let Some(target) = target {
            let there = format!(
                "return document.querySelector({})",
                serde_json::json!(target)
            );
            if b.try_wait(&there, Duration::from_secs(2)).await.is_none() || !b.click(target).await
            {
                continue;
            }
        }
        if b.try_wait(&grew, Duration::from_secs(5)).await.is_some() {
            return true;
        }
    }
    false
}

pub const AVALAM_SOURCE: &str = ".hit.movable";
pub const AVALAM_TARGET: &str = "g.cell:has(.target) .hit";
