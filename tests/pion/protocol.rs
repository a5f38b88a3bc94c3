//! The engine process through real pipes: good commands, bad input, and searches.

use std::time::{Duration, Instant};

use crate::common::PION;
use crate::common::Pion;

const START: &str =
    "..yr...../.yryr..../.ryryry../.yryryryr/yryr.ryry/ryryryry./..yryryr./....ryry./.....ry.. 1";

fn position_line(pion: &mut Pion) -> String {
    pion.send("show");
    pion.recv_until("position ").pop().unwrap()
}

#[test]
fn handshake_lists_games_and_options_then_pionok() {
    let mut pion = Pion::start();
    pion.send("pion");
    let lines = pion.recv_until("pionok");
    assert_eq!(lines[0], "id name pion");
    assert!(lines.iter().any(|l| l == "game avalam"));
    assert!(lines.iter().any(|l| l == "game awale"));
    for name in [
        "Hash",
        "Threads",
        "Search",
        "Level",
        "Seed",
        "Variant",
        "MoveOverhead",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "option {name} is listed"
        );
    }
    pion.send("ugi");
    let lines = pion.recv_until("ugiok");
    assert!(
        !lines.iter().any(|l| l.starts_with("game ")),
        "UGI gets no game lines"
    );
}

#[test]
fn every_bad_line_gets_one_error_and_changes_nothing() {
    let mut pion = Pion::start();
    pion.send("position startpos moves a5b5");
    let before = position_line(&mut pion);
    let bad = [
        "frobnicate",
        "play",
        "play e4",
        "play j1a1",
        "play a5b5",
        "position",
        "position startpos moves a5b5 a5b5",
        "position ../../.. 1",
        "position ..yr...../.yryr..../.ryryry../.yryryryr/yryr.ryry/ryryryry./..yryryr./....ryry./.....ry.. 3",
        "go depth -1",
        "go nodes 99999999999999999999999",
        "go p1time 100",
        "go p1inc 100",
        "go infinite infinite",
        "setoption name Hash value 0",
        "setoption name Hash value 99999",
        "setoption name Nope value 1",
        "setoption name Variant value grandslam",
        "setoption Hash 1",
        "newgame go",
        "perft 99",
        "perft x",
        "bench x",
        "query",
        "isready now",
        "undo undo",
        "\u{1}\u{2}\u{7f}",
        "pion\tpion",
    ];
    for line in bad {
        let reply = pion.ask(line);
        assert!(reply.starts_with("error "), "{line:?} got {reply:?}");
        assert!(!reply[6..].is_empty());
        pion.expect_silent();
    }
    assert_eq!(position_line(&mut pion), before);
}

#[test]
fn huge_lines_binary_bytes_and_invalid_utf8_are_rejected() {
    let mut pion = Pion::start();
    let mut huge = vec![b'x'; 5 << 20];
    huge.push(b'\n');
    pion.send_bytes(&huge);
    assert!(pion.recv().starts_with("error line too long"));
    pion.send_bytes(b"\xff\xfe\xfd\n");
    assert_eq!(pion.recv(), "error line is not valid UTF-8");
    pion.send_bytes(b"\x00\x01binary\x02\n");
    let reply = pion.recv();
    assert!(reply.starts_with("error unknown command"), "{reply}");
    assert!(!reply.contains('\0'), "control characters are escaped");
    let mut long_moves = String::from("position startpos moves");
    for _ in 0..100_000 {
        long_moves.push_str(" a5b5");
    }
    let reply = pion.ask(&long_moves);
    assert!(reply.starts_with("error position: move 2"), "{reply}");
    pion.expect_silent();
    assert_eq!(position_line(&mut pion), format!("position {START}"));
}

#[test]
fn a_byte_order_mark_starts_the_input_and_is_shown_elsewhere() {
    let mut pion = Pion::start();
    // A script saved as "UTF-8 with BOM": its first command still counts.
    pion.send_bytes(b"\xEF\xBB\xBFnewgame awale\n");
    assert_eq!(pion.ask("status"), "status playing turn 1 score 24 24");
    assert!(pion.ask("show").starts_with("board awale"));
    pion.recv_until("position");
    // Anywhere else it is part of the token, and the error shows it.
    pion.send_bytes(b"\xEF\xBB\xBFstatus\n");
    let reply = pion.recv();
    assert!(
        reply.starts_with("error unknown command '\\u{feff}status'"),
        "{reply}"
    );
}

