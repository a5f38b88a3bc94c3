//! pion driven as Aualé drives an engine: a client of our own that follows Aualé's
//! `src/auale/uci/client.py` and `gui/services/game_loop.py` (two engine processes, one per
//! side; `uci` and 8 s for `uciok`; before each search `stop` if the player still searches,
//! `ucinewgame` and `isready`, `position` from the last capture (`startpos` or `fen`, the moves
//! run together), `go depth D movetime T` or, at "expert", `go movetime T`; at "hard" and
//! "expert" the player that just moved ponders with `go ponder` on the position after its
//! move and the reply it expects, ended by `stop` whose `bestmove` is thrown away; 8 s for
//! every answer). Every line is checked against Aualé's grammar (`src/auale/uci/rules.py`),
//! and every move against pion's rules. Whole games are played at each of Aualé's levels
//! (`src/auale/uci/strength.py`); the time of the two slow levels is divided by 60 so that a
//! game takes seconds, their depths and command forms are Aualé's.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use crate::common::PION;
use pion_protocol::oware::START;
use pion_rules::awale::{Awale, Variant};
use pion_rules::game::{Game, History};

/// Aualé's response timeout.
const TIMEOUT: Duration = Duration::from_secs(8);

/// One of Aualé's levels: depth, movetime, pondering.
struct Strength {
    name: &'static str,
    depth: Option<u32>,
    movetime: u64,
    ponder: bool,
}

const LEVELS: [Strength; 4] = [
    Strength {
        name: "easy",
        depth: Some(4),
        movetime: 600,
        ponder: false,
    },
    Strength {
        name: "medium",
        depth: Some(8),
        movetime: 1200,
        ponder: false,
    },
    Strength {
        name: "hard",
        depth: Some(16),
        movetime: 2400 / 60,
        ponder: true,
    },
    Strength {
        name: "expert",
        depth: None,
        movetime: 3600 / 60,
        ponder: true,
    },
];

/// An engine process as Aualé's `Client` sees it.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    searching: bool,
    /// Whether the board it ponders on is finished (the guessed reply ended the game).
    pondering_finished: bool,
}

fn is_pit(text: &str) -> bool {
    text.len() == 1 && "ABCDEFabcdef".contains(text)
}

/// Whether a line reads under Aualé's rules.py as one of the replies it knows.
fn auale_reads(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["uciok"] | ["readyok"] => true,
        ["id", "name" | "author", _, ..] => true,
        ["option", "name", _, "type", kind, ..] => {
            ["check", "spin", "combo", "button", "string"].contains(kind)
        }
        ["bestmove", mv] => is_pit(mv),
        ["bestmove", mv, "ponder", p] => is_pit(mv) && is_pit(p),
        ["info", "string", ..] => true,
        ["info", rest @ ..] => {
            let mut i = 0;
            while i < rest.len() {
                let value = rest.get(i + 1).copied().unwrap_or("");
                let number = value.parse::<i64>().is_ok();
                match rest[i] {
                    "depth" | "seldepth" | "time" | "nodes" | "nps" | "hashfull" | "tbhits" => {
                        if !number {
                            return false;
                        }
                        i += 2;
                    }
                    "score" => {
                        if rest.get(i + 1) != Some(&"cp")
                            || rest.get(i + 2).is_none_or(|v| v.parse::<i64>().is_err())
                        {
                            return false;
                        }
                        i += 3;
                        if matches!(rest.get(i), Some(&"lowerbound" | &"upperbound")) {
                            i += 1;
                        }
                    }
                    "pv" => {
                        return rest.len() == i + 2
                            && value.chars().all(|c| "ABCDEFabcdef".contains(c));
                    }
                    _ => return false,
                }
            }
            true
        }
        _ => false,
    }
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(PION)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("pion starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                // Aualé's reader stops at an empty line: pion must never print one.
                assert!(!line.trim().is_empty(), "pion printed an empty line");
                // `bestmove 0000` answers a search of a finished board, as Aalina's does: the
                // client checks that it only comes for a ponder on such a board.
                assert!(
                    auale_reads(&line) || line == "bestmove 0000",
                    "Aualé cannot read: {line}"
                );
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines,
            searching: false,
            pondering_finished: false,
        };
        engine.send("uci");
        engine.wait_for(|l| l == "uciok");
        engine
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The first line for which `done` holds, within Aualé's timeout; others are skipped.
    fn wait_for(&mut self, done: impl Fn(&str) -> bool) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(TIMEOUT)
                .expect("an answer within Aualé's 8 s");
            if done(&line) {
                return line;
            }
        }
    }

    fn bestmove(&mut self) -> (String, Option<String>) {
        let line = self.wait_for(|l| l.starts_with("bestmove "));
        self.searching = false;
        let words: Vec<&str> = line.split_whitespace().collect();
        (words[1].to_string(), words.get(3).map(|p| p.to_string()))
    }

    /// `stop_thinking`: `stop` and the `bestmove` thrown away, if the engine searches.
    fn stop_thinking(&mut self) {
        if self.searching {
            self.send("stop");
            let (mv, _) = self.bestmove();
            assert!(
                is_pit(&mv) || (mv == "0000" && self.pondering_finished),
                "bestmove {mv} after stop"
            );
            self.pondering_finished = false;
        }
    }

    /// `start_new_match` and `_synchronize`.
    fn new_match(&mut self) {
        self.send("ucinewgame");
        self.send("isready");
        self.wait_for(|l| l == "readyok");
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success());
    }
}

