//! The process layer's own tests, on `sh -c` children: lines, deadlines, groups, exits seen
//! while a child holds the pipe, writes to a child that does not read, and the log.

#![cfg(test)]

/// The line cap of these tests (the referee's).
const MAX_LINE: usize = 64 * 1024;

use std::path::PathBuf;

use std::path::Path;
use std::thread;
use std::time::{Duration, Instant};

use crate::*;

/// A scratch directory for one test, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pion-process-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `sh -c script`, logged to `dir/child.log`.
fn shell(dir: &Path, script: &str, hold: Option<fn(&str) -> bool>) -> Process {
    let command = ["sh".to_string(), "-c".into(), script.into()];
    Process::spawn(
        &Launch {
            name: "child",
            command: &command,
            dir: Some(dir),
            log: Some(&dir.join("child.log")),
            hold,
            max_line: MAX_LINE,
            interrupt: None,
        },
        Output::Pull,
    )
    .expect("sh starts")
}

fn soon() -> Instant {
    Instant::now() + Duration::from_secs(20)
}

fn line(process: &mut Process) -> String {
    process.read_line(soon()).expect("a line").0
}

/// Whether a process runs (a zombie runs nothing).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat.rsplit(')').next().unwrap_or("").trim_start();
        !state.starts_with('Z') && !state.starts_with('X')
    })
}

/// Waits (10 s at most: SIGKILL is delivered asynchronously) until `pid` has ended.
fn assert_gone(pid: u32) {
    let give_up = Instant::now() + Duration::from_secs(10);
    while alive(pid) && Instant::now() < give_up {
        thread::sleep(Duration::from_millis(10));
    }
    assert!(!alive(pid), "process {pid} was left running");
}

#[test]
fn lines_come_in_order_then_the_end_with_the_exit_status() {
    let dir = scratch("lines");
    let mut child = shell(&dir, "echo one; printf 'two\\r\\n'; exit 3", None);
    assert_eq!(line(&mut child), "one");
    assert_eq!(line(&mut child), "two");
    match child.read_line(soon()) {
        Err(ReadError::Exited(note)) => assert!(note.contains('3'), "{note}"),
        other => panic!("expected the end of output, got {other:?}"),
    }
}

#[test]
fn a_silent_child_times_out_and_still_runs() {
    let dir = scratch("silent");
    let mut child = shell(&dir, "exec sleep 30", None);
    let deadline = Instant::now() + Duration::from_millis(50);
    assert_eq!(child.read_line(deadline), Err(ReadError::Timeout));
    assert!(alive(child.pid()));
    let pid = child.pid();
    child.kill();
    assert_gone(pid);
}

#[test]
fn what_the_child_echoes_is_read_back() {
    let dir = scratch("echo");
    let mut child = shell(&dir, "while read l; do echo \"got $l\"; done", None);
    child.send_line("hello").unwrap();
    assert_eq!(line(&mut child), "got hello");
    child.close(Duration::from_secs(5));
    assert!(child.reaped());
    assert_eq!(child.send_line("late"), Err(SendError::Closed));
}

#[test]
fn a_kill_takes_down_what_the_child_started() {
    let dir = scratch("group");
    let mut child = shell(&dir, "sleep 30 & echo $!; wait", None);
    let grandchild: u32 = line(&mut child).parse().unwrap();
    assert!(alive(grandchild));
    let pid = child.pid();
    child.kill();
    assert_gone(grandchild);
    let log = std::fs::read_to_string(dir.join("child.log")).unwrap();
    assert!(log.ends_with(&format!(" # stopped pid {pid}\n")), "{log}");
}

#[test]
fn a_child_that_exits_while_its_child_holds_the_output_has_ended() {
    let dir = scratch("held");
    // The background sleep keeps stdout open: no end of output comes, only the exit.
    let mut child = shell(&dir, "sleep 30 & echo $!; exit 0", None);
    let grandchild: u32 = line(&mut child).parse().unwrap();
    assert!(matches!(child.read_line(soon()), Err(ReadError::Exited(_))));
    assert_gone(grandchild);
}

