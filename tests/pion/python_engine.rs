//! Drives `scripts/random_engine.py` (the example engine in Python) through pipes and checks its
//! replies against the Rust rules: the handshake, perft, legal moves and `bestmove` along random
//! games, position strings written by the Rust formatter, bad input and reproducible seeding.
//! Skipped, with a note, when `python3` is not on PATH.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use pion_rules::avalam::Avalam;
use pion_rules::awale::Awale;
use pion_rules::game::{Game, History, perft};

/// Generous: the slowest request here (Awale perft 6 in Python) takes well under a second.
const DEADLINE: Duration = Duration::from_secs(60);

/// The Python engine as a child process, with its stdout lines arriving on a channel.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts the engine, or `None` (after printing a note) when there is no `python3`.
    fn start() -> Option<Engine> {
        if Command::new("python3").arg("--version").output().is_err() {
            println!("note: python3 is not on PATH; skipping the Python engine test");
            return None;
        }
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/random_engine.py");
        let mut child = Command::new("python3")
            .arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Some(Engine {
            child,
            stdin: Some(stdin),
            lines,
        })
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").expect("engine reads stdin");
        stdin.flush().unwrap();
    }

    fn recv(&mut self) -> String {
        self.lines
            .recv_timeout(DEADLINE)
            .expect("the engine answers before the deadline")
    }

    /// Sends a line and returns the one reply it must produce.
    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.recv()
    }

    /// Checks that `line` produces exactly one `error ...` line (the `isready` after it must be
    /// answered next) and returns it.
    fn expect_error(&mut self, line: &str) -> String {
        let reply = self.ask(line);
        assert!(reply.starts_with("error "), "{line:?} gave {reply:?}");
        assert_eq!(self.ask("isready"), "readyok", "after {line:?}");
        reply
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The legal moves of a game in progress, formatted, in the library's order.
fn legal<G: Game>(history: &History<G>) -> Vec<String> {
    let mut moves = G::Moves::default();
    history.legal_moves(&mut moves);
    moves.as_ref().iter().map(|&m| G::format_move(m)).collect()
}

/// The node count of a `perft depth N nodes C time T nps X` reply.
fn perft_nodes(reply: &str, depth: u32) -> u64 {
    let words: Vec<&str> = reply.split_whitespace().collect();
    assert_eq!(words.len(), 9, "{reply}");
    let labels = [words[0], words[1], words[3], words[5], words[7]];
    assert_eq!(
        labels,
        ["perft", "depth", "nodes", "time", "nps"],
        "{reply}"
    );
    assert_eq!(words[2], depth.to_string(), "{reply}");
    assert!(
        words[6].parse::<u64>().is_ok() && words[8].parse::<u64>().is_ok(),
        "{reply}"
    );
    words[4].parse().expect("a node count")
}

/// Plays up to `plies` plies of a game whose moves the Python engine picks, checking at every
/// ply its legal moves and its `bestmove` against the library; returns the moves played.
fn play_game<G: Game>(engine: &mut Engine, plies: usize) -> Vec<String> {
    let mut history = History::new(G::start(G::Variant::default()));
    engine.send(&format!("newgame {}", G::NAME));
    let mut played: Vec<String> = Vec::new();
    for _ in 0..plies {
        let mut command = String::from("position startpos");
        if !played.is_empty() {
            command = format!("{command} moves {}", played.join(" "));
        }
        engine.send(&command);
        let expected = legal(&history);
        let reply = engine.ask("legal");
        let listed: Vec<&str> = reply.split_whitespace().skip(1).collect();
        assert_eq!(listed, expected, "legal moves after {played:?}");
        let best = engine.ask("go movetime 10");
        let mv = best.strip_prefix("bestmove ").expect("a bestmove line");
        if expected.is_empty() {
            assert_eq!(mv, "none", "the game is over after {played:?}");
            break;
        }
        assert!(
            expected.iter().any(|m| m == mv),
            "{mv} is not legal after {played:?}"
        );
        history.play_text(mv).expect("the library accepts the move");
        played.push(mv.to_string());

        // The same position given as a string written by the Rust formatter reads back alike.
        let position = history.position().format_position();
        engine.send(&format!("position {position}"));
        if !history.is_repetition() {
            let reply = engine.ask("legal");
            let listed: Vec<&str> = reply.split_whitespace().skip(1).collect();
            assert_eq!(listed, legal(&history), "legal moves of {position}");
        }
    }
    played
}

#[test]
fn handshake_and_readiness() {
    let Some(mut engine) = Engine::start() else {
        return;
    };
    engine.send("pion");
    let mut lines = Vec::new();
    loop {
        let line = engine.recv();
        if line == "pionok" {
            break;
        }
        let first = line.split_whitespace().next().unwrap_or("");
        assert!(["id", "game", "option"].contains(&first), "{line}");
        lines.push(line);
    }
    for wanted in ["game avalam", "game awale"] {
        assert!(lines.iter().any(|l| l == wanted), "{lines:?}");
    }
    assert!(lines.iter().any(|l| l.starts_with("id name ")));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Seed type spin default 0"))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Variant type combo default standard"))
    );
    assert_eq!(engine.ask("isready"), "readyok");
    engine.send("quit");
    let status = engine.child.wait().expect("the engine exits on quit");
    assert!(status.success());
}