#[test]
fn whitespace_and_empty_lines_are_ignored() {
    let mut pion = Pion::start();
    pion.send("");
    pion.send("   \t ");
    pion.send("\r");
    assert_eq!(pion.ask("  \t isready  \r"), "readyok");
    pion.send("  position   startpos   moves   a5b5  ");
    assert_eq!(pion.ask("status"), "status playing turn 2 score 24 23");
}

#[test]
fn thousands_of_commands_without_waiting_are_all_answered_in_order() {
    let mut pion = Pion::start();
    let mut batch = String::new();
    for i in 0..3000 {
        match i % 4 {
            0 => batch.push_str("isready\n"),
            1 => batch.push_str("play a5b5\n"),
            2 => batch.push_str("undo\n"),
            _ => batch.push_str("nonsense\n"),
        }
    }
    pion.send_bytes(batch.as_bytes());
    for i in 0..3000 {
        match i % 4 {
            0 => assert_eq!(pion.recv(), "readyok"),
            3 => assert!(pion.recv().starts_with("error unknown command")),
            _ => {}
        }
    }
    pion.expect_silent();
}

#[test]
fn isready_is_answered_during_a_search_and_stop_ends_it() {
    let mut pion = Pion::start();
    pion.send("go infinite");
    assert_eq!(pion.ask_skipping_info("isready"), "readyok");
    let reply = pion.ask_skipping_info("go depth 1");
    assert!(reply.starts_with("error "), "go during a search: {reply}");
    let reply = pion.ask_skipping_info("play a5b5");
    assert!(reply.starts_with("error "), "play during a search: {reply}");
    let status = pion.ask_skipping_info("status");
    assert_eq!(status, "status playing turn 1 score 24 24");
    pion.send("stop");
    let lines = pion.recv_until("bestmove");
    let best = lines.last().unwrap();
    pion.send("legal");
    let legal = pion.recv_until("legal").pop().unwrap();
    let mv = best.strip_prefix("bestmove ").unwrap();
    assert!(legal.split(' ').skip(1).any(|m| m == mv), "{mv} is legal");
    // The search is over: state may change again, and `stop` with no search is silent.
    pion.send("play a5b5");
    pion.send("stop");
    pion.expect_silent();
    assert_eq!(pion.ask("status"), "status playing turn 2 score 24 23");
}

#[test]
fn a_long_perft_or_bench_keeps_the_engine_responsive_and_stops() {
    let mut pion = Pion::start();
    // Avalam's perft 7 from the start would run for days.
    pion.send("perft 7");
    assert_eq!(pion.ask("status"), "status playing turn 1 score 24 24");
    // `isready` waits for the count, and pion still reads `stop` behind it.
    pion.send("isready");
    assert_eq!(pion.recv_within(Duration::from_millis(300)), None);
    assert_eq!(
        pion.ask("stop"),
        "error perft: stopped before the count was complete"
    );
    assert_eq!(pion.recv(), "readyok");
    // Later commands run in order, as if perft ran in the input loop.
    pion.send("perft 1");
    pion.send("play a5b5");
    pion.send("perft 1");
    let first = pion.recv();
    assert!(first.starts_with("perft depth 1 nodes 292 "), "{first}");
    let second = pion.recv();
    assert!(second.starts_with("perft depth 1 nodes "), "{second}");
    assert_ne!(first, second, "the move was played between the two counts");
    pion.expect_silent();

    pion.send("bench 60");
    assert_eq!(pion.ask("legal").split(' ').next(), Some("legal"));
    assert_eq!(pion.ask("stop"), "error bench: stopped before it finished");
    let reply = pion.ask("bench 65");
    assert_eq!(reply, "error bench: depth 65 is too deep (at most 64)");

    pion.send("perft 7");
    pion.send("quit");
    assert_eq!(
        pion.recv(),
        "error perft: stopped before the count was complete"
    );
    assert!(pion.wait_success());
}

#[test]
fn commands_after_a_bounded_search_wait_for_its_bestmove_then_run_in_order() {
    let mut pion = Pion::start();
    pion.send("newgame awale");
    pion.send("go movetime 100");
    pion.send("setoption name Level value basic");
    pion.send("position startpos moves C");
    pion.send("isready");
    let lines = pion.recv_until("bestmove");
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("info ")),
        "{lines:?}"
    );
    assert_eq!(pion.recv(), "readyok", "readyok comes after the bestmove");
    assert!(pion.ask("status").starts_with("status playing turn 2 "));

    // A long search: what waits behind it does not stop pion from reading `stop`, and runs
    // as soon as the search has ended, with no further input.
    pion.send("go depth 60");
    pion.send("play d");
    pion.send("isready");
    let quiet_until = Instant::now() + Duration::from_millis(300);
    while let Some(line) = pion.recv_within(quiet_until.saturating_duration_since(Instant::now())) {
        assert!(line.starts_with("info "), "only the search speaks: {line}");
    }
    pion.send("stop");
    pion.recv_until("bestmove");
    assert_eq!(pion.recv(), "readyok");
    assert!(
        pion.ask("status").starts_with("status playing turn 1 "),
        "d was played"
    );
}

