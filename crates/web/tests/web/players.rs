//! The page as players keep it open, in headless Chromium: a reload and a shared link keep the
//! game, undo against an engine, thinking that stays, clocks that flag, flip, resign, a draw
//! offered to an engine, rematch, saved PGN and OGN games opened back, the sowing animation and
//! its switch, captured pits, dead towers, consistent defaults, and a header on a phone.
//! Screenshots go to `target/pion-web-*.png`.

use std::time::Duration;

use crate::browser::{
    AVALAM_SOURCE, AVALAM_TARGET, Browser, LONG, browser_slot, choose, click_move, level_shown,
    quick_opponent, require, seat_pion, start, target_dir,
};
use crate::common::{Server, pion};
use fantoccini::Locator;

/// The page's field `id`'s value.
async fn value(b: &Browser, id: &str) -> String {
    let v = b
        .js(&format!("return document.getElementById('{id}').value"))
        .await;
    v.as_str().unwrap_or("").to_string()
}

/// Types `text` into the field `css`, replacing what was there, and leaves it (a change event).
async fn type_into(b: &Browser, css: &str, text: &str) {
    let field = b.client.find(Locator::Css(css)).await.unwrap();
    field.clear().await.unwrap();
    field.send_keys(text).await.unwrap();
    b.js(&format!(
        "document.querySelector({}).dispatchEvent(new Event('change')); return true",
        serde_json::json!(css)
    ))
    .await;
}

/// Both seats human.
async fn two_humans(b: &Browser) {
    choose(b, "#kind-2", "human").await;
    b.wait(
        "player 2 human",
        "return document.getElementById('who-2').textContent.endsWith('Human')",
        LONG,
    )
    .await;
}

/// Switches to Awale (sowing off unless told) and waits for its board.
async fn awale(b: &Browser, sow: &str) {
    choose(b, "#sow", sow).await;
    choose(b, "#game", "awale").await;
    b.wait(
        "the Awale board",
        "return document.querySelectorAll('#board .pit').length === 12",
        LONG,
    )
    .await;
}

/// Loads `moves` from the start with the Load button, and waits for the line's end.
async fn load_moves(b: &Browser, moves: &str) {
    type_into(b, "#move-text", moves).await;
    assert!(b.click("#set-moves").await);
    let n = moves.split_whitespace().count();
    let want = format!("return document.getElementById('ply').textContent === 'ply {n} of {n}'");
    b.wait("the moves loaded", &want, LONG).await;
}

async fn wait_ply(b: &Browser, what: &str, ply: &str) {
    let want = format!("return document.getElementById('ply').textContent === {ply:?}");
    b.wait(what, &want, LONG).await;
}

#[tokio::test]
async fn a_reload_keeps_the_game_and_its_link_opens_it_elsewhere() {
    let test = start(&[pion()], &[]).await;
    let b = &test.b;
    two_humans(b).await;
    // Two moves: player 1 is to move, so that pion, the default opponent of a fresh browser,
    // does not play on when the link opens.
    for n in 1..=2 {
        assert!(click_move(b, AVALAM_SOURCE, Some(AVALAM_TARGET)).await);
        wait_ply(b, "the move", &format!("ply {n} of {n}")).await;
    }
    let moves = value(b, "move-text").await;
    let url = b.js("return location.href").await;
    let url = url.as_str().unwrap().to_string();
    assert!(url.contains("#game=avalam&moves="), "{url}");
    b.client.refresh().await.unwrap();
    wait_ply(b, "the game after a reload", "ply 2 of 2").await;
    assert_eq!(value(b, "move-text").await, moves);
    // The link alone, in a browser that never saw the game.
    b.js("localStorage.clear(); return true").await;
    b.client.goto("about:blank").await.unwrap();
    b.client.goto(&url).await.unwrap();
    wait_ply(b, "the game from its link", "ply 2 of 2").await;
    assert_eq!(value(b, "move-text").await, moves);
    test.b.close().await;
}