#[test]
fn perft_matches_the_rust_rules() {
    let Some(mut engine) = Engine::start() else {
        return;
    };
    engine.send("newgame avalam");
    let expected = perft(&Avalam::start(Default::default()), 2);
    assert_eq!(expected, 81_488);
    assert_eq!(perft_nodes(&engine.ask("perft 2"), 2), expected);
    engine.send("newgame awale");
    for depth in [1, 2, 6] {
        let expected = perft(&Awale::start(Default::default()), depth);
        assert_eq!(
            perft_nodes(&engine.ask(&format!("perft {depth}")), depth),
            expected
        );
    }
    assert_eq!(perft_nodes(&engine.ask("perft 0"), 0), 1);
}

#[test]
fn random_games_follow_the_rules() {
    let Some(mut engine) = Engine::start() else {
        return;
    };
    engine.send("setoption name Seed value 3");
    // Every Avalam move merges two towers, so a game of 48 pieces ends within 47 plies: the
    // engine must then say `bestmove none` (checked inside play_game).
    let avalam = play_game::<Avalam>(&mut engine, 60);
    assert!(avalam.len() < 48, "{}", avalam.len());
    // Awale random games usually end within a few hundred plies: play one to its end or 300.
    play_game::<Awale>(&mut engine, 300);
}

#[test]
fn a_finished_game_has_no_move() {
    let Some(mut engine) = Engine::start() else {
        return;
    };
    engine.send("newgame awale");
    // Player 1 captured 25: the game is over.
    engine.send("position 1,0,0,0,0,0/1,0,0,0,0,0/25,21 1");
    assert_eq!(engine.ask("legal"), "legal");
    assert_eq!(engine.ask("go depth 3"), "bestmove none");
    // Only F feeds the opponent, whose row is empty.
    engine.send("position 0,0,0,0,1,1/0,0,0,0,0,0/23,23 1");
    assert_eq!(engine.ask("legal"), "legal F");
    assert_eq!(engine.ask("go nodes 5"), "bestmove F");
    // Avalam with two isolated towers: nobody can move.
    engine.send("newgame avalam");
    let corners =
        "y......../........./........./........./........./........./........./........./........r";
    engine.send(&format!("position {corners} 2"));
    assert_eq!(engine.ask("legal"), "legal");
    assert_eq!(engine.ask("go"), "bestmove none");
    // A row one cell short is refused and the position stays.
    let short = corners.replacen("/........./", "/......../", 1);
    engine.expect_error(&format!("position {short} 1"));
    assert_eq!(engine.ask("legal"), "legal");
}

#[test]
fn bad_input_gets_one_error_and_changes_nothing() {
    let Some(mut engine) = Engine::start() else {
        return;
    };
    engine.send("newgame avalam");
    engine.send("position startpos moves e4d4");
    let before = engine.ask("legal");
    for line in [
        "foo",
        "position startpos moves zz",
        "position startpos moves e4e5",
        "position startpos moves e4d4 e4d4",
        "position 9/9/9 1",
        "position ..yr...../.yryr..../.ryryry../.yryryryr/yryr.ryry/ryryryry./..yryryr./....ryry./.....ry.. 3",
        "position ..yr6..../.yryr..../.ryryry../.yryryryr/yryr.ryry/ryryryry./..yryryr./....ryry./.....ry.. 1",
        "position",
        "go depth",
        "go sideways",
        "perft x",
        "newgame chess",
        "setoption name Variant value student",
        "setoption name Hash value 16",
        "setoption name Seed value -1",
        "setoption Seed 1",
    ] {
        engine.expect_error(line);
        assert_eq!(engine.ask("legal"), before, "state changed by {line:?}");
    }
    engine.send("newgame awale");
    engine.expect_error("position 4,4,4,4,4,4/4,4,4,4,4,4/0,1 1");
    engine.expect_error("position startpos moves a");
    engine.expect_error("setoption name Variant value grandslam-capture");
    assert_eq!(engine.ask("legal"), "legal A B C D E F");
    // Accepted options and empty lines produce no reply at all.
    engine.send("setoption name Variant value standard");
    engine.send("");
    engine.send("stop");
    assert_eq!(engine.ask("isready"), "readyok");
    // EOF ends the engine like quit.
    engine.stdin = None;
    assert!(engine.child.wait().unwrap().success());
}

#[test]
fn the_seed_makes_play_reproducible() {
    let Some(mut first) = Engine::start() else {
        return;
    };
    let mut second = Engine::start().unwrap();
    let mut third = Engine::start().unwrap();
    first.send("setoption name Seed value 42");
    second.send("setoption name Seed value 42");
    third.send("setoption name Seed value 43");
    let a = play_game::<Avalam>(&mut first, 12);
    let b = play_game::<Avalam>(&mut second, 12);
    let c = play_game::<Avalam>(&mut third, 12);
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn go_infinite_waits_for_stop() {
    let Some(mut engine) = Engine::start() else {
        return;
    };
    engine.send("newgame awale");
    engine.send("go infinite");
    assert_eq!(engine.ask("isready"), "readyok", "no bestmove before stop");
    let best = engine.ask("stop");
    assert!(
        ["A", "B", "C", "D", "E", "F"].contains(&best.strip_prefix("bestmove ").unwrap_or("")),
        "{best}"
    );
    assert_eq!(
        engine.ask("isready"),
        "readyok",
        "stop without a search is silent"
    );
}
