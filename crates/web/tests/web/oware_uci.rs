//! A UCI Oware engine (`proto=uci`) through a real pion-web: the page speaks pion's protocol,
//! the referee's strict mock engine hears only its dialect, as its log of commands shows.

use crate::common::{Page, Server, pion, uci_mock};
use serde_json::json;

/// The lines of engine `id` up to (and with) the first one that starts with `last`.
async fn lines_until(page: &mut Page, id: &str, last: &str) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let message = page.until(|m| m["t"] == "line" && m["id"] == id).await;
        let line = message["line"].as_str().unwrap().to_string();
        let done = line.starts_with(last);
        lines.push(line);
        if done {
            return lines;
        }
    }
}

/// The page plays a whole Awale game against the mock (player 2) with pion keeping the
/// rules, then analyses with `go infinite` and `stop`; refusals come back as `error` lines.
#[tokio::test]
async fn plays_and_analyses_with_a_uci_oware_engine() {
    let dir = std::env::temp_dir().join(format!("pion-web-uci-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("mock.log");
    let _ = std::fs::remove_file(&log);
    let server = Server::start(&[pion(), uci_mock("aalina", &log)], &[]);
    let (mut page, hello) = Page::open(&server).await;
    assert_eq!(hello["engines"], json!(["pion", "aalina"]));
    page.start("rules", "pion").await;
    page.send(json!({"t": "start", "id": "p2", "engine": "aalina"}))
        .await;
    let started = page.until(|m| m["t"] != "line").await;
    assert_eq!(started["t"], "started", "{started}");
    page.line("p2", "pion").await;
    let handshake = lines_until(&mut page, "p2", "pionok").await;
    assert_eq!(handshake[0], "id name aalina 1.0");
    assert!(
        handshake.contains(&"game awale".to_string()),
        "{handshake:?}"
    );
    assert!(
        handshake.contains(&"option name OwnBook type check default true".to_string()),
        "{handshake:?}"
    );
    // The page's refusals: another variant, Avalam, a command the dialect lacks.
    for (line, error) in [
        (
            "setoption name Variant value standard",
            "error a UCI Oware engine plays only the variant grandslam-nocapture",
        ),
        (
            "newgame avalam",
            "error a UCI Oware engine plays only awale",
        ),
        ("legal", "error 'legal' is not in the Oware UCI dialect"),
    ] {
        page.line("p2", line).await;
        let got = page.line_from("p2", "error").await;
        assert!(got.starts_with(error), "{line}: {got}");
    }
    for line in [
        "newgame awale",
        "setoption name Variant value grandslam-nocapture",
    ] {
        page.line("rules", line).await;
        page.line("p2", line).await;
    }
    page.line("p2", "isready").await;
    assert_eq!(lines_until(&mut page, "p2", "readyok").await, ["readyok"]);

    let mut moves: Vec<String> = Vec::new();
    let mut infos = 0;
    let end = loop {
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
            page.line("p2", "go p1time 5000 p2time 5000 p1inc 0 p2inc 0")
                .await;
            let lines = lines_until(&mut page, "p2", "bestmove").await;
            infos += lines
                .iter()
                .filter(|l| l.starts_with("info depth 1 score"))
                .count();
            let best = lines
                .last()
                .unwrap()
                .split_whitespace()
                .nth(1)
                .unwrap()
                .to_string();
            if best == "none" {
                // The mover cannot feed: the abapa rules of the engine end the game here.
                break status;
            }
            best
        };
        assert!(legal.contains(&mv.as_str()), "{mv} is not in {legal:?}");
        moves.push(mv);
    };
    assert!(end.contains("score"), "{end}");
    assert!(moves.len() > 10, "a game of {} plies", moves.len());
    assert!(infos > 0, "no info line came back in pion's form");

    // Analysis of the position after two moves.
    page.line("p2", "position startpos moves A b").await;
    page.line("p2", "go infinite").await;
    let lines = lines_until(&mut page, "p2", "bestmove").await;
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 1 score cp ") && l.contains(" pv ")),
        "{lines:?}"
    );
    page.line("p2", "stop").await;
    page.line("p2", "isready").await;
    page.line_from("p2", "readyok").await;

    let heard = std::fs::read_to_string(&log).unwrap();
    let heard: Vec<&str> = heard.lines().collect();
    assert_eq!(heard[0], "uci");
    for want in [
        "ucinewgame",
        "go wtime 5000 btime 5000 winc 0 binc 0",
        "position startpos moves Ab",
        "go infinite",
        "stop",
    ] {
        assert!(heard.contains(&want), "the engine never heard '{want}'");
    }
    // The game's positions went out with the moves run together, as the dialect writes them.
    assert!(
        heard.iter().any(|l| l
            .strip_prefix("position startpos moves ")
            .is_some_and(|m| m.len() > 10 && !m.contains(' '))),
        "{heard:?}"
    );
    assert!(
        !heard
            .iter()
            .any(|l| l.starts_with("pion") || l.starts_with("legal") || l.contains("Variant")),
        "the engine heard pion's protocol: {heard:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
