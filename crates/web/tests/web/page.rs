//! The page in a real headless Chromium over WebDriver: whole games played by clicking against
//! pion and checked against pion's own `show`, analysis, undo and jumps, the match viewer, and
//! a crashing engine. Screenshots of both boards are saved under `target/`.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::browser::{
    AVALAM_SOURCE, AVALAM_TARGET, Browser, LONG, choose, click_move, move_count, quick_opponent,
    seat_pion, start, target_dir,
};
use crate::common::{broken, pion, pion_binary};
use fantoccini::Locator;
use fantoccini::key::Key;
use pion_referee::record::{GameRecord, Reason};

/// pion's answers to `lines` (then `quit`), through a pipe.
fn ask_pion(lines: &[String]) -> Vec<String> {
    let mut child = Command::new(pion_binary())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for line in lines {
        writeln!(stdin, "{line}").unwrap();
    }
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// pion's position string and the page's result text for `moves` of `game` from `start`.
fn expected_end(game: &str, start: &str, moves: &str) -> (String, String) {
    let out = ask_pion(&[
        format!("newgame {game}"),
        format!("position {start} moves {moves}"),
        "status".to_string(),
        "show".to_string(),
    ]);
    let status = out.iter().find(|l| l.starts_with("status")).unwrap();
    assert!(status.starts_with("status over"), "{status}");
    let w: Vec<&str> = status.split_whitespace().collect();
    let at = w.iter().position(|&x| x == "score").unwrap();
    let (a, b): (u32, u32) = (w[at + 1].parse().unwrap(), w[at + 2].parse().unwrap());
    let result = if w[2] == "draw" {
        format!("Draw {a} – {b}")
    } else {
        format!("Player {} wins {a} – {b}, by {}", w[3], a.abs_diff(b))
    };
    let position = out.iter().find(|l| l.starts_with("position ")).unwrap();
    (position["position ".len()..].to_string(), result)
}

/// Clicks human moves (the first legal one) until the game ends; pion answers. `source` and
/// `target` are the CSS of what to click (target: None for one-click games).
async fn play_to_the_end(b: &Browser, source: &str, target: Option<&str>) {
    let turn = format!(
        "if (!document.getElementById('result').hidden) return 'over';
         return document.querySelector({}) ? 'move' : null;",
        serde_json::json!(source)
    );
    for _ in 0..400 {
        if b.wait("a human turn or the end", &turn, LONG).await == "over" {
            return;
        }
        // The game may end, or the turn pass, between the look and the click.
        click_move(b, source, target).await;
    }
    panic!("the game did not end in 400 human moves");
}

/// Checks the page's final position and result against pion's own `show` and `status`.
async fn check_end(b: &Browser, game: &str) {
    let moves = b
        .js("return document.getElementById('move-text').value")
        .await;
    let moves = moves.as_str().unwrap();
    let (position, result) = expected_end(game, "startpos", moves);
    let shown = b
        .js("return document.getElementById('position').value")
        .await;
    assert_eq!(shown.as_str().unwrap(), position, "after {moves}");
    assert_eq!(b.text("#result").await, result, "after {moves}");
}

#[tokio::test]
async fn the_databases_note_is_shown_once() {
    let test = start(&[pion()], &[]).await;
    let b = &test.b;
    let notes =
        "return [...document.querySelectorAll('#notes .message.note')].map((n) => n.textContent)";
    b.wait(
        "pion's note on its databases",
        &format!("{notes}.some((t) => t.includes('no Awale endgame databases'))"),
        Duration::from_secs(10),
    )
    .await;
    // Every engine of the page says it; the page says it once.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let shown = b.js(notes).await;
    assert_eq!(shown.as_array().map(Vec::len), Some(1), "{shown}");
    test.b.close().await;
}

#[tokio::test]
async fn each_game_lists_its_own_variants() {
    let test = start(&[pion()], &[]).await;
    let b = &test.b;
    let options = |game: &str| {
        format!(
            "const g = document.getElementById('game'); g.value = '{game}'; \
             g.dispatchEvent(new Event('change')); \
             return [...document.getElementById('variant').options].map((o) => o.value).join(' ');"
        )
    };
    let avalam = b.js(&options("avalam")).await;
    let avalam = avalam.as_str().unwrap_or_default().to_string();
    assert!(
        avalam.contains("tiebreak5") && !avalam.contains("grandslam"),
        "{avalam}"
    );
    let awale = b.js(&options("awale")).await;
    let awale = awale.as_str().unwrap_or_default().to_string();
    assert!(
        awale.contains("grandslam-capture") && !awale.contains("tiebreak5"),
        "{awale}"
    );
    test.b.close().await;
}

#[tokio::test]
async fn a_whole_avalam_game_is_played_by_clicking() {
    let test = start(&[pion()], &[]).await;
    let b = &test.b;
    quick_opponent(b).await;
    play_to_the_end(b, AVALAM_SOURCE, Some(AVALAM_TARGET)).await;
    check_end(b, "avalam").await;
    b.screenshot("pion-web-avalam").await;
    test.b.close().await;
}

#[tokio::test]
async fn a_whole_awale_game_is_played_by_clicking() {
    let test = start(&[pion()], &[]).await;
    let b = &test.b;
    choose(b, "#sow", "off").await;
    choose(b, "#game", "awale").await;
    b.wait(
        "the Awale board",
        "return document.querySelectorAll('#board .pit').length === 12",
        LONG,
    )
    .await;
    // The score said plainly: captures, and the result if the game ended now.
    assert_eq!(
        b.text("#score").await,
        "Captured 0 – 0 · with the seeds on each side: 24 – 24"
    );
    quick_opponent(b).await;
    play_to_the_end(b, "g.pit:has(.pit-bg.legal) .hit", None).await;
    check_end(b, "awale").await;
    b.screenshot("pion-web-awale").await;
    test.b.close().await;
}

async fn ply_text(b: &Browser) -> String {
    b.text("#ply").await
}

#[tokio::test]
async fn analysis_shows_a_line_and_moves_are_undone_and_jumped_to() {
    let test = start(&[pion()], &[]).await;
    let b = &test.b;
    choose(b, "#kind-2", "human").await;
    // A hint before any analysis: a short search of its own, said in words and drawn alone.
    assert!(b.click("#hint").await);
    b.wait(
        "the hint",
        "return document.querySelector('.hint-arrow')",
        LONG,
    )
    .await;
    let words = b.text("#hint-text").await;
    assert!(
        words.starts_with("Hint: ") && words.contains(": the tower of 1 on "),
        "{words}"
    );
    assert_eq!(
        b.js("return document.querySelectorAll('.pv-arrow').length")
            .await,
        0,
        "the hint is drawn alone"
    );
    assert!(b.click("#analysis").await);
    let pv = b
        .wait(
            "a principal variation",
            "return document.getElementById('pv').textContent",
            LONG,
        )
        .await;
    assert!(pv.as_str().unwrap().len() >= 4, "{pv}");
    b.wait(
        "the line drawn on the board",
        "return document.querySelectorAll('.pv-arrow').length",
        LONG,
    )
    .await;
    b.wait(
        "the analysis's numbers",
        "const s = document.getElementById('stats').textContent; return document.getElementById('think-source').textContent.includes('analysis') && s.includes('depth') && s.includes('nps')",
        LONG,
    )
    .await;
    // Three moves by clicking, both sides human.
    for n in 1..=3 {
        assert!(click_move(b, AVALAM_SOURCE, Some(AVALAM_TARGET)).await);
        let want =
            format!("return document.getElementById('ply').textContent === 'ply {n} of {n}'");
        b.wait("the move", &want, LONG).await;
    }
    b.screenshot("pion-web-analysis").await;
    assert!(b.click("#undo").await);
    b.wait(
        "undo",
        "return document.getElementById('ply').textContent === 'ply 2 of 3'",
        LONG,
    )
    .await;
    assert!(b.click("#moves [data-ply='1']").await);
    b.wait(
        "the jump",
        "return document.getElementById('ply').textContent === 'ply 1 of 3'",
        LONG,
    )
    .await;
    let focused = b.client.active_element().await.unwrap();
    focused
        .send_keys(&char::from(Key::Right).to_string())
        .await
        .unwrap();
    b.wait(
        "the arrow key",
        "return document.getElementById('ply').textContent === 'ply 2 of 3'",
        LONG,
    )
    .await;
    focused
        .send_keys(&char::from(Key::Home).to_string())
        .await
        .unwrap();
    b.wait(
        "Home",
        "return document.getElementById('ply').textContent === 'ply 0 of 3'",
        LONG,
    )
    .await;
    assert_eq!(ply_text(b).await, "ply 0 of 3");
    // The analysis follows the board.
    b.wait(
        "a line at the start",
        "return document.getElementById('pv').textContent",
        LONG,
    )
    .await;
    // A pasted position the engine refuses: its own words are shown, the game stays.
    let field = b.client.find(Locator::Css("#position")).await.unwrap();
    field.clear().await.unwrap();
    field
        .send_keys("..yr...../.yryr..../.ryryry../.yryryryr/yryr.ryry/ryryryry./..yryryr./....ryry./.....ry6.. 1")
        .await
        .unwrap();
    assert!(b.click("#set-position").await);
    let text = b
        .wait(
            "the engine's error",
            "return document.getElementById('messages').textContent",
            LONG,
        )
        .await;
    let text = text.as_str().unwrap();
    assert!(
        text.contains(
            "The position was not set up: bad Avalam position: row 1, column g: height 6"
        ),
        "{text}"
    );
    assert!(
        !text.contains("up: position:"),
        "no repeated prefix: {text}"
    );
    assert_eq!(ply_text(b).await, "ply 0 of 3");
    // What was typed stays, to be corrected.
    let typed = b
        .js("return document.getElementById('position').value")
        .await;
    assert!(typed.as_str().unwrap().ends_with("ry6.. 1"), "{typed}");
    // Moves that do not load: one sentence, the typing kept, the game unchanged.
    let field = b.client.find(Locator::Css("#move-text")).await.unwrap();
    field.clear().await.unwrap();
    field.send_keys("a5b5 a5b5").await.unwrap();
    assert!(b.click("#set-moves").await);
    let text = b
        .wait(
            "the moves' error",
            "return document.getElementById('messages').textContent.includes('not loaded') && document.getElementById('messages').textContent",
            LONG,
        )
        .await;
    assert!(
        text.as_str()
            .unwrap()
            .contains("The moves were not loaded: move 2 (a5b5) is illegal: a5 is empty."),
        "{text}"
    );
    assert_eq!(
        b.js("return document.getElementById('move-text').value")
            .await,
        "a5b5 a5b5"
    );
    assert_eq!(ply_text(b).await, "ply 0 of 3");
    test.b.close().await;
}

/// A records file of one pair: a short Awale game, and a forfeit on the first move.
fn records_file() -> (std::path::PathBuf, String) {
    let start = "0,0,0,0,0,1/0,0,0,0,0,0/23,24 1";
    let (position, _) = expected_end("awale", start, "F a");
    let base = GameRecord {
        game: 0,
        pair: 0,
        round: None,
        engines: ["alpha".to_string(), "beta".to_string()],
        first: "beta".to_string(),
        second: "alpha".to_string(),
        rules: "awale".to_string(),
        variant: "standard".to_string(),
        start: start.to_string(),
        opening: vec![],
        moves: vec!["F".to_string(), "a".to_string()],
        data: Vec::new(),
        result: "0-1".to_string(),
        reason: Reason::Normal,
        detail: None,
        rule: None,
        loser: None,
        score: [23, 25],
        times_ms: vec![3, 4],
        seed: 1,
        started: None,
        ids: None,
        conditions: serde_json::Value::String("test".to_string()),
        match_games: 2,
        openings: None,
    };
    let forfeit = GameRecord {
        game: 1,
        moves: vec![],
        result: "0-1".to_string(),
        reason: Reason::IllegalMove,
        detail: Some("beta played 'z9', not a move of awale".to_string()),
        loser: Some("beta".to_string()),
        score: [24, 24],
        times_ms: vec![],
        ..base.clone()
    };
    let path = target_dir().join("pion-web-test-records.jsonl");
    let text = [&base, &forfeit]
        .iter()
        .map(|r| serde_json::to_string(r).unwrap() + "\n")
        .collect::<String>();
    std::fs::write(&path, text).unwrap();
    (path, position)
}

#[tokio::test]
async fn the_match_viewer_shows_a_match_and_replays_its_games() {
    let (path, final_position) = records_file();
    let test = start(&[pion()], &["--records", path.to_str().unwrap()]).await;
    let b = &test.b;
    assert!(b.click("#tab-viewer").await);
    b.wait(
        "the games",
        "return document.querySelectorAll('#games tr').length === 2",
        LONG,
    )
    .await;
    let summary = b.text("#summary-grid").await;
    assert!(
        summary.contains("+2 =0 −0") && summary.contains("illegal-move 1"),
        "{summary}"
    );
    assert!(b.text("#summary-table").await.contains("alpha"));
    b.screenshot("pion-web-viewer").await;
    // The forfeit: its detail is shown.
    assert!(b.click("#games tr[data-game='1']").await);
    b.wait(
        "the replay",
        "return !document.getElementById('replay-banner').hidden",
        LONG,
    )
    .await;
    assert!(b.text("#replay-banner").await.contains("beta played 'z9'"));
    // The seats are the match's engines, and the board takes no click.
    assert_eq!(b.text("#who-1").await, "Player 1 (A–F) · beta");
    assert_eq!(b.text("#who-2").await, "Player 2 (a–f) · alpha");
    assert_eq!(
        b.js("return document.querySelectorAll('.pit-bg.legal').length")
            .await,
        0
    );
    let before = b.text("#ply").await;
    b.click("#board g.pit[data-pit='5'] .hit").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(b.text("#ply").await, before, "a click moved in a replay");
    // The normal game, replayed to its end.
    assert!(b.click("#tab-viewer").await);
    assert!(b.click("#games tr[data-game='0']").await);
    b.wait(
        "game 1",
        "return document.getElementById('replay-banner').textContent.startsWith('Game 1')",
        LONG,
    )
    .await;
    b.wait(
        "the start of the replay",
        "return document.getElementById('ply').textContent === 'ply 0 of 2'",
        LONG,
    )
    .await;
    assert!(b.click("#last").await);
    b.wait(
        "the end of the replay",
        "return document.getElementById('ply').textContent === 'ply 2 of 2'",
        LONG,
    )
    .await;
    let shown = b
        .js("return document.getElementById('position').value")
        .await;
    assert_eq!(shown.as_str().unwrap(), final_position);
    assert_eq!(b.text("#result").await, "Player 2 wins 23 – 25, by 2");
    // A file that is not records: the message says so.
    assert!(b.click("#tab-viewer").await);
    let bad = target_dir().join("pion-web-test-not-records.txt");
    std::fs::write(&bad, "<b>hello</b>\n").unwrap();
    let input = b.client.find(Locator::Css("#records-file")).await.unwrap();
    input.send_keys(bad.to_str().unwrap()).await.unwrap();
    let message = b
        .wait(
            "the error",
            "return document.getElementById('viewer-messages').textContent",
            LONG,
        )
        .await;
    assert!(
        message
            .as_str()
            .unwrap()
            .contains("the uploaded file:1: not a game record"),
        "{message}"
    );
    assert!(
        b.js("return document.querySelector('#viewer-messages b') === null")
            .await
            .as_bool()
            .unwrap()
    );
    // The old match is gone with it, and no JSON parser detail is shown.
    assert!(
        b.js("return document.getElementById('summary').hidden && document.getElementById('games-panel').hidden && document.getElementById('records-source').textContent === ''")
            .await
            .as_bool()
            .unwrap()
    );
    assert!(!message.as_str().unwrap().contains("column"), "{message}");
    test.b.close().await;
}

#[tokio::test]
async fn a_crashing_engine_shows_its_message_and_stderr() {
    let test = start(&[pion(), broken("crasher", "crash")], &[]).await;
    let b = &test.b;
    choose(b, "#kind-2", "crasher").await;
    assert!(click_move(b, AVALAM_SOURCE, Some(AVALAM_TARGET)).await);
    let text = b
        .wait(
            "the crash message",
            "return document.getElementById('messages').textContent",
            LONG,
        )
        .await;
    let text = text.as_str().unwrap();
    assert!(
        text.contains("engine 'crasher' exited with status 3"),
        "{text}"
    );
    assert!(text.contains("panic: out of cheese"), "{text}");
    assert!(b.js("return [...document.querySelectorAll('#messages button')].some(b => b.textContent === 'Restart')").await.as_bool().unwrap());
    b.screenshot("pion-web-crash").await;
    test.b.close().await;
}

#[tokio::test]
async fn engines_play_each_other_and_pause_and_step() {
    let test = start(&[pion()], &[]).await;
    let b = &test.b;
    quick_opponent(b).await;
    seat_pion(b, 1).await;
    choose(b, "#options-1 select[data-option=Level]", "random").await;
    let time = b.client.find(Locator::Css("#time-1")).await.unwrap();
    time.clear().await.unwrap();
    time.send_keys("50").await.unwrap();
    b.wait(
        "a few engine moves",
        "return document.getElementById('move-text').value.split(' ').length >= 4",
        LONG,
    )
    .await;
    assert!(b.click("#pause").await);
    // A move already asked for may still come in; then nothing more.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let paused = move_count(b).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(
        move_count(b).await,
        paused,
        "the engines played on while paused"
    );
    assert!(b.click("#step").await);
    let one_more =
        format!("return document.getElementById('move-text').value.split(' ').length > {paused}");
    if b.try_wait(&one_more, LONG).await.is_none() {
        let page = b
            .js("return [document.getElementById('move-text').value, document.getElementById('turn').textContent, document.getElementById('ply').textContent]")
            .await;
        panic!("a step played no move: {page}");
    }
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(
        move_count(b).await,
        paused + 1,
        "a step played more than one move"
    );
    assert_eq!(b.text("#pause").await, "Resume");
    test.b.close().await;
}

#[tokio::test]
async fn an_engine_that_prints_garbage_is_stopped_with_a_message() {
    let test = start(&[pion(), broken("babbler", "garbage")], &[]).await;
    let b = &test.b;
    choose(b, "#kind-2", "babbler").await;
    assert!(click_move(b, AVALAM_SOURCE, Some(AVALAM_TARGET)).await);
    let text = b
        .wait(
            "the message",
            "return document.getElementById('messages').textContent",
            LONG,
        )
        .await;
    let text = text.as_str().unwrap();
    assert!(
        text.contains("engine 'babbler' printed a line that is not the protocol while thinking: hello there, I am not an engine"),
        "{text}"
    );
    assert_eq!(b.text("#pause").await, "Resume", "the game is paused");
    // The message is text, not markup, and there is one of it.
    let boxes = b
        .js("return document.querySelectorAll('#messages .message').length")
        .await;
    assert_eq!(boxes, 1);
    test.b.close().await;
}
