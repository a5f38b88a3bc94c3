//! A course agent of the INF8215 framework, wrapped by scripts/inf8215_agent.py, is an engine
//! pion-web can start: a whole tiebreak5 game against pion, and an agent that raises says why.

use std::path::Path;

use crate::common::{Page, Server, pion};

/// The wrapped fixture agent `class` as an `--engine` word list named `name`.
fn course_agent(name: &str, class: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let script = root.join("scripts/inf8215_agent.py");
    let fixtures = root.join("tests/inf8215/fixture_agents.py");
    vec![
        format!("name={name}"),
        format!(
            "cmd=python3 {} engine --module {} --class {class}",
            script.display(),
            fixtures.display()
        ),
    ]
}

#[tokio::test]
async fn a_wrapped_course_agent_plays_a_tiebreak5_game_against_pion() {
    let server = Server::start(&[pion(), course_agent("student", "GreedyAgent")], &[]);
    let (mut page, _) = Page::open(&server).await;
    page.start("rules", "pion").await;
    page.start("p1", "student").await;
    page.start("p2", "pion").await;
    for id in ["rules", "p1", "p2"] {
        page.line(id, "newgame avalam").await;
        page.line(id, "setoption name Variant value tiebreak5")
            .await;
    }
    page.line("p2", "setoption name Level value greedy").await;
    let mut moves: Vec<String> = Vec::new();
    let status = loop {
        assert!(moves.len() < 60, "an Avalam game ends within 48 plies");
        let position = format!("position startpos moves {}", moves.join(" "));
        page.line("rules", &position).await;
        page.line("rules", "status").await;
        let status = page.line_from("rules", "status").await;
        if status.starts_with("status over") {
            break status;
        }
        let seat = if status.contains("turn 1") {
            "p1"
        } else {
            "p2"
        };
        page.line(seat, &position).await;
        page.line(seat, "go p1time 5000 p2time 5000").await;
        let best = page.line_from(seat, "bestmove").await;
        let mv = best.split_whitespace().nth(1).unwrap().to_string();
        page.line("rules", "legal").await;
        let legal = page.line_from("rules", "legal").await;
        assert!(
            legal.split_whitespace().any(|m| m == mv),
            "{seat} played {mv}: {legal}"
        );
        moves.push(mv);
    };
    assert!(status.contains(" tiebreak "), "{status}");
    assert!(moves.len() > 20, "a game of {} plies", moves.len());
}

#[tokio::test]
async fn an_agent_that_raises_answers_go_with_its_reason() {
    let server = Server::start(&[course_agent("raiser", "RaisingAgent")], &[]);
    let (mut page, _) = Page::open(&server).await;
    page.start("p1", "raiser").await;
    page.line("p1", "position startpos").await;
    page.line("p1", "go p1time 1000").await;
    let error = page.line_from("p1", "error").await;
    assert_eq!(
        error,
        "error the agent raised ValueError: my heuristic divided by zero"
    );
    // The engine goes on: a handshake still works.
    page.line("p1", "isready").await;
    page.line_from("p1", "readyok").await;
}