#[test]
fn a_child_that_exits_at_once_cannot_be_written_to() {
    let dir = scratch("early");
    let mut child = shell(&dir, "exit 0", None);
    assert!(matches!(child.read_line(soon()), Err(ReadError::Exited(_))));
    // The pipe's reader is gone, so a write fails (perhaps only the second: a pipe buffers).
    let sent = child.send_line("one").and_then(|()| child.send_line("two"));
    assert!(sent.is_err(), "{sent:?}");
}

#[test]
fn garbage_bytes_and_a_line_too_long_are_read_as_one_line_each() {
    let dir = scratch("garbage");
    let mut child = shell(
        &dir,
        "printf 'a\\377\\376b\\n'; head -c 70000 /dev/zero | tr '\\0' x; echo; echo next",
        None,
    );
    assert_eq!(line(&mut child), "a\u{fffd}\u{fffd}b");
    let long = line(&mut child);
    assert_eq!(long.len(), MAX_LINE);
    assert!(long.bytes().all(|b| b == b'x'));
    assert_eq!(line(&mut child), "next");
    assert!(matches!(child.read_line(soon()), Err(ReadError::Exited(_))));
    let log = std::fs::read_to_string(dir.join("child.log")).unwrap();
    assert!(log.contains("[line cut]"), "{log}");
}

#[test]
fn try_line_returns_what_was_read_without_waiting() {
    let dir = scratch("try");
    let mut child = shell(&dir, "echo ready; exec sleep 30", None);
    assert_eq!(line(&mut child), "ready");
    assert_eq!(child.try_line(), Ok(None));
    child.kill();
}

#[test]
fn the_log_has_the_traffic_stderr_and_only_the_last_held_line() {
    let dir = scratch("log");
    fn report(line: &str) -> bool {
        line.starts_with("report")
    }
    let mut child = shell(
        &dir,
        "read l; echo report 1; echo report 2; echo 'done' $l; echo oops >&2; exit 0",
        Some(report),
    );
    child.send_line("go").unwrap();
    assert_eq!(line(&mut child), "report 1");
    assert_eq!(line(&mut child), "report 2");
    assert_eq!(line(&mut child), "done go");
    assert!(child.read_line(soon()).is_err());
    let pid = child.pid();
    drop(child);
    // The stderr thread writes on its own time: wait for its line.
    let give_up = Instant::now() + Duration::from_secs(10);
    let log = loop {
        let log = std::fs::read_to_string(dir.join("child.log")).unwrap();
        if log.contains(" ! oops") || Instant::now() > give_up {
            break log;
        }
        thread::sleep(Duration::from_millis(10));
    };
    let entries: Vec<&str> = log
        .lines()
        .map(|l| l.split_once(' ').expect("a stamp first").1)
        .collect();
    // The start line gives the wall clock, so that runs appended to one log are told apart.
    let started = format!("# started pid {pid} at ");
    assert!(entries[0].starts_with(&started), "{log}");
    let (at, command) = entries[0][started.len()..]
        .split_once(": ")
        .expect("a time, then the command");
    assert!(
        at.len() == 20 && at.ends_with('Z') && at.as_bytes()[10] == b'T',
        "{at}"
    );
    assert!(command.starts_with("sh -c "), "{log}");
    for entry in ["> go", "< report 2", "< done go", "! oops"] {
        assert!(entries.contains(&entry), "{entry} missing from {log}");
    }
    assert!(!entries.contains(&"< report 1"), "{log}");
    for l in log.lines() {
        let stamp = l.split(' ').next().unwrap();
        assert!(stamp.parse::<f64>().is_ok_and(|s| s >= 0.0), "{l}");
    }
}

