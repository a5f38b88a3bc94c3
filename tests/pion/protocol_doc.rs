//! The example sessions of protocol.md, run through the real binary: the document stays true.

use crate::common::PION;
use std::io::Write;
use std::process::{Command, Stdio};

/// The code block that follows the marker `<!-- example NAME KIND -->`.
fn example(doc: &str, name: &str, kind: &str) -> Vec<String> {
    let marker = format!("<!-- example {name} {kind} -->");
    let start = doc
        .find(&marker)
        .unwrap_or_else(|| panic!("protocol.md has no {marker}"));
    let rest = &doc[start + marker.len()..];
    let open = rest.find("```").expect("a code block follows the marker");
    let body = &rest[open + 3..];
    let body = &body[body.find('\n').expect("fence line") + 1..];
    let close = body.find("\n```").expect("the code block is closed");
    body[..close].lines().map(str::to_string).collect()
}

/// Whether an actual line matches an expected one, where `<n>` is any number and `<move>` any
/// token (a run of non-space characters).
fn line_matches(expected: &str, actual: &str) -> bool {
    if let Some(rest) = expected.strip_prefix("<n>") {
        let digits = actual.chars().take_while(|c| c.is_ascii_digit()).count();
        return (1..=digits).any(|n| line_matches(rest, &actual[n..]));
    }
    if let Some(rest) = expected.strip_prefix("<move>") {
        let len = actual.chars().take_while(|c| *c != ' ').count();
        return (1..=len).any(|n| line_matches(rest, &actual[n..]));
    }
    match (expected.chars().next(), actual.chars().next()) {
        (None, None) => true,
        (Some(e), Some(a)) if e == a => {
            line_matches(&expected[e.len_utf8()..], &actual[a.len_utf8()..])
        }
        _ => false,
    }
}

/// Compares replies to the expected lines, where `info ...` stands for one or more info lines.
fn check(name: &str, expected: &[String], actual: &[String]) {
    let mut a = 0;
    for (i, want) in expected.iter().enumerate() {
        if want == "info ..." {
            let start = a;
            while a < actual.len() && actual[a].starts_with("info ") {
                a += 1;
            }
            assert!(
                a > start,
                "{name}: expected info lines before line {}",
                i + 1
            );
            continue;
        }
        let got = actual.get(a).unwrap_or_else(|| {
            panic!(
                "{name}: output ended before expected line {}: {want}",
                i + 1
            )
        });
        assert!(
            line_matches(want, got),
            "{name}: line {} differs\n  expected: {want}\n  actual:   {got}\nwhole output:\n{}",
            a + 1,
            actual.join("\n")
        );
        a += 1;
    }
    assert_eq!(
        a,
        actual.len(),
        "{name}: unexpected extra output: {:?}",
        &actual[a..]
    );
}

fn run_session(input: &[String]) -> Vec<String> {
    let mut child = Command::new(PION)
        // No default endgame databases, so no one-time hint after the handshake: the
        // replies are the same on every machine.
        .env("PION_EGTB", "")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("pion starts");
    let mut stdin = child.stdin.take().unwrap();
    for line in input {
        writeln!(stdin, "{line}").unwrap();
    }
    drop(stdin);
    let output = child.wait_with_output().expect("pion exits");
    assert!(
        output.status.success(),
        "pion exited with {}",
        output.status
    );
    String::from_utf8(output.stdout)
        .expect("stdout is UTF-8")
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn protocol_examples_hold() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md"))
        .expect("protocol.md exists");
    for name in ["avalam", "awale", "tiebreak", "help", "errors", "uci"] {
        let input = example(&doc, name, "input");
        let expected = example(&doc, name, "output");
        let actual = run_session(&input);
        check(name, &expected, &actual);
    }
}

#[test]
fn wildcards_match_only_what_they_should() {
    assert!(line_matches(
        "perft depth 1 nodes 292 time <n> nps <n>",
        "perft depth 1 nodes 292 time 0 nps 292000"
    ));
    assert!(!line_matches(
        "perft depth 1 nodes 292 time <n> nps <n>",
        "perft depth 1 nodes 293 time 0 nps 1"
    ));
    assert!(!line_matches("time <n>", "time x"));
    assert!(line_matches("bestmove <move>", "bestmove e4e5"));
    assert!(!line_matches("bestmove <move>", "bestmove e4e5 extra"));
}
