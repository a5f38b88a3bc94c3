//! Awale endgame databases through the binary: building, resuming, probing by protocol, and
//! refusing files that cannot be used.

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use pion::egtb::index::{Boards, layer_size};
use pion::egtb::reference::Exhaustive;
use pion_rules::awale::Variant;

use crate::common::{PION, scratch};

fn build(dir: &Path, max_seeds: u32) -> String {
    let out = Command::new(PION)
        .args([
            "egtb",
            "build",
            "--max-seeds",
            &max_seeds.to_string(),
            "--variant",
            "standard",
            "--dir",
        ])
        .arg(dir)
        .output()
        .expect("pion runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = fs::read_dir(dir)
        .expect("the directory")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "egtb"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, fs::read(&p).expect("readable"))
        })
        .collect();
    files.sort();
    files
}

/// Sends the lines to pion and returns its replies after the `pion` handshake.
fn session(lines: &[String]) -> Vec<String> {
    let mut child = Command::new(PION)
        // No default databases and no hint: these tests choose their databases.
        .env("PION_EGTB", "")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("pion runs");
    let mut stdin = child.stdin.take().expect("stdin");
    for line in lines {
        writeln!(stdin, "{line}").expect("pion reads");
    }
    drop(stdin);
    let replies = BufReader::new(child.stdout.take().expect("stdout"))
        .lines()
        .map(|l| l.expect("a line"))
        .collect();
    assert!(child.wait().expect("pion exits").success());
    replies
}

#[test]
fn a_resumed_or_interrupted_build_writes_the_same_files() {
    let whole = scratch("egtb-whole");
    build(&whole, 6);
    let expected = files(&whole);
    assert_eq!(expected.len(), 7);

    // Resumed: a smaller build first, then the larger one keeps its layers.
    let resumed = scratch("egtb-resumed");
    build(&resumed, 3);
    let log = build(&resumed, 6);
    assert!(log.contains("layer 3: already built, kept"), "{log}");
    assert_eq!(files(&resumed), expected);

    // Interrupted: killed while it works on a layer, then run again.
    let cut = scratch("egtb-cut");
    let mut child = Command::new(PION)
        .args([
            "egtb",
            "build",
            "--max-seeds",
            "6",
            "--variant",
            "standard",
            "--dir",
        ])
        .arg(&cut)
        .stdout(Stdio::piped())
        .spawn()
        .expect("pion runs");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    while let Some(Ok(line)) = lines.next() {
        if line.starts_with("standard layer 4:") {
            break;
        }
    }
    child.kill().expect("killed");
    child.wait().expect("reaped");
    assert!(files(&cut).len() < 7, "the build was cut short");
    build(&cut, 6);
    assert_eq!(files(&cut), expected);

    // A damaged layer is built again.
    let damaged = resumed.join("awale-standard-05.egtb");
    let bytes = fs::read(&damaged).expect("the layer");
    fs::write(&damaged, &bytes[..bytes.len() - 7]).expect("truncated");
    let log = build(&resumed, 6);
    assert!(log.contains("layer 5: 4368 boards"), "{log}");
    assert_eq!(files(&resumed), expected);
    for dir in [whole, resumed, cut] {
        let _ = fs::remove_dir_all(dir);
    }
}

