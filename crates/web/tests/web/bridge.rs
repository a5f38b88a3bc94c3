//! The bridge through a real pion-web and a real WebSocket client: a game against pion, broken
//! engines, limits, and no engine process left behind however a page goes away.

use std::time::Duration;

use crate::common::{Page, Server, broken, gone, pion, wait_gone};
use serde_json::json;

/// Whether a server message's sentence contains `text`.
fn says(message: &serde_json::Value, text: &str) -> bool {
    message["message"]
        .as_str()
        .is_some_and(|m| m.contains(text))
}

/// A whole Awale game: the test plays player 1 with the first legal move, pion (at depth 2)
/// player 2, and a second pion process keeps the rules, as the page does.
#[tokio::test]
async fn plays_a_game_against_pion() {
    let server = Server::start(&[pion()], &[]);
    let (mut page, hello) = Page::open(&server).await;
    assert_eq!(hello["engines"], json!(["pion"]));
    page.start("rules", "pion").await;
    page.start("p2", "pion").await;
    for id in ["rules", "p2"] {
        page.line(id, "newgame awale").await;
    }
    let mut moves: Vec<String> = Vec::new();
    let status = loop {
        assert!(moves.len() < 400, "the game does not end");
        let position = format!("position startpos moves {}", moves.join(" "));
        page.line("rules", &position).await;
        page.line("rules", "legal").await;
        let legal = page.line_from("rules", "legal").await;
        page.line("rules", "status").await;
        let status = page.line_from("rules", "status").await;
        if status.starts_with("status over") {
            break status;
        }
        let legal: Vec<&str> = legal.split_whitespace().skip(1).collect();
        let mv = if status.contains("turn 1") {
            legal[0].to_string()
        } else {
            page.line("p2", &position).await;
            page.line("p2", "go depth 2").await;
            let best = page.line_from("p2", "bestmove").await;
            best.split_whitespace().nth(1).unwrap().to_string()
        };
        assert!(legal.contains(&mv.as_str()), "{mv} is not in {legal:?}");
        moves.push(mv);
    };
    assert!(status.contains("score"), "{status}");
    assert!(moves.len() > 10, "a game of {} plies", moves.len());
}

#[tokio::test]
async fn an_unconfigured_engine_is_refused() {
    let server = Server::start(&[pion()], &[]);
    let (mut page, _) = Page::open(&server).await;
    page.send(json!({"t": "start", "id": "p1", "engine": "/bin/sh"}))
        .await;
    let reply = page.next().await;
    assert_eq!(reply["t"], "error", "{reply}");
    let text = reply["message"].as_str().unwrap();
    assert!(
        text.contains("no engine named '/bin/sh'") && text.contains("pion"),
        "{text}"
    );
    // Nothing was started under that id.
    page.line("p1", "isready").await;
    let reply = page.next().await;
    assert!(says(&reply, "no engine 'p1'"), "{reply}");
}

#[tokio::test]
async fn a_crash_is_reported_with_stderr_and_the_engine_restarts() {
    let server = Server::start(&[pion(), broken("crasher", "crash")], &[]);
    let (mut page, _) = Page::open(&server).await;
    let pid = page.start("p2", "crasher").await;
    page.line("p2", "go movetime 100").await;
    let exit = page.until(|m| m["t"] == "exit").await;
    assert!(
        says(&exit, "engine 'crasher' exited with status 3"),
        "{exit}"
    );
    let stderr = exit["stderr"].to_string();
    assert!(stderr.contains("panic: out of cheese"), "{stderr}");
    assert!(wait_gone(pid, Duration::from_secs(5)));
    // The restart path: the same id starts again, and the session goes on.
    page.start("p2", "crasher").await;
    page.start("rules", "pion").await;
    page.line("rules", "isready").await;
    page.line_from("rules", "readyok").await;
}

#[tokio::test]
async fn a_hanging_engine_leaves_the_session_usable_and_is_killed() {
    let server = Server::start(&[pion(), broken("hanger", "hang")], &[]);
    let (mut page, _) = Page::open(&server).await;
    let pid = page.start("p2", "hanger").await;
    page.start("rules", "pion").await;
    page.line("p2", "go movetime 100").await;
    // The page decides it hangs; pion in the same session still answers meanwhile.
    page.line("rules", "isready").await;
    page.line_from("rules", "readyok").await;
    page.send(json!({"t": "stderr", "id": "p2"})).await;
    let tail = page.until(|m| m["t"] == "stderr").await;
    assert_eq!(tail["lines"], json!([]));
    page.send(json!({"t": "kill", "id": "p2"})).await;
    assert!(
        wait_gone(pid, Duration::from_secs(5)),
        "the hanging engine was not killed"
    );
}

#[tokio::test]
async fn garbage_is_relayed_as_text_for_the_page_to_judge() {
    let server = Server::start(&[broken("babbler", "garbage")], &[]);
    let (mut page, _) = Page::open(&server).await;
    page.start("p1", "babbler").await;
    page.line("p1", "go movetime 100").await;
    assert_eq!(
        page.line_from("p1", "hello").await,
        "hello there, I am not an engine"
    );
    // Bytes that are not UTF-8 arrive as replacement characters, not as a broken socket.
    assert_eq!(
        page.line_from("p1", "\u{fffd}").await,
        "\u{fffd}\u{fffd} bytes"
    );
    page.line("p1", "isready").await;
    page.line_from("p1", "readyok").await;
}

