//! What the referee's end-to-end tests share: where the binaries and the repository's files are.

#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;

/// The `referee` binary under test.
pub const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// The `pion` binary, built beside `referee` by `cargo test` at the workspace root (it belongs to
/// another package of the workspace, so Cargo gives no `CARGO_BIN_EXE_pion` here).
pub fn pion() -> String {
    let path = Path::new(REFEREE).with_file_name(format!("pion{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: run the tests from the workspace root (cargo test --release), which builds pion too",
        path.display()
    );
    path.display().to_string()
}

/// The repository's root, where `scripts/` and `openings/` are.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A scratch directory for one test, emptied first.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pion-referee-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Fails the test, naming the tool, unless `python3` runs: the mock engines and the example
/// engine are Python scripts, and a test may not pass by skipping them.
pub fn require_python() {
    static FOUND: OnceLock<bool> = OnceLock::new();
    let found = *FOUND.get_or_init(|| {
        Command::new("python3")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    assert!(
        found,
        "python3 is not on PATH: the referee's tests run Python mock engines"
    );
}

pub fn mock_path() -> PathBuf {
    require_python();
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/mock_engine.py")
}

/// The UGI mock engine (tests/engines/ugi_mock.py).
pub fn ugi_mock_path() -> PathBuf {
    require_python();
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/ugi_mock.py")
}

/// The `cmd=` of a mock engine with faults, recording its pids in `dir/pids`.
pub fn mock(dir: &Path, faults: &[&str]) -> String {
    let mut cmd = format!(
        "python3 '{}' --pidfile '{}'",
        mock_path().display(),
        dir.join("pids").display()
    );
    for fault in faults {
        cmd.push_str(&format!(" --fault {fault}"));
    }
    cmd
}

/// `--engine name=NAME cmd=...` words for a mock with these faults.
pub fn engine(dir: &Path, name: &str, faults: &[&str]) -> Vec<String> {
    vec![
        "--engine".into(),
        format!("name={name}"),
        format!("cmd={}", mock(dir, faults)),
    ]
}

pub fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// [`referee`] with owned arguments.
pub fn run(dir: &Path, args: &[String]) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    referee(dir, &args)
}

/// The referee started in the background in `dir`, logging to `dir/logs`, its output piped.
pub fn spawn_referee<S: AsRef<OsStr>>(dir: &Path, args: &[S]) -> Child {
    Command::new(REFEREE)
        .args(args)
        .args(["--log-dir", "logs"])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the referee starts")
}

/// Sends `signal` to `pid`, a process this test started (or one of its children).
pub fn signal(pid: u32, signal: libc::c_int) {
    let pid = libc::pid_t::try_from(pid).expect("a pid fits pid_t");
    // SAFETY: kill only sends a signal; the pid is one of this test's processes.
    let sent = unsafe { libc::kill(pid, signal) };
    assert_eq!(sent, 0, "kill({pid}, {signal}) failed");
}

/// Sends `signal` to `pid` unless it has already ended (as one of the referee's engines may,
/// when the referee's own shutdown reached it first).
pub fn signal_unless_gone(pid: u32, signal: libc::c_int) {
    let pid = libc::pid_t::try_from(pid).expect("a pid fits pid_t");
    // SAFETY: kill only sends a signal; the pid is one of this test's processes.
    let sent = unsafe { libc::kill(pid, signal) };
    let gone = std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
    assert!(sent == 0 || gone, "kill({pid}, {signal}) failed");
}

/// Waits (30 s at most) until `child` ends.
pub fn wait_for_exit(child: &mut Child) {
    let give_up = Instant::now() + Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < give_up, "the referee did not stop");
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub fn referee(dir: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(REFEREE);
    command.args(args);
    if !matches!(args.first(), Some(&("merge" | "summary" | "export"))) {
        command.arg("--log-dir").arg(dir.join("logs"));
    }
    let out = command
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("the referee runs");
    assert_all_gone(dir);
    out
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn summary(out: &Output) -> Value {
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(
        text.lines().count(),
        1,
        "one JSON line on stdout, got: {text}"
    );
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad JSON {e}: {text}"))
}

pub fn records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Whether a process is alive (a zombie counts as dead: it runs nothing).
pub fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z') && !state.starts_with('X')
        }
        Err(_) => false,
    }
}

/// Every process a mock engine started (itself, and its child with `spawn-child`) has ended.
pub fn assert_all_gone(dir: &Path) {
    let Ok(text) = std::fs::read_to_string(dir.join("pids")) else {
        return;
    };
    for pid in text.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
        // SIGKILL is delivered asynchronously: give the kernel a moment to end the process.
        let mut waited = 0;
        while alive(pid) && waited < 40 {
            std::thread::sleep(std::time::Duration::from_millis(50));
            waited += 1;
        }
        assert!(
            !alive(pid),
            "process {pid} outlived the referee by more than 2 s"
        );
    }
}

/// Waits (30 s at most) until `file` holds `count` game records.
pub fn wait_for_records(file: &Path, count: usize) {
    let give_up = Instant::now() + Duration::from_secs(30);
    while std::fs::read_to_string(file).map_or(0, |t| t.lines().count()) < count {
        assert!(Instant::now() < give_up, "no game finished");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The pids whose parent is `pid`, from /proc.
pub fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid ...`; comm may hold spaces, so read after the last ')'.
        let Some(after) = stat.rsplit_once(')').map(|(_, rest)| rest) else {
            continue;
        };
        let ppid = after.split_whitespace().nth(1).and_then(|p| p.parse().ok());
        if ppid == Some(pid)
            && let Ok(child) = entry.file_name().to_string_lossy().parse()
        {
            out.push(child);
        }
    }
    out
}
