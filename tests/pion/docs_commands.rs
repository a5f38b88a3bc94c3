//! The commands of README.md, protocol.md and docs/*.md run as written, so the documents cannot
//! drift from the programs: every line of a `sh` code block is run (or, for cargo and scripts
//! that take minutes, checked to name what exists), and the README's Python example is run.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// How long a documented command may run before the test stops it. A command still running
/// then has started without a usage error, which is all a test can ask of a long match (ten
/// documented commands run that long: the budget is most of this test's time).
const BUDGET: Duration = Duration::from_secs(2);

/// How long a documented build (`cc`, `javac`) may take: it must finish.
const BUILD_BUDGET: Duration = Duration::from_secs(120);

/// A fenced code block of a document.
struct Block {
    /// The word after the opening fence (`sh`, `text`, `python`...), empty when there is none.
    tag: String,
    /// The line number of the block's first line in the document.
    first_line: usize,
    lines: Vec<String>,
}

/// The fenced code blocks of a Markdown document.
fn blocks(doc: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in doc.lines().enumerate() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(tag)) => {
                open = Some(Block {
                    tag: tag.trim().to_string(),
                    first_line: i + 2,
                    lines: Vec::new(),
                })
            }
            (Some(_), Some(_)) => blocks.push(open.take().expect("a block is open")),
            (Some(block), None) => block.lines.push(line.to_string()),
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "a code block is not closed");
    blocks
}

/// The commands of a shell block with their line numbers: continuation lines (ending in `\`)
/// joined, comments and empty lines left out.
fn commands(block: &Block) -> Vec<(usize, String)> {
    let mut commands = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, line) in block.lines.iter().enumerate() {
        let (start, mut text) = current
            .take()
            .unwrap_or((block.first_line + i, String::new()));
        let trimmed = line.trim();
        if text.is_empty() && (trimmed.is_empty() || trimmed.starts_with('#')) {
            continue;
        }
        match trimmed.strip_suffix('\\') {
            Some(part) => {
                text.push_str(part);
                current = Some((start, text));
            }
            None => {
                text.push_str(trimmed);
                commands.push((start, text));
            }
        }
    }
    assert!(current.is_none(), "a command ends with a continuation");
    commands
}