#[tokio::test]
async fn oversize_lines_are_refused_both_ways() {
    let server = Server::start(
        &[pion(), broken("longliner", "long")],
        &["--max-line", "65536"],
    );
    let (mut page, _) = Page::open(&server).await;
    page.start("rules", "pion").await;
    page.line("rules", &"x".repeat(70_000)).await;
    let refused = page.until(|m| m["t"] == "error").await;
    assert!(says(&refused, "longer than the 65536 allowed"), "{refused}");
    page.line("rules", "isready\nquit").await;
    let refused = page.until(|m| m["t"] == "error").await;
    assert!(says(&refused, "line break"), "{refused}");
    let pid = page.start("p2", "longliner").await;
    page.line("p2", "go movetime 100").await;
    let exit = page.until(|m| m["t"] == "exit").await;
    assert!(says(&exit, "longer than 65536 bytes"), "{exit}");
    assert!(wait_gone(pid, Duration::from_secs(5)));
    page.line("rules", "isready").await;
    page.line_from("rules", "readyok").await;
}

/// Reads the pid of the `sleep` the child-starting engine started.
async fn grandchild(page: &mut Page, id: &str) -> i32 {
    let line = page.line_from(id, "info string child").await;
    line.rsplit(' ').next().unwrap().parse().unwrap()
}

#[tokio::test]
async fn closing_the_page_kills_the_engine_and_its_children() {
    let server = Server::start(&[broken("parent", "child")], &[]);
    let (mut page, _) = Page::open(&server).await;
    let pid = page.start("p1", "parent").await;
    let child = grandchild(&mut page, "p1").await;
    assert!(!gone(pid) && !gone(child));
    drop(page);
    assert!(
        wait_gone(pid, Duration::from_secs(5)),
        "the engine outlived its page"
    );
    assert!(
        wait_gone(child, Duration::from_secs(5)),
        "the engine's child outlived the page"
    );
}

#[tokio::test]
async fn sigterm_kills_every_engine() {
    let mut server = Server::start(&[broken("parent", "child")], &[]);
    let (mut page, _) = Page::open(&server).await;
    let pid = page.start("p1", "parent").await;
    let child = grandchild(&mut page, "p1").await;
    let status = server.terminate();
    assert!(status.success(), "{status:?}");
    assert!(wait_gone(pid, Duration::from_secs(5)));
    assert!(wait_gone(child, Duration::from_secs(5)));
}

#[tokio::test]
async fn an_idle_page_is_closed_and_its_engines_killed() {
    let server = Server::start(&[broken("parent", "child")], &["--idle-timeout", "1"]);
    let (mut page, _) = Page::open(&server).await;
    let pid = page.start("p1", "parent").await;
    let child = grandchild(&mut page, "p1").await;
    let notice = page.until(|m| m["t"] == "error").await;
    assert!(says(&notice, "idle for 1 s"), "{notice}");
    assert_eq!(page.until(|m| m["t"] == "closed").await["t"], "closed");
    assert!(wait_gone(pid, Duration::from_secs(5)));
    assert!(wait_gone(child, Duration::from_secs(5)));
}

#[tokio::test]
async fn sessions_past_the_limit_are_told_the_server_is_busy() {
    let server = Server::start(&[pion()], &["--max-sessions", "1"]);
    let (_first, hello) = Page::open(&server).await;
    assert_eq!(hello["t"], "hello");
    let (mut second, refusal) = Page::open(&server).await;
    assert_eq!(refusal["t"], "error", "{refusal}");
    assert!(says(&refusal, "--max-sessions"), "{refusal}");
    assert_eq!(second.next().await["t"], "closed");
}

#[tokio::test]
async fn a_page_that_floods_the_server_is_closed() {
    let server = Server::start(&[pion()], &["--max-messages", "5"]);
    let (mut page, _) = Page::open(&server).await;
    let pid = page.start("rules", "pion").await;
    for _ in 0..40 {
        if !page.try_line("rules", "isready").await {
            break;
        }
    }
    let notice = page.until(|m| m["t"] == "error").await;
    assert!(says(&notice, "more than 5 messages a second"), "{notice}");
    assert!(wait_gone(pid, Duration::from_secs(5)));
}

#[tokio::test]
async fn messages_that_are_not_the_envelope_get_an_error() {
    let server = Server::start(&[pion()], &[]);
    let (mut page, _) = Page::open(&server).await;
    page.send(json!({"t": "launch", "cmd": "rm -rf /"})).await;
    let reply = page.next().await;
    assert_eq!(reply["t"], "error");
    assert!(says(&reply, "does not understand"), "{reply}");
    page.send(json!({"t": "start", "id": "../../x", "engine": "pion"}))
        .await;
    let reply = page.next().await;
    assert!(says(&reply, "engine id"), "{reply}");
}