#[test]
fn a_bounded_search_finishes_at_end_of_input() {
    let mut pion = Pion::start();
    pion.send("newgame awale");
    pion.send("go depth 4");
    pion.close_input();
    let lines = pion.recv_until("bestmove");
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("info "))
    );
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 4")),
        "{lines:?}"
    );
    assert!(pion.wait_success());
}

#[test]
fn an_unbounded_search_is_stopped_at_end_of_input_and_by_quit() {
    let mut pion = Pion::start();
    pion.send("go infinite");
    pion.close_input();
    let best = pion.recv_until("bestmove").pop().unwrap();
    assert_ne!(best, "bestmove none");
    assert!(pion.wait_success());

    let mut pion = Pion::start();
    pion.send("go");
    pion.send("quit");
    pion.recv_until("bestmove");
    assert!(pion.wait_success());
}

#[test]
fn go_on_a_finished_game_answers_bestmove_none() {
    let mut pion = Pion::start();
    pion.send("position ........./........./........./........./........./........./........./........./yr....... 1 moves a1b1");
    assert_eq!(
        pion.ask("status"),
        "status over winner 1 score 1 0 reason nomoves"
    );
    assert_eq!(pion.ask("legal"), "legal");
    pion.send("go depth 3");
    // Answered before the next line is read: a script may take the move back at once.
    pion.send("undo");
    pion.send("play a1b1");
    pion.send("go movetime 1000");
    pion.send("undo");
    assert_eq!(pion.recv_until("bestmove").pop().unwrap(), "bestmove none");
    assert_eq!(pion.recv_until("bestmove").pop().unwrap(), "bestmove none");
    assert_eq!(pion.ask("query gameover"), "response false");
    assert_eq!(pion.ask("legal"), "legal a1b1 b1a1");
}

#[test]
fn variant_belongs_to_its_game_and_survives_newgame_of_the_same_game() {
    let mut pion = Pion::start();
    pion.send("setoption name Variant value own-colour");
    pion.send("newgame");
    pion.send("position ......../.yr....../........./........./........./........./........./........./......... 1");
    let reply = pion.recv();
    assert!(
        reply.starts_with("error position: bad Avalam position: row 9"),
        "{reply}"
    );
    pion.send("position ........./.yr....../........./........./........./........./........./........./......... 1");
    // Own-colour: yellow may only move its own stack onto a red one.
    assert_eq!(pion.ask("legal"), "legal b8c8");
    pion.send("newgame awale");
    pion.send("newgame avalam");
    pion.send("position ........./.yr....../........./........./........./........./........./........./......... 1");
    assert_eq!(
        pion.ask("legal"),
        "legal b8c8 c8b8",
        "the other game reset the variant"
    );
}

