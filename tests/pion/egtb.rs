//! Awale endgame databases through the binary: building, resuming, probing by protocol, and
//! refusing files that cannot be used.

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use pion::egtb::index::{Boards, layer_size};
use pion::egtb::reference::Exhaustive;
use pion_rules::awale::Variant;

const PION: &str = env!("CARGO_BIN_EXE_pion");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pion-egtb-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

fn build(dir: &Path, max_seeds: u32) -> String {
    let out = Command::new(PION)
        .args([
            "egtb",
            "build",
            "--max-seeds",
            &max_seeds.to_string(),
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
    let whole = scratch("whole");
    build(&whole, 6);
    let expected = files(&whole);
    assert_eq!(expected.len(), 7);

    // Resumed: a smaller build first, then the larger one keeps its layers.
    let resumed = scratch("resumed");
    build(&resumed, 3);
    let log = build(&resumed, 6);
    assert!(log.contains("layer 3: already built, kept"), "{log}");
    assert_eq!(files(&resumed), expected);

    // Interrupted: killed while it works on a layer, then run again.
    let cut = scratch("cut");
    let mut child = Command::new(PION)
        .args(["egtb", "build", "--max-seeds", "6", "--dir"])
        .arg(&cut)
        .stdout(Stdio::piped())
        .spawn()
        .expect("pion runs");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    while let Some(Ok(line)) = lines.next() {
        if line.starts_with("layer 4:") {
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
    let dir = scratch("probe");
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
    let dir = scratch("bad");
    build(&dir, 2);
    let truncated = scratch("truncated");
    let foreign = scratch("foreign");
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
        (scratch("missing"), "no such database file"),
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
