//! `scripts/train_network.py`: trained on a dump in the tuner's format whose targets hide a rule
//! of the board, it must learn the rule (a lower held-out error than the evaluation alone) and
//! write weights of the shape `src/eval/awale/network/weights.rs` has; a file that is not a
//! dump is refused with one line.

use std::process::{Command, Output};

use pion::eval::awale::network::{COUNTS, INPUTS, PIT_INPUTS, SCALARS, inputs, pit_input};
use pion_rules::awale::{Awale, Variant};
use pion_rules::game::Game;
use rand::{RngExt, SeedableRng};

use crate::common::scratch;

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/train_network.py");

fn run(args: &[&str]) -> Output {
    Command::new("python3")
        .arg(SCRIPT)
        .args(args)
        .output()
        .expect("python3 (with numpy) must be on PATH to test scripts/train_network.py")
}

/// A dump of positions from random games, in the tuner's format: the "margin" is the rule the
/// network must find (three points for each of the mover's pits holding exactly two seeds,
/// which no scalar input gives), the evaluation a constant that knows nothing.
fn dump() -> String {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
    let mut lines = vec![format!(
        "# inputs {INPUTS} pits {} scalars {SCALARS}",
        PIT_INPUTS / COUNTS
    )];
    for game in 0..60 {
        let mut p = Awale::start(Variant::Standard);
        for _ in 0..60 {
            if p.outcome().is_some() {
                break;
            }
            let (active, scalars) = inputs(&p);
            let twos = active[..6]
                .iter()
                .enumerate()
                .filter(|&(i, &a)| a == pit_input(i, 2))
                .count();
            let mut line = format!("{} {} 0", u8::from(game % 5 == 4), 3 * twos);
            for a in active {
                line += &format!(" {a}");
            }
            for x in scalars {
                line += &format!(" {x}");
            }
            line += " 150";
            lines.push(line);
            let mut moves = <Awale as Game>::Moves::default();
            p.legal_moves(&mut moves);
            p.play(moves.as_ref()[rng.random_range(0..moves.len())]);
        }
    }
    lines.join("\n") + "\n"
}

/// The number after `label` in the script's report.
fn error_after(report: &str, label: &str) -> f64 {
    let line = report
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no {label:?} in {report}"));
    let at = line.find("rmse ").expect("an rmse") + 5;
    line[at..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn the_trainer_learns_a_rule_of_the_board_and_writes_the_engines_weights() {
    // The samples in two dumps, trained on together.
    let dir = scratch("train-network");
    let text = dump();
    let lines: Vec<&str> = text.lines().collect();
    let half = lines.len() / 2;
    let (first, second) = (dir.join("dump1.txt"), dir.join("dump2.txt"));
    std::fs::write(&first, lines[..half].join("\n") + "\n").unwrap();
    std::fs::write(
        &second,
        format!("{}\n{}\n", lines[0], lines[half..].join("\n")),
    )
    .unwrap();
    let out_file = dir.join("weights.rs");
    let out = run(&[
        first.to_str().unwrap(),
        second.to_str().unwrap(),
        "--hidden",
        "8",
        "--epochs",
        "300",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let samples = lines.len() - 1;
    assert!(
        report.starts_with(&format!("{samples} samples")),
        "{report}"
    );
    let alone = error_after(&report, "evaluation alone");
    let trained = error_after(&report, "kept epoch");
    assert!(trained < alone / 2.0, "{alone} -> {trained}\n{report}");
    let rust = std::fs::read_to_string(&out_file).unwrap();
    assert!(rust.contains("pub const HIDDEN: usize = 8;"), "{rust}");
    assert!(
        rust.contains(&format!("[[f32; HIDDEN]; {INPUTS}]")),
        "{rust}"
    );
    let rows = rust.lines().filter(|l| l.starts_with("    [")).count();
    assert_eq!(rows, INPUTS);
    // Every row holds HIDDEN numbers.
    let first = rust.lines().find(|l| l.starts_with("    [")).unwrap();
    assert_eq!(first.matches(',').count(), 8);
}

#[test]
fn a_file_that_is_not_a_dump_is_refused_in_one_line() {
    let dir = scratch("train-network-bad");
    let data = dir.join("records.jsonl");
    std::fs::write(&data, "{\"game\":0}\n").unwrap();
    let out = run(&[data.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("not a tuner dump"), "{err}");
    // A dump whose input index is out of range: refused too.
    let bad = format!(
        "# inputs {INPUTS} pits 12 scalars {SCALARS}\n0 1 0 {} 0 0 0 0 0 0 0 0 0 0 0 0.5 0 0.2 0.3 10\n",
        PIT_INPUTS + 9
    );
    std::fs::write(&data, bad).unwrap();
    let out = run(&[data.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("out of range"), "{err}");
    // A line with a column missing.
    let short = format!(
        "# inputs {INPUTS} pits 12 scalars {SCALARS}\n0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0.5 0 0.2 10\n"
    );
    std::fs::write(&data, short).unwrap();
    let out = run(&[data.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("columns, expected"), "{err}");
    // A damaged dump: a word where a number goes, a header with no samples, no file at all.
    let header = format!("# inputs {INPUTS} pits 12 scalars {SCALARS}\n");
    let damaged = [
        (
            format!("{header}0 1 0 0 0 x 0 0 0 0 0 0 0 0 0 0.5 0 0.2 0.3 10\n"),
            "not a table of numbers",
        ),
        (header.clone(), "no samples"),
    ];
    for (text, expected) in damaged {
        std::fs::write(&data, text).unwrap();
        let out = run(&[data.to_str().unwrap()]);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(expected), "{err}");
    }
    let missing = dir.join("no-such-dump.txt");
    let out = run(&[missing.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("cannot be read"), "{err}");
    // Two dumps of different inputs are not trained on together.
    let other = dir.join("other.txt");
    std::fs::write(&other, "# inputs 100 pits 12 scalars 4\n").unwrap();
    let good = dir.join("good.txt");
    std::fs::write(&good, dump()).unwrap();
    let out = run(&[good.to_str().unwrap(), other.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("differ"), "{err}");
}