#[test]
fn a_program_that_cannot_start_is_one_line_naming_it() {
    let dir = scratch("nostart");
    let command = ["/no/such/program".to_string(), "--flag".into()];
    let error = Process::spawn(
        &Launch {
            name: "ghost",
            command: &command,
            dir: None,
            log: Some(&dir.join("ghost.log")),
            hold: None,
            max_line: MAX_LINE,
            interrupt: None,
        },
        Output::Pull,
    )
    .err()
    .expect("no such program")
    .to_string();
    assert!(
        error.starts_with("engine 'ghost': cannot start '/no/such/program --flag': "),
        "{error}"
    );
    assert_eq!(error.lines().count(), 1);
}

#[test]
fn a_child_that_does_not_read_is_stalled_and_the_sender_never_waits() {
    let dir = scratch("stall");
    // It never reads: once the pipe and the queue are full, a send says so at once.
    let mut child = shell(&dir, "exec sleep 30", None);
    let line = "x".repeat(4000);
    let started = Instant::now();
    let mut result = Ok(());
    for _ in 0..2000 {
        result = child.send_line(&line);
        if result.is_err() {
            break;
        }
    }
    assert_eq!(result, Err(SendError::Stalled));
    // 2000 sends of a queue that cannot drain, and none waited on the pipe.
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    let pid = child.pid();
    child.kill();
    assert!(child.reaped());
    assert_gone(pid);
}

#[test]
fn a_pushed_exit_is_reported_while_a_child_holds_the_output() {
    let dir = scratch("push");
    let (tx, rx) = std::sync::mpsc::channel();
    let tx = std::sync::Mutex::new(tx);
    let sink = std::sync::Arc::new(move |event: Event| tx.lock().unwrap().send(event).is_ok());
    let command = [
        "sh".to_string(),
        "-c".into(),
        "sleep 30 & echo $!; exit 4".into(),
    ];
    let child = Process::spawn(
        &Launch {
            name: "held",
            command: &command,
            dir: Some(&dir),
            log: None,
            hold: None,
            max_line: MAX_LINE,
            interrupt: None,
        },
        Output::Push(sink),
    )
    .expect("sh starts");
    let mut grandchild = None;
    let mut exited = None;
    let give_up = Instant::now() + Duration::from_secs(20);
    // The exit and the line come from two threads, in either order.
    while (exited.is_none() || grandchild.is_none()) && Instant::now() < give_up {
        match rx.recv_timeout(Duration::from_secs(1)) {
            Ok(Event::Line(line)) => grandchild = line.text.parse::<u32>().ok(),
            Ok(Event::Exited(status)) => exited = Some(status),
            _ => {}
        }
    }
    let status = exited.expect("the exit is reported");
    assert_eq!(status.and_then(|s| s.code()), Some(4));
    assert!(child.reaped());
    assert_gone(grandchild.expect("the grandchild's pid"));
    drop(child);
    assert_eq!(live_count_of(&command), 0);
}

/// Processes of this test binary's children still running `command` (none once killed).
fn live_count_of(command: &[String]) -> usize {
    let script = &command[2];
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .filter(|cmdline| String::from_utf8_lossy(cmdline).contains(script.as_str()))
        .count()
}

#[test]
fn a_kill_after_the_exit_signals_nothing() {
    let dir = scratch("reaped");
    let mut child = shell(&dir, "exit 0", None);
    assert!(matches!(child.read_line(soon()), Err(ReadError::Exited(_))));
    // Reaped by its watcher: the pid may belong to someone else now, and kill leaves it alone.
    let give_up = Instant::now() + Duration::from_secs(10);
    while !child.reaped() && Instant::now() < give_up {
        thread::sleep(Duration::from_millis(5));
    }
    assert!(child.reaped());
    child.kill();
    let log = std::fs::read_to_string(dir.join("child.log")).unwrap();
    assert!(!log.contains("stopped pid"), "{log}");
}
