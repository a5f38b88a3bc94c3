//! The command lines of `pion`: subcommands, help and bad flags.

use crate::common::PION;
use std::process::Command;

fn pion(args: &[&str]) -> std::process::Output {
    Command::new(PION).args(args).output().expect("pion runs")
}

#[test]
fn perft_subcommand_prints_the_protocol_line() {
    let out = pion(&["perft", "--game", "avalam", "--depth", "2"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("perft depth 2 nodes 81488 time "),
        "{text}"
    );
    let out = pion(&["perft", "--game", "awale", "--depth", "6"]);
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("perft depth 6 nodes 27332 ")
    );
    let out = pion(&[
        "perft",
        "--game",
        "awale",
        "--depth",
        "1",
        "--position",
        "0,0,0,0,0,1/0,0,0,0,0,0/23,24 1",
    ]);
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("perft depth 1 nodes 1 ")
    );
}

#[test]
fn bad_positions_and_flags_fail_with_one_clear_line() {
    let out = pion(&["perft", "--depth", "1", "--position", "nonsense"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--position takes '<board> <side>'"), "{err}");

    let out = pion(&["perft", "--depth", "1", "--position", "../.. 1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("bad Avalam position")
    );

    for args in [
        &["--bogus"][..],
        &["perft"],
        &["perft", "--depth", "x"],
        &["perft", "--game", "chess", "--depth", "1"],
        // Depths the protocol refuses too: these would run for days.
        &["perft", "--depth", "17"],
        &["bench", "65"],
    ] {
        let out = pion(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn help_explains_the_protocol_and_the_subcommands() {
    let out = pion(&["--help"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in ["protocol", "perft", "bench", "play", "stdin"] {
        assert!(text.contains(needle), "--help mentions {needle}:\n{text}");
    }
    // The protocol's commands, from the table the parser reads.
    for spec in pion_protocol::COMMANDS {
        let line = format!("  {:<10}  {}", spec.name, spec.summary);
        assert!(text.contains(&line), "--help lists {}:\n{text}", spec.name);
    }
}

#[test]
fn a_person_at_a_terminal_is_told_to_type_help_and_a_pipe_is_not() {
    // `script` gives pion a terminal for stdin (util-linux, on every Debian machine).
    let out = Command::new("script")
        .args(["-qec", PION, "/dev/null"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"help quit\nquit\n")?;
            child.wait_with_output()
        })
        .expect("script runs pion (install util-linux if it is missing)");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("help lists them"), "{text}");
    assert!(text.contains("help usage: quit"), "{text}");

    let out = Command::new(PION)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("pion runs");
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
}