#[test]
fn a_front_end_that_stops_reading_does_not_crash_the_engine() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(PION)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pion starts");
    drop(child.stdout.take()); // the reading end is gone: every reply now fails to write
    let mut stdin = child.stdin.take().unwrap();
    for _ in 0..200 {
        writeln!(stdin, "pion\nlegal\ngo depth 2\nstop\nisready").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().expect("pion exits");
    assert!(out.status.success(), "exit status {}", out.status);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn go_refuses_a_clock_without_the_side_to_move_and_increments_without_a_clock() {
    let mut pion = Pion::start();
    assert_eq!(
        pion.ask("go p2time 1000"),
        "error go: p1time is missing: the clock of the side to move is needed"
    );
    for name in ["p1inc", "p2inc", "movestogo"] {
        assert_eq!(
            pion.ask(&format!("go depth 2 {name} 10")),
            format!("error go: {name} needs a clock (p1time or p2time)")
        );
    }
    assert_eq!(
        pion.ask("go depth 65"),
        "error go: depth 65 is too deep (at most 64)"
    );
    // None of these started a search, and the position is unchanged: player 1's clock alone
    // is enough, and player 2 then needs p2time.
    pion.expect_silent();
    let best = pion.ask_skipping_info("go p1time 2000 movestogo 20");
    assert!(
        best.starts_with("bestmove ") && best != "bestmove none",
        "{best}"
    );
    pion.send("play a5b5");
    assert_eq!(
        pion.ask("go p1time 1000"),
        "error go: p2time is missing: the clock of the side to move is needed"
    );
}

#[test]
fn the_last_info_line_counts_the_whole_search() {
    let mut pion = Pion::start();
    pion.send("position startpos");
    pion.send("go nodes 1000 movetime 60000");
    let lines = pion.recv_until("bestmove");
    let last_info = &lines[lines.len() - 2];
    assert!(last_info.contains(" nodes 1000 "), "{lines:?}");
}

#[test]
fn a_forced_move_is_played_at_once_under_movetime_and_a_clock() {
    let mut pion = Pion::start();
    pion.send("setoption name Variant value own-colour");
    // One legal move (b6b5), then a loss by 4 that takes depth 2 to see.
    let position = "position ........./........./........./.y2......./.r..r3..../.r..r..../.r3......./........./......... 1";
    pion.send(position);
    for go in ["go movetime 60000", "go p1time 60000"] {
        pion.send(go);
        let lines = pion.recv_until("bestmove");
        assert_eq!(lines.len(), 2, "depth 1, then the move: {lines:?}");
        assert!(lines[0].starts_with("info depth 1 "), "{lines:?}");
        assert_eq!(lines.last().unwrap(), "bestmove b6b5");
    }
    // A depth limit asks for that depth, forced or not.
    pion.send("go depth 2");
    let lines = pion.recv_until("bestmove");
    assert!(
        lines.iter().any(|l| l.contains("score loss 4")),
        "{lines:?}"
    );
}

#[test]
fn a_proven_win_is_played_at_once_under_movetime() {
    let mut pion = Pion::start();
    pion.send("newgame awale");
    // Player 1 has 24 seeds and wins at depth 5 (by at least 8: more search could only widen
    // the margin), from a game of pion's; the search used to go on for the whole minute.
    pion.send("position 1,1,0,0,3,2/0,0,0,0,0,0/24,17 1");
    pion.send("go movetime 60000");
    let lines = pion.recv_until("bestmove");
    let last_info = &lines[lines.len() - 2];
    assert!(
        last_info.contains(" score win ") && last_info.contains(" lowerbound "),
        "{lines:?}"
    );
    // No deeper iteration after the first that proved it.
    let first_win = lines
        .iter()
        .position(|l| l.contains(" score win "))
        .unwrap();
    assert_eq!(first_win, lines.len() - 2, "{lines:?}");
}

#[test]
fn lines_cut_by_the_table_are_completed_from_it() {
    let mut pion = Pion::start();
    pion.send("newgame awale");
    pion.send("go depth 14");
    pion.recv_until("bestmove");
    // The table answers most of this search at once; a line cut at the table's hit
    // (`info depth 11 seldepth 3 ... pv B`) must still be completed to its full depth.
    pion.send("position startpos moves F e");
    pion.send("go depth 12");
    let lines = pion.recv_until("bestmove");
    for line in lines.iter().filter(|l| l.starts_with("info depth")) {
        let words: Vec<&str> = line.split(' ').collect();
        let field = |name: &str| -> usize {
            let at = words.iter().position(|w| *w == name).unwrap();
            words[at + 1].parse().unwrap()
        };
        let pv = words.len() - 1 - words.iter().position(|w| *w == "pv").unwrap();
        assert_eq!(pv, field("depth"), "{line}");
        assert!(field("seldepth") >= field("depth"), "{line}");
    }
}

#[test]
fn query_variants_lists_the_current_games_variants_only() {
    let mut pion = Pion::start();
    pion.send("newgame awale");
    assert_eq!(
        pion.ask("query variants"),
        "response standard grandslam-nocapture grandslam-capture"
    );
    // A variant of the other game is kept for it, and still not listed for this one.
    pion.send("setoption name Variant value tiebreak5");
    let awale = pion.ask("query variants");
    assert!(!awale.contains("tiebreak5"), "{awale}");
    pion.send("newgame avalam");
    let avalam = pion.ask("query variants");
    assert!(avalam.starts_with("response standard "), "{avalam}");
    assert!(avalam.contains(" tiebreak5"), "{avalam}");
    assert!(!avalam.contains("grandslam"), "{avalam}");
}