#[tokio::test]
async fn undo_against_an_engine_takes_back_its_reply_and_your_move() {
    let test = start(&[pion()], &[]).await;
    let b = &test.b;
    quick_opponent(b).await;
    choose(b, "#options-2 select[data-option=Level]", "max").await;
    assert!(click_move(b, AVALAM_SOURCE, Some(AVALAM_TARGET)).await);
    wait_ply(b, "pion's reply", "ply 2 of 2").await;
    // Its thinking stays after its move, in the panel and in its seat's bar.
    b.wait(
        "the engine's line kept",
        "return document.getElementById('think-source').textContent.includes('player 2') && document.getElementById('pv').textContent !== ''",
        LONG,
    )
    .await;
    assert!(
        b.text("#think-2").await.contains("depth"),
        "{}",
        b.text("#think-2").await
    );
    assert!(b.click("#undo").await);
    wait_ply(b, "both plies taken back", "ply 0 of 2").await;
    assert_eq!(b.text("#turn").await, "Player 1 to move");
    assert_eq!(b.text("#pause").await, "Pause", "your turn needs no pause");
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(b.text("#ply").await, "ply 0 of 2", "pion moved on its own");
    test.b.close().await;
}

#[tokio::test]
async fn a_clock_counts_and_flags() {
    let test = start(&[pion()], &[]).await;
    let b = &test.b;
    two_humans(b).await;
    type_into(b, "#tc", "3+1").await;
    b.wait(
        "the clocks",
        "return !document.getElementById('clock-1').hidden && document.getElementById('clock-1').classList.contains('running')",
        LONG,
    )
    .await;
    assert!(click_move(b, AVALAM_SOURCE, Some(AVALAM_TARGET)).await);
    // Player 1 moved within its 3 s and got its second back; player 2's time runs out.
    b.wait(
        "the flag",
        "return !document.getElementById('result').hidden",
        LONG,
    )
    .await;
    assert_eq!(b.text("#result").await, "Player 1 wins");
    assert_eq!(
        b.js("return document.getElementById('result').dataset.reason")
            .await,
        "player 2 ran out of time"
    );
    assert_eq!(b.text("#clock-2").await, "0.0");
    let left: f64 = b.text("#clock-1").await.parse().unwrap();
    assert!(left > 0.5 && left <= 4.0, "{left}");
    b.screenshot("pion-web-clock").await;
    // An engine on the clock is sent the times and plays within them.
    seat_pion(b, 2).await;
    choose(b, "#options-2 select[data-option=Level]", "greedy").await;
    type_into(b, "#tc", "20+0.5").await;
    wait_ply(b, "a new game", "ply 0 of 0").await;
    assert!(click_move(b, AVALAM_SOURCE, Some(AVALAM_TARGET)).await);
    wait_ply(b, "pion's reply on the clock", "ply 2 of 2").await;
    let left: f64 = b
        .text("#clock-2")
        .await
        .replace(':', ".")
        .parse()
        .unwrap_or(0.0);
    assert!(left > 0.0, "pion's clock: {}", b.text("#clock-2").await);
    test.b.close().await;
}

#[tokio::test]
async fn flip_resign_and_a_rematch_with_colours_swapped() {
    let test = start(&[pion()], &[]).await;
    let b = &test.b;
    quick_opponent(b).await;
    assert!(b.click("#flip").await);
    b.wait(
        "the flipped board",
        "return document.getElementById('board').classList.contains('flipped') && getComputedStyle(document.getElementById('bar-2')).order === '2'",
        LONG,
    )
    .await;
    assert!(b.click("#flip").await);
    assert!(click_move(b, AVALAM_SOURCE, Some(AVALAM_TARGET)).await);
    wait_ply(b, "pion's reply", "ply 2 of 2").await;
    assert!(b.click("#resign").await);
    b.wait(
        "the resignation",
        "return !document.getElementById('result').hidden",
        LONG,
    )
    .await;
    assert_eq!(b.text("#result").await, "Player 2 wins");
    assert_eq!(
        b.js("return document.getElementById('result').dataset.reason")
            .await,
        "player 1 resigned"
    );
    assert!(b.click("#rematch").await);
    // You now play second: pion opens, and your own row is at the bottom.
    wait_ply(b, "pion's first move", "ply 1 of 1").await;
    assert_eq!(value(b, "kind-1").await, "pion");
    assert_eq!(value(b, "kind-2").await, "human");
    assert!(
        b.js("return document.getElementById('board').classList.contains('flipped')")
            .await
            .as_bool()
            .unwrap()
    );
    assert_eq!(b.text("#who-2").await, "Player 2 (red) · You");
    b.screenshot("pion-web-flipped").await;
    test.b.close().await;
}