#[test]
fn go_on_a_database_position_says_the_exact_result_at_depth_1() {
    let dir = scratch("egtb-probe");
    build(&dir, 6);
    // Boards with 6 seeds, 21 captured each, whose lines never repeat: the exhaustive search's
    // value, through the protocol at depth 1, for a win, a draw and a loss.
    let mut exhaustive = Exhaustive::new(Variant::Standard);
    let mut seen = [false; 3];
    for pits in Boards::new(6, 0, layer_size(6)).step_by(7) {
        if pits[..6].iter().all(|&s| s == 0) {
            continue; // the game is over
        }
        let Some(share) = exhaustive.value(&pits) else {
            continue;
        };
        let margin = 2 * share as i32 - 6;
        if std::mem::replace(&mut seen[(margin.signum() + 1) as usize], true) {
            continue;
        }
        let row = |r: &[u8]| r.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
        let position = format!("{}/{}/21,21 1", row(&pits[..6]), row(&pits[6..]));
        let want = match margin {
            0 => "score draw".to_string(),
            m if m > 0 => format!("score win {m}"),
            m => format!("score loss {}", -m),
        };
        let replies = session(&[
            "newgame awale".into(),
            format!("setoption name EgtbPath value {}", dir.display()),
            format!("position {position}"),
            "go depth 1".into(),
        ]);
        let info = replies
            .iter()
            .rfind(|l| l.starts_with("info"))
            .expect("an info line");
        assert!(info.starts_with("info depth 1 "), "{info}");
        assert!(
            info.contains(&format!(" {want} ")),
            "{position}: {info}, want {want}"
        );
        assert!(info.contains(" tbhits "), "{info}");
    }
    assert_eq!(seen, [true; 3], "a win, a draw and a loss were found");
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn missing_truncated_or_foreign_files_are_refused_in_one_line_and_play_goes_on() {
    let dir = scratch("egtb-bad");
    build(&dir, 2);
    let truncated = scratch("egtb-truncated");
    let foreign = scratch("egtb-foreign");
    for (i, name) in ["awale-standard-00.egtb", "awale-standard-01.egtb"]
        .iter()
        .enumerate()
    {
        let bytes = fs::read(dir.join(name)).expect("a layer");
        let cut = if i == 1 {
            &bytes[..bytes.len() - 1]
        } else {
            &bytes[..]
        };
        fs::write(truncated.join(name), cut).expect("written");
        fs::write(
            foreign.join(name),
            b"not a database at all, but long enough",
        )
        .expect("written");
    }
    for (dir, words) in [
        (scratch("egtb-missing"), "no such database file"),
        (truncated.clone(), "truncated"),
        (foreign.clone(), "not a pion endgame database"),
    ] {
        let replies = session(&[
            "newgame awale".into(),
            format!("setoption name EgtbPath value {}", dir.display()),
            "position 0,1,0,0,0,0/1,0,0,0,0,0/23,23 1".into(),
            "go depth 3".into(),
        ]);
        let errors: Vec<_> = replies.iter().filter(|l| l.starts_with("error")).collect();
        assert_eq!(errors.len(), 1, "{replies:?}");
        assert!(errors[0].contains(words), "{}", errors[0]);
        assert!(
            errors[0].contains("playing without databases"),
            "{}",
            errors[0]
        );
        assert!(
            replies.iter().any(|l| l.starts_with("bestmove ")),
            "{replies:?}"
        );
        let info = replies
            .iter()
            .rfind(|l| l.starts_with("info"))
            .expect("info");
        assert!(!info.contains("tbhits"), "{info}");
        let _ = fs::remove_dir_all(dir);
    }
    let _ = fs::remove_dir_all(dir);
}

/// Runs pion with `args` (and `PION_EGTB` set to `home`), failing the test instead of waiting
/// forever if it hangs.
fn run_bounded(args: &[&str], home: &Path) -> std::process::Output {
    let mut child = Command::new(PION)
        .args(args)
        .env("PION_EGTB", home)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pion runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().expect("a status").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("pion {args:?} hangs");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().expect("pion's output")
}

/// A session on a pipe with a deadline on every reply (a hang fails the test).
fn bounded_session(home: &Path) -> crate::common::Pion {
    crate::common::Pion::start_with_env(&[("PION_EGTB", home.as_os_str())])
}

#[test]
fn a_huge_sparse_file_named_like_a_layer_is_refused_by_its_length_before_it_is_read() {
    let dir = scratch("egtb-sparse");
    build(&dir, 3);
    // A sound header followed by 2 GiB of holes: reading it whole would take seconds and
    // gigabytes before any check.
    let layer = dir.join("awale-standard-02.egtb");
    fs::OpenOptions::new()
        .write(true)
        .open(&layer)
        .expect("the layer")
        .set_len(2 << 30)
        .expect("a sparse file");
    let mut pion = bounded_session(&dir);
    pion.send(&format!("setoption name EgtbPath value {}", dir.display()));
    pion.send("isready");
    let replies = pion.recv_until("readyok");
    let errors: Vec<_> = replies.iter().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 1, "{replies:?}");
    assert!(
        errors[0].contains("2147483648 bytes, expected 878"),
        "{}",
        errors[0]
    );
    let out = run_bounded(&["egtb", "verify", "--variant", "standard"], &dir);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("truncated or padded"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn a_fifo_named_like_a_layer_never_hangs_setoption_verify_or_status() {
    let dir = scratch("egtb-fifo");
    build(&dir, 3);
    let layer = dir.join("awale-standard-01.egtb");
    fs::remove_file(&layer).expect("removed");
    let status = Command::new("mkfifo").arg(&layer).status().expect("mkfifo");
    assert!(status.success());
    let mut pion = bounded_session(&dir);
    pion.send(&format!("setoption name EgtbPath value {}", dir.display()));
    pion.send("isready");
    let replies = pion.recv_until("readyok");
    let errors: Vec<_> = replies.iter().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 1, "{replies:?}");
    assert!(errors[0].contains("not a regular file"), "{}", errors[0]);
    // The default directory is opened by the first Awale search: it must not hang either.
    let mut pion = bounded_session(&dir);
    pion.send("newgame awale");
    pion.send("position 0,1,0,0,0,0/1,0,0,0,0,0/23,23 1");
    pion.send("go depth 2");
    let replies = pion.recv_until("bestmove");
    assert!(
        replies.iter().any(|l| l.contains("not a regular file")),
        "{replies:?}"
    );
    for args in [
        &["egtb", "verify", "--variant", "standard"][..],
        &["egtb", "status"][..],
    ] {
        let out = run_bounded(args, &dir);
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("not a regular file"), "{args:?}: {text}");
    }
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn a_missing_middle_layer_is_reported_by_setoption_verify_and_status() {
    let dir = scratch("egtb-gap");
    build(&dir, 6);
    fs::remove_file(dir.join("awale-standard-04.egtb")).expect("removed");
    let replies = session(&[
        format!("setoption name EgtbPath value {}", dir.display()),
        "newgame awale".into(),
        "position 0,1,0,0,0,0/1,0,0,0,0,0/23,23 1".into(),
        "go depth 2".into(),
    ]);
    let errors: Vec<_> = replies.iter().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 1, "{replies:?}");
    assert!(
        errors[0].contains("awale-standard-04.egtb") && errors[0].contains("incomplete"),
        "{}",
        errors[0]
    );
    let verify = run_bounded(&["egtb", "verify", "--variant", "standard"], &dir);
    assert!(!verify.status.success(), "verify must not say 0 wrong");
    assert!(String::from_utf8_lossy(&verify.stderr).contains("incomplete"));
    let status = run_bounded(&["egtb", "status"], &dir);
    let text = String::from_utf8_lossy(&status.stdout);
    assert!(
        text.contains("standard: up to 3 seeds") && text.contains("incomplete"),
        "{text}"
    );
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn build_figures_are_labelled_and_small_layers_show_no_zero_rate() {
    let dir = scratch("egtb-figures");
    let out = build(&dir, 7);
    assert!(!out.contains("0.00 M boards/s"), "{out}");
    assert!(
        out.contains("of memory at the peak") && out.contains("of disk"),
        "{out}"
    );
    let help = run_bounded(&["egtb", "build", "--help"], &dir);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("of disk") && help.contains("of memory"),
        "{help}"
    );
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn the_default_directory_is_built_found_when_needed_and_hinted_once_when_empty() {
    let home = scratch("egtb-home");
    let mut pion = bounded_session(&home);
    pion.send("pion");
    let first = pion.recv_until("pionok");
    pion.send("ugi");
    pion.send("isready");
    let mut rest = pion.recv_until("readyok");
    rest.extend(first);
    let hints: Vec<_> = rest
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    assert_eq!(hints.len(), 1, "one hint for two handshakes: {rest:?}");
    assert!(
        hints[0].contains(&home.display().to_string()) && hints[0].contains("pion egtb build"),
        "{}",
        hints[0]
    );

    let out = run_bounded(
        &[
            "egtb",
            "build",
            "--max-seeds",
            "6",
            "--variant",
            "grandslam-nocapture",
        ],
        &home,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let status = run_bounded(&["egtb", "status"], &home);
    let text = String::from_utf8_lossy(&status.stdout);
    assert!(text.contains(&home.display().to_string()), "{text}");
    assert!(
        text.contains("grandslam-nocapture: up to 6 seeds"),
        "{text}"
    );
    assert!(text.contains("standard: not installed"), "{text}");

    let position = "position 0,0,0,0,0,4/1,1,0,0,0,0/21,21 1";
    let mut pion = bounded_session(&home);
    pion.send("pion");
    let handshake = pion.recv_until("pionok");
    assert!(
        !handshake.iter().any(|l| l.starts_with("info string")),
        "{handshake:?}"
    );
    // Whether the search's last info line counts a probe that gave a value.
    let tbhits = |pion: &mut crate::common::Pion, setup: &[&str]| {
        for line in setup {
            pion.send(line);
        }
        pion.send(position);
        pion.send("go depth 1");
        let replies = pion.recv_until("bestmove");
        let info = replies
            .iter()
            .rfind(|l| l.starts_with("info depth"))
            .cloned();
        info.and_then(|i| {
            let words: Vec<&str> = i.split_whitespace().collect();
            let at = words.iter().position(|&w| w == "tbhits")?;
            words[at + 1].parse::<u64>().ok()
        })
        .is_some_and(|hits| hits > 0)
    };
    let nocapture = "setoption name Variant value grandslam-nocapture";
    assert!(
        tbhits(&mut pion, &["newgame awale", nocapture]),
        "found when needed"
    );
    assert!(
        !tbhits(&mut pion, &["setoption name EgtbPath value off"]),
        "off"
    );
    assert!(
        tbhits(&mut pion, &["setoption name EgtbPath value <empty>"]),
        "default again"
    );
    assert!(
        !tbhits(&mut pion, &["setoption name Variant value standard"]),
        "no standard databases"
    );
    let _ = fs::remove_dir_all(home);
}

#[test]
fn a_build_whose_reader_left_finishes_without_a_panic() {
    let dir = scratch("egtb-closed");
    // A pipe whose reader is gone before pion writes anything (as `| head -0`): every write to
    // stdout fails.
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = Command::new(PION)
        .args([
            "egtb",
            "build",
            "--max-seeds",
            "6",
            "--variant",
            "standard",
            "--dir",
        ])
        .arg(&dir)
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("pion runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && !err.contains("panicked"), "{err}");
    assert_eq!(files(&dir).len(), 7, "the build went on");
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn probe_says_settled_results_and_the_bounds_of_boards_that_cycle() {
    let dir = scratch("egtb-probe-cli");
    build(&dir, 6);
    let row = |r: &[u8]| r.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
    let result = |m: i32| match m {
        0 => "draw".to_string(),
        m if m > 0 => format!("win {m}"),
        m => format!("loss {}", -m),
    };
    // From the per-threshold reference: a board that cannot cycle (its exhaustive value) and
    // one that can (its two bounds), with 21 seeds captured each.
    let bounds = pion::egtb::reference::thresholds(6, Variant::Standard);
    let mut exhaustive = Exhaustive::new(Variant::Standard);
    let boards: Vec<[u8; 12]> = Boards::new(6, 0, layer_size(6)).collect();
    let settled = (0..boards.len())
        .step_by(11)
        .find_map(|i| {
            let pits = &boards[i];
            (pits[..6].iter().any(|&s| s > 0))
                .then(|| exhaustive.value(pits))
                .flatten()
                .map(|share| (pits, 2 * share as i32 - 6))
        })
        .expect("a board that cannot cycle");
    let (cycling, entry) = (0..boards.len())
        .map(|i| (&boards[i], bounds[6][i]))
        .find(|(_, e)| !e.is_settled())
        .expect("a board that cycles");
    let position = |pits: &[u8; 12]| format!("{}/{}/21,21 1", row(&pits[..6]), row(&pits[6..]));
    let input = [
        position(settled.0),
        "garbage".to_string(),
        position(cycling),
        "0,0,0,0,0,0/1,1,0,0,0,0/21,25 1".to_string(),
        "4,4,4,4,4,4/4,4,4,4,4,4/0,0 1".to_string(),
    ];
    let mut child = Command::new(PION)
        .args(["egtb", "probe", "--dir"])
        .arg(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("pion runs");
    writeln!(child.stdin.take().expect("stdin"), "{}", input.join("\n")).expect("written");
    let out = child.wait_with_output().expect("pion's output");
    assert!(out.status.success());
    let lines: Vec<String> = String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(String::from)
        .collect();
    let margin = |share: u8| 2 * share as i32 - 6;
    assert_eq!(
        lines,
        [
            format!("settled {}", result(settled.1)),
            "error bad position 'garbage': expected PITS/PITS/CAPTURES SIDE".to_string(),
            format!(
                "bounds {} .. {}, likely {}",
                result(margin(entry.lo)),
                result(margin(entry.hi)),
                result(margin(entry.likely))
            ),
            "over".to_string(),
            "beyond 6 seeds".to_string(),
        ]
    );
    // One position as an argument: a bad one is one line on stderr and a failure.
    let out = run_bounded(
        &["egtb", "probe", "--dir", dir.to_str().unwrap(), "1,2/3 1"],
        &dir,
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad position '1,2/3 1'"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let _ = fs::remove_dir_all(dir);
}