/// The `position` arguments Aualé builds: from the last capture, `startpos` when that board is
/// the initial one, else `fen`, then the moves since (and the ponder move) run together.
fn position_arguments(history: &History<Awale>, ponder: Option<&str>) -> String {
    let positions = history.positions();
    let capture = (1..positions.len())
        .rev()
        .find(|&i| positions[i].captured() != positions[i - 1].captured())
        .unwrap_or(0);
    let root = positions[capture];
    let text = root.format_position();
    let (board, side) = text.split_once(' ').unwrap();
    let dash = pion_protocol::oware::pion_to_dash(board, side).unwrap();
    // Aualé compares the board alone (14 numbers), not the side to move.
    let mut args = if dash[..dash.len() - 2] == START[..START.len() - 2] {
        "startpos".to_string()
    } else {
        format!("fen {dash}")
    };
    let mut moves: String = history.moves()[capture..]
        .iter()
        .map(|&m| Awale::format_move(m))
        .collect();
    moves.push_str(ponder.unwrap_or(""));
    if !moves.is_empty() {
        args.push_str(&format!(" moves {moves}"));
    }
    args
}

/// Plays one whole game between two pion processes at `level`; the number of moves.
fn play_game(level: &Strength) -> usize {
    let mut engines = [Engine::start(), Engine::start()];
    let mut history = History::new(Awale::start(Variant::GrandSlamNoCapture));
    let mut ponder_cache: HashMap<usize, String> = HashMap::new();
    let mut previous: Option<usize> = None;
    // Aualé's Match ends where the side to move has no legal move by its rules.
    while history.outcome().is_none() && !history.position().ends_without_moving() {
        let side = history.position().side_to_move().index();
        // The previous player stops and, at the pondering levels, ponders.
        if let Some(p) = previous.filter(|&p| p != side) {
            engines[p].stop_thinking();
            if level.ponder {
                let guess = ponder_cache.get(&history.moves().len()).cloned();
                let args = position_arguments(&history, guess.as_deref());
                engines[p].new_match();
                engines[p].send(&format!("position {args}"));
                engines[p].pondering_finished = guess.as_deref().is_some_and(|g| {
                    let mut guessed = history.clone();
                    guessed.play_text(g).is_ok()
                        && (guessed.outcome().is_some() || guessed.position().ends_without_moving())
                });
                engines[p].send("go ponder");
                engines[p].searching = true;
            }
        }
        previous = Some(side);
        let engine = &mut engines[side];
        engine.stop_thinking();
        engine.new_match();
        engine.send(&format!("position {}", position_arguments(&history, None)));
        let go = match level.depth {
            Some(depth) => format!("go depth {depth} movetime {}", level.movetime),
            None => format!("go movetime {}", level.movetime),
        };
        engine.send(&go);
        engine.searching = true;
        let (mv, ponder) = engine.bestmove();
        history
            .play_text(&mv)
            .unwrap_or_else(|e| panic!("{}: pion played {mv}: {e}", level.name));
        if let Some(ponder) = ponder {
            ponder_cache.insert(history.moves().len(), ponder);
        }
    }
    let moves = history.moves().len();
    for mut engine in engines {
        engine.stop_thinking();
        engine.quit();
    }
    moves
}

#[test]
fn auale_plays_whole_games_with_pion_at_each_level() {
    for level in &LEVELS {
        let moves = play_game(level);
        assert!(moves > 10, "{}: a game of {moves} moves", level.name);
    }
}

#[test]
fn the_grammar_check_refuses_what_auale_cannot_read() {
    assert!(auale_reads(
        "info depth 3 score cp -12 upperbound nodes 5 pv FfE"
    ));
    assert!(!auale_reads("info depth 3 score win 2 pv F"));
    assert!(!auale_reads("info depth 3 pv F f E"));
    assert!(!auale_reads("bestmove none"));
    assert!(!auale_reads("bestmove 0000"));
    assert!(!auale_reads("error unknown command 'uci'"));
    assert!(auale_reads("bestmove C ponder d"));
}