#[tokio::test]
async fn a_draw_offer_is_taken_by_a_lost_engine_and_declined_by_a_winning_one() {
    let test = start(&[pion()], &[]).await;
    let b = &test.b;
    awale(b, "off").await;
    quick_opponent(b).await;
    // Player 2 (pion) is winning here: it plays on.
    type_into(b, "#position", "1,0,0,0,0,0/1,1,1,0,0,0/20,24 1").await;
    assert!(b.click("#set-position").await);
    wait_ply(b, "the position", "ply 0 of 0").await;
    assert!(b.click("#offer-draw").await);
    let text = b
        .wait(
            "the answer",
            "return document.getElementById('messages').textContent",
            LONG,
        )
        .await;
    assert!(
        text.as_str().unwrap().contains("declines the draw"),
        "{text}"
    );
    assert!(
        b.js("return document.getElementById('result').hidden")
            .await
            .as_bool()
            .unwrap()
    );
    // Lost (player 1 wins by 4 or more), it takes the draw.
    type_into(b, "#position", "0,0,0,0,3,2/1,0,0,0,0,0/24,18 1").await;
    assert!(b.click("#set-position").await);
    b.wait(
        "the lost position",
        "return document.getElementById('position').value.startsWith('0,0,0,0,3,2')",
        LONG,
    )
    .await;
    assert!(b.click("#offer-draw").await);
    b.wait(
        "the accepted draw",
        "return !document.getElementById('result').hidden",
        LONG,
    )
    .await;
    assert_eq!(b.text("#result").await, "Draw");
    test.b.close().await;
}

#[tokio::test]
async fn a_saved_ogn_is_aualés_text_and_opens_back_to_the_same_game() {
    let test = start(&[pion()], &[]).await;
    let b = &test.b;
    two_humans(b).await;
    awale(b, "off").await;
    let fixture = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/awale-captures.ogn"),
    )
    .unwrap();
    let moves = "E d B f F b D e A c A f D d A e B a B b F a C b F f D e B f E d A f B c D f F e C b D c F a E f F b A e B c C d A f";
    load_moves(b, moves).await;
    let end = value(b, "position").await;
    assert_eq!(b.text("#result").await, "Player 2 wins 20 – 28, by 8");
    assert!(b.click("#save-ogn").await);
    b.wait(
        "the OGN text",
        "return document.getElementById('game-text').value.startsWith('[Variant')",
        LONG,
    )
    .await;
    assert_eq!(value(b, "game-text").await, fixture);
    // The fixture, opened as a file on a fresh board, is the same game.
    assert!(b.click("#new-game").await);
    wait_ply(b, "a new game", "ply 0 of 0").await;
    let path = target_dir().join("pion-web-test-game.ogn");
    std::fs::write(&path, &fixture).unwrap();
    let input = b.client.find(Locator::Css("#open-file")).await.unwrap();
    input.send_keys(path.to_str().unwrap()).await.unwrap();
    wait_ply(b, "the opened game", "ply 58 of 58").await;
    assert_eq!(value(b, "move-text").await, moves);
    assert_eq!(value(b, "position").await, end);
    // A capture's pits are marked: move 4 (D) took 3 seeds.
    assert!(b.click("#moves [data-ply='7']").await);
    wait_ply(b, "ply 7", "ply 7 of 58").await;
    assert!(
        b.js("return document.querySelectorAll('#board .pit.captured').length")
            .await
            .as_u64()
            .unwrap()
            >= 1
    );
    b.js("window.scrollTo(0, 0); return true").await;
    b.screenshot("pion-web-captures").await;
    // Not a game: one sentence, the game stays.
    let bad = target_dir().join("pion-web-test-not-a-game.pgn");
    std::fs::write(&bad, "hello\n").unwrap();
    let input = b.client.find(Locator::Css("#open-file")).await.unwrap();
    input.send_keys(bad.to_str().unwrap()).await.unwrap();
    let text = b
        .wait(
            "the refusal",
            "return document.getElementById('messages').textContent",
            LONG,
        )
        .await;
    assert!(
        text.as_str()
            .unwrap()
            .contains("The game was not opened: this is not a saved game"),
        "{text}"
    );
    assert_eq!(b.text("#ply").await, "ply 7 of 58");
    test.b.close().await;
}