/// README.md, protocol.md and every document under docs/, with their names.
fn documents() -> Vec<(String, String)> {
    let mut paths = vec![
        PathBuf::from(ROOT).join("README.md"),
        PathBuf::from(ROOT).join("protocol.md"),
    ];
    let mut docs: Vec<PathBuf> = fs::read_dir(Path::new(ROOT).join("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    paths.extend(docs);
    paths
        .into_iter()
        .map(|path| {
            let name = path.strip_prefix(ROOT).unwrap().display().to_string();
            (
                name,
                fs::read_to_string(&path).expect("a readable document"),
            )
        })
        .collect()
}

/// A fresh directory laid out like the repository for a command to run in: the scripts,
/// openings and examples, and `target/release/` holding the binaries under test.
fn workspace() -> PathBuf {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let dir = crate::common::scratch(&format!("docs-{}", COUNT.fetch_add(1, Ordering::Relaxed)));
    let release = dir.join("target/release");
    fs::create_dir_all(&release).expect("a temporary directory");
    for name in ["scripts", "openings", "examples"] {
        std::os::unix::fs::symlink(Path::new(ROOT).join(name), dir.join(name)).unwrap();
    }
    for name in ["pion", "referee"] {
        std::os::unix::fs::symlink(crate::common::binary(name), release.join(name)).unwrap();
    }
    dir
}

/// How a command ended within its time.
enum Outcome {
    Finished {
        status: ExitStatus,
        stdout: String,
        stderr: String,
    },
    StillRunning {
        stderr: String,
    },
}

/// Runs a shell command line in `dir` with `input` on stdin; a command still running after
/// `budget` is killed with every process it started.
fn run(command: &str, dir: &Path, input: &str, budget: Duration) -> Outcome {
    use std::os::unix::process::CommandExt;
    let mut child = Command::new("sh")
        .args(["-c", command])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("sh starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(input.as_bytes());
    });
    let collect = |mut pipe: Box<dyn Read + Send>| {
        thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let stdout = collect(Box::new(child.stdout.take().unwrap()));
    let stderr = collect(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if start.elapsed() > budget {
            break None;
        }
        thread::sleep(Duration::from_millis(20));
    };
    if status.is_none() {
        let group = format!("-{}", child.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = child.wait();
    }
    let _ = writer.join();
    let stdout = stdout.join().unwrap();
    let stderr = stderr.join().unwrap();
    match status {
        Some(status) => Outcome::Finished {
            status,
            stdout,
            stderr,
        },
        None => Outcome::StillRunning { stderr },
    }
}

/// The program a command line runs: its first word, after a `printf ... |` that feeds it.
fn program(command: &str) -> &str {
    let fed = match command.strip_prefix("printf ") {
        Some(_) => command
            .rsplit_once('|')
            .map_or(command, |(_, rest)| rest.trim()),
        None => command,
    };
    fed.split_whitespace().next().unwrap_or("")
}

/// Checks one documented command, run in `dir`; returns whether it was run (rather than checked
/// by name).
fn check_command(place: &str, command: &str, dir: &Path) -> bool {
    let program = program(command);
    match program.trim_start_matches("./") {
        "target/release/pion"
        | "target/release/referee"
        | "python3"
        | "cc"
        | "gcc"
        | "javac"
        | "java" => {}
        "cargo" => {
            let words: Vec<&str> = command.split_whitespace().collect();
            if let Some(i) = words.iter().position(|w| *w == "--example") {
                let example = words.get(i + 1).expect("--example names one");
                let file = Path::new(ROOT).join(format!("examples/{example}.rs"));
                assert!(file.is_file(), "{place}: no example {example}: {command}");
                assert!(
                    command.contains("--features lab"),
                    "{place}: the examples need `--features lab`: {command}"
                );
            }
            return false;
        }
        script if script.starts_with("scripts/") => {
            let file = Path::new(ROOT).join(script);
            assert!(file.is_file(), "{place}: no script {script}: {command}");
            return false;
        }
        other => panic!(
            "{place}: the test does not know how to run '{other}' ({command}); tag the block \
             ```text if it is not meant to run as written"
        ),
    }
    // A build is waited for: the commands after it use what it makes.
    let builds = ["cc", "gcc", "javac"].contains(&program);
    let budget = if builds { BUILD_BUDGET } else { BUDGET };
    match run(command, dir, "", budget) {
        Outcome::Finished {
            status,
            stdout,
            stderr,
        } => {
            assert!(
                status.success(),
                "{place}: '{command}' failed ({status}):\n{stderr}"
            );
            assert!(
                !stdout.trim().is_empty() || builds,
                "{place}: '{command}' printed nothing"
            );
        }
        Outcome::StillRunning { .. } if builds => {
            panic!("{place}: '{command}' did not finish within {BUILD_BUDGET:?}")
        }
        Outcome::StillRunning { stderr } => assert!(
            !stderr.to_lowercase().contains("error"),
            "{place}: '{command}' reported an error:\n{stderr}"
        ),
    }
    true
}

#[test]
fn shell_commands_in_the_documents_run() {
    let mut run_count = 0;
    for (name, doc) in documents() {
        for block in blocks(&doc).iter().filter(|b| b.tag == "sh") {
            // The commands of a block run in order in one directory: a build, then its use.
            let dir = workspace();
            for (line, command) in commands(block) {
                if check_command(&format!("{name}:{line}"), &command, &dir) {
                    run_count += 1;
                }
            }
            let _ = fs::remove_dir_all(&dir);
        }
    }
    // README's two printf lines and its match, the benchmarks' perft and bench lines, and the
    // referee guide's match, at least.
    assert!(run_count >= 8, "only {run_count} documented commands ran");
}

#[test]
fn commands_shown_outside_sh_blocks_are_marked_as_illustrations() {
    let looks_runnable = |line: &str| {
        [
            "target/release/",
            "./target/release/",
            "printf ",
            "cargo ",
            "python3 ",
        ]
        .iter()
        .any(|start| line.trim_start().starts_with(start))
    };
    for (name, doc) in documents() {
        for block in blocks(&doc).iter().filter(|b| b.tag.is_empty()) {
            for (i, line) in block.lines.iter().enumerate() {
                assert!(
                    !looks_runnable(line),
                    "{name}:{}: a command in an untagged block: tag it ```sh to have it run by \
                     this test, or ```text if it cannot run as written: {line}",
                    block.first_line + i
                );
            }
        }
    }
}

/// The README's Python example, with the path of the engine it starts.
fn readme_python() -> String {
    let readme = fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let python: Vec<Block> = blocks(&readme)
        .into_iter()
        .filter(|b| b.tag == "python")
        .collect();
    assert_eq!(python.len(), 1, "README.md has one Python example");
    python[0].lines.join("\n") + "\n"
}

#[test]
fn the_readme_python_example_plays_and_prints() {
    let dir = workspace();
    let outcome = run("python3 -", &dir, &readme_python(), Duration::from_secs(60));
    let _ = fs::remove_dir_all(&dir);
    let Outcome::Finished {
        status,
        stdout,
        stderr,
    } = outcome
    else {
        panic!("the README's Python example did not finish within 60 s");
    };
    assert!(status.success(), "it failed ({status}):\n{stderr}");
    let (moves, status_line) = stdout.trim().split_once(" -> ").expect("'moves -> status'");
    assert_eq!(moves.split(' ').count(), 6, "six plies: {stdout}");
    assert!(
        status_line.starts_with("status playing turn 1 score "),
        "{stdout}"
    );
}

#[test]
fn the_readme_python_example_reports_an_error_reply_instead_of_hanging() {
    let script = readme_python();
    assert!(script.contains("go movetime 100"), "the example's search");
    let script = script.replace("go movetime 100", "go movetime 0.1");
    let dir = workspace();
    let outcome = run("python3 -", &dir, &script, Duration::from_secs(30));
    let _ = fs::remove_dir_all(&dir);
    let Outcome::Finished { status, stderr, .. } = outcome else {
        panic!("the Python example hung on an error reply");
    };
    assert!(!status.success(), "an error reply is a failure");
    assert!(stderr.contains("pion: error go:"), "{stderr}");
}

#[test]
fn the_readme_python_example_reports_a_missing_reply_at_its_deadline() {
    // An engine that reads its input and never answers: the deadline ends the wait.
    let script = readme_python()
        .replace(
            "[\"target/release/pion\"]",
            "[\"sh\", \"-c\", \"cat > /dev/null\"]",
        )
        .replace("seconds=10", "seconds=1");
    assert!(
        script.contains("cat > /dev/null"),
        "the example starts target/release/pion"
    );
    let dir = workspace();
    let outcome = run("python3 -", &dir, &script, Duration::from_secs(30));
    let _ = fs::remove_dir_all(&dir);
    let Outcome::Finished { status, stderr, .. } = outcome else {
        panic!("the Python example has no deadline");
    };
    assert!(!status.success());
    assert!(
        stderr.contains("no 'bestmove' reply within 1 s"),
        "{stderr}"
    );
}

#[test]
fn blocks_and_commands_are_extracted_as_written() {
    let doc = "text\n```sh\n# a comment\na \\\n  b\n\nc\n```\n```text\nd\n```\n";
    let found = blocks(doc);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].tag, "sh");
    assert_eq!(found[1].tag, "text");
    assert_eq!(
        commands(&found[0]),
        vec![(4, "a b".to_string()), (7, "c".to_string())]
    );
    assert_eq!(
        program("printf 'x\\ny\\n' | target/release/pion"),
        "target/release/pion"
    );
    assert_eq!(
        program("./target/release/referee --game awale"),
        "./target/release/referee"
    );
}
