//! `pion play` end to end through pipes: a person's commands in, the transcript out.

use crate::common::PION;
use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Runs `pion play ARGS` with `input` on stdin (then end of input); panics when it does not
/// exit within a minute.
fn play(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(PION)
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pion starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("pion play {args:?} did not exit within 60 s");
        }
        thread::sleep(Duration::from_millis(20));
    }
    writer.join().unwrap();
    child.wait_with_output().expect("output")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8")
}

/// The `position ...` line the transcript ends with.
fn moves_line(transcript: &str) -> String {
    let last = transcript.lines().last().expect("a transcript");
    last.strip_prefix("The moves: ")
        .unwrap_or_else(|| panic!("the transcript ends with the moves: {transcript}"))
        .to_string()
}

/// What the protocol says of a game replayed from a `position ...` line.
fn replayed_status(game: &str, position: &str) -> String {
    let output = Command::new(PION)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            let commands = format!("newgame {game}\n{position}\nstatus\n");
            child.stdin.take().unwrap().write_all(commands.as_bytes())?;
            child.wait_with_output()
        })
        .expect("pion runs");
    String::from_utf8(output.stdout).unwrap().trim().to_string()
}

#[test]
fn an_awale_session_with_every_command_and_bad_input() {
    let input = "C\nmoves\nhint\nbogus\nA b\nundo\nundo\nshow\nhelp\nquit\n";
    let output = play(
        &["--game", "awale", "--level", "random", "--movetime", "20"],
        input,
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(!text.contains('\x1b'), "no colours in a pipe: {text}");
    // The board after the person's C, its pit marked, then pion's reply.
    assert!(
        text.contains("1 |  4   4 [ 0]  5   5   5 | captured 0"),
        "{text}"
    );
    assert!(text.contains("last move: C (you)"), "{text}");
    // The score from the player's side: captures as captures, the projection as such.
    assert!(
        text.contains("captured: you 0, pion 0; with the seeds on each side, the result if the game ended now: you "),
        "{text}"
    );
    // A typing mistake gets one line and the prompt, not the board again.
    assert!(
        text.contains("an Awale move is one pit letter")
            && text.contains("(type moves for your legal moves)\nyour move> A b"),
        "{text}"
    );
    assert!(text.contains("pion plays "), "{text}");
    assert!(
        text.contains("your move> moves\nyour legal moves: "),
        "{text}"
    );
    assert!(text.contains("your move> hint\nhint: "), "{text}");
    assert!(text.contains(" (score "), "the hint has a score: {text}");
    assert!(
        text.contains("bad move 'bogus': an Awale move is one pit letter"),
        "{text}"
    );
    assert!(
        text.contains("'A b' is not a move or a command; type help for the commands"),
        "{text}"
    );
    assert!(
        text.contains("nothing to undo: you have not moved yet"),
        "the second undo: {text}"
    );
    assert!(
        text.contains("  undo     take back your last move (and pion's reply)"),
        "{text}"
    );
    // Both moves were taken back.
    assert_eq!(moves_line(&text), "position startpos");
}

#[test]
fn an_avalam_game_to_its_end() {
    let tiny = "........./........./........./........./........./........./........./........./yr....... 1";
    let output = play(&["--position", tiny], "b1c1\nz9z9\na1b1\n");
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains("your move> b1c1\nillegal move b1c1: c1 is empty (type moves for your legal moves)\nyour move> z9z9"),
        "{text}"
    );
    assert!(text.contains("no cell z9"), "{text}");
    assert!(text.contains("1 [ .][y2]"), "the last move marked: {text}");
    assert!(
        text.contains("Game over (no move left): you win, 1 to 0, by 1."),
        "{text}"
    );
    let position = moves_line(&text);
    assert_eq!(position, format!("position {tiny} moves a1b1"));
    assert_eq!(
        replayed_status("avalam", &position),
        "status over winner 1 score 1 0 reason nomoves"
    );
}

#[test]
fn a_capture_is_announced() {
    let output = play(
        &[
            "--game",
            "awale",
            "--position",
            "0,0,0,0,0,1/1,0,0,0,0,0/23,23 1",
        ],
        "F\n",
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(text.contains("you capture 2 seeds."), "{text}");
}

#[test]
fn the_avalam_board_shows_its_shape_and_the_help_a_legal_move() {
    let output = play(&["--level", "random", "--movetime", "20"], "help\nquit\n");
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    // Row 9 holds c9 and d9 only: the rest of the row is off the board, drawn blank.
    assert!(text.contains("\n9          y1  r1 "), "{text}");
    assert!(text.contains("d4e4 in Avalam"), "{text}");
    let legal = replayed_legal();
    assert!(legal.split_whitespace().any(|m| m == "d4e4"), "{legal}");
}

/// pion's legal moves at Avalam's start.
fn replayed_legal() -> String {
    let mut child = Command::new(PION)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"newgame avalam\nposition startpos\nlegal\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .find(|l| l.starts_with("legal"))
        .unwrap_or("")
        .to_string()
}

#[test]
fn an_awale_game_pion_wins() {
    let output = play(
        &[
            "--game",
            "awale",
            "--position",
            "0,0,0,0,0,1/0,0,0,0,0,0/23,24 1",
            "--movetime",
            "20",
        ],
        "A\nF\n",
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(text.contains("illegal move A"), "{text}");
    assert!(text.contains("pion plays a (score win 2"), "{text}");
    assert!(
        text.contains("Game over (no move left): pion wins, 25 to 23, by 2."),
        "{text}"
    );
    let position = moves_line(&text);
    assert_eq!(
        position,
        "position 0,0,0,0,0,1/0,0,0,0,0,0/23,24 1 moves F a"
    );
    assert!(replayed_status("awale", &position).starts_with("status over winner 2 score 23 25"));
}

#[test]
fn pion_moves_first_for_side_2_and_end_of_input_ends_the_game() {
    let output = play(
        &["--side", "2", "--level", "random", "--movetime", "20"],
        "",
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(text.contains("You are player 2 (red, r)"), "{text}");
    assert!(text.contains("pion plays "), "{text}");
    assert!(
        text.contains("End of input: the game stops here."),
        "{text}"
    );
    let position = moves_line(&text);
    assert!(position.starts_with("position startpos moves "), "{text}");
    assert!(replayed_status("avalam", &position).starts_with("status playing turn 2"));
}

#[test]
fn bad_options_get_one_line_errors() {
    for (args, wanted) in [
        (
            vec!["--side", "3"],
            "pion: error: invalid value '3' for '--side <SIDE>'",
        ),
        (
            vec!["--level", "superhuman"],
            "pion: error: invalid value 'superhuman'",
        ),
        (vec!["--position", "4,4 1"], "pion play: position: "),
        (
            vec!["--position", "4,4"],
            "pion play: --position takes '<board> <side>'",
        ),
        (
            vec!["--game", "awale", "--variant", "own-colour"],
            "pion play: --variant own-colour is not a variant of awale",
        ),
    ] {
        let output = play(&args, "");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(!output.status.success(), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with(wanted), "{args:?}: {stderr}");
    }
}

#[test]
fn a_reader_that_goes_away_ends_the_game_without_a_panic() {
    let mut child = Command::new(PION)
        .args([
            "play",
            "--game",
            "awale",
            "--level",
            "random",
            "--movetime",
            "20",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pion starts");
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(b"C\nshow\nshow\n");
    drop(stdin);
    let output = child.wait_with_output().expect("pion exits");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}