#[tokio::test]
async fn a_saved_pgn_opens_back_to_the_same_avalam_game() {
    let test = start(&[pion()], &[]).await;
    let b = &test.b;
    two_humans(b).await;
    for n in 1..=4 {
        assert!(click_move(b, AVALAM_SOURCE, Some(AVALAM_TARGET)).await);
        wait_ply(b, "the move", &format!("ply {n} of {n}")).await;
    }
    let moves = value(b, "move-text").await;
    let end = value(b, "position").await;
    assert!(b.click("#save-pgn").await);
    let text = b
        .wait(
            "the PGN text",
            "return document.getElementById('game-text').value.startsWith('[Event') && document.getElementById('game-text').value",
            LONG,
        )
        .await;
    let text = text.as_str().unwrap().to_string();
    assert!(
        text.contains("[Game \"Avalam\"]") && text.contains("[Result \"*\"]"),
        "{text}"
    );
    let first = moves.split_whitespace().next().unwrap();
    assert!(text.contains(&format!("\n1. {first} ")), "{text}");
    assert!(b.click("#new-game").await);
    // Mid-game, a new game is asked for first.
    b.client.accept_alert().await.unwrap();
    wait_ply(b, "a new game", "ply 0 of 0").await;
    assert!(b.click("#open-text").await);
    wait_ply(b, "the opened game", "ply 4 of 4").await;
    assert_eq!(value(b, "move-text").await, moves);
    assert_eq!(value(b, "position").await, end);
    test.b.close().await;
}

#[tokio::test]
async fn the_sowing_is_animated_and_can_be_turned_off() {
    let test = start(&[pion()], &[]).await;
    let b = &test.b;
    two_humans(b).await;
    awale(b, "slow").await;
    assert!(b.click("g.pit[data-pit='2'] .hit").await);
    b.wait(
        "a seed being sown",
        "return document.querySelector('#board .pit.sowing')",
        LONG,
    )
    .await;
    wait_ply(b, "the move", "ply 1 of 1").await;
    assert!(
        b.js("return document.querySelector('#board .pit.sowing') === null")
            .await
            .as_bool()
            .unwrap()
    );
    // Off: the position after the move is drawn at once, with no seed in flight.
    choose(b, "#sow", "off").await;
    b.js("window.sown = false; new MutationObserver(() => { if (document.querySelector('#board .pit.sowing')) window.sown = true; }).observe(document.getElementById('board'), {childList: true, subtree: true}); return true").await;
    assert!(b.click("g.pit[data-pit='8'] .hit").await);
    wait_ply(b, "the second move", "ply 2 of 2").await;
    assert_eq!(b.js("return window.sown").await, false);
    test.b.close().await;
}

#[tokio::test]
async fn dead_towers_are_dimmed_and_seats_have_the_same_defaults() {
    let test = start(&[pion()], &[]).await;
    let b = &test.b;
    // The default opponent and a new engine seat play at one level; no time box for a person.
    level_shown(b, 2).await;
    assert!(
        b.js("return document.getElementById('time-1').closest('label').hidden")
            .await
            .as_bool()
            .unwrap()
    );
    seat_pion(b, 1).await;
    let levels = b
        .js("return [...document.querySelectorAll('select[data-option=Level]')].map(s => s.value)")
        .await;
    assert_eq!(levels, serde_json::json!(["basic", "basic"]));
    choose(b, "#kind-1", "human").await;
    two_humans(b).await;
    // f1 can reach nothing: a lone tower, with the other two far away.
    type_into(b, "#position", "........./........./........./........./........./........./.......y./.......r./.....y... 1").await;
    assert!(b.click("#set-position").await);
    b.wait(
        "the dimmed tower",
        "return document.querySelectorAll('#board .tower.dead').length === 1 && document.querySelectorAll('#board .tower').length === 3",
        LONG,
    )
    .await;
    test.b.close().await;
}

#[tokio::test]
async fn the_header_stays_on_one_line_on_a_phone() {
    require();
    let _slot = browser_slot().await;
    let server = Server::start(&[pion()], &[]);
    let phone = Browser::start(390, 844).await;
    phone
        .client
        .goto(&format!("http://{}/?pace=50", server.addr))
        .await
        .unwrap();
    phone
        .wait(
            "the board",
            "return document.querySelectorAll('#board .cell').length === 81",
            LONG,
        )
        .await;
    let height = phone
        .js("return document.querySelector('header').getBoundingClientRect().height")
        .await;
    assert!(height.as_f64().unwrap() < 48.0, "header height {height}");
    let wraps = phone.js("const h = document.querySelector('header').getBoundingClientRect(); return [...document.querySelector('header').children].some(c => c.getBoundingClientRect().bottom > h.bottom + 1)").await;
    assert_eq!(wraps, false);
    let overflow = phone
        .js("return document.documentElement.scrollWidth <= window.innerWidth")
        .await;
    assert_eq!(overflow, true, "the page is wider than the phone");
    phone.screenshot("pion-web-phone").await;
    phone.close().await;
}
