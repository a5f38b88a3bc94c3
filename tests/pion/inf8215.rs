//! scripts/inf8215_agent.py both ways: pion served as an INF8215 course agent, called exactly as
//! the course's game.py calls agents (tests/inf8215/course_client.py, every action checked by
//! pion's rules), and course agents (tests/inf8215/fixture_agents.py) wrapped as engines of
//! pion's protocol in referee matches, the faulty ones forfeiting with their reason.

use std::fs;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
use crate::common::PION;
const FIXTURES: &str = "tests/inf8215/fixture_agents.py";

/// A port nobody listens on right now.
fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().unwrap().port()
}

/// A served agent, killed when dropped.
struct Served {
    child: Child,
    url: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `args` (a Python script and its flags, `{port}` replaced) and waits until it listens.
fn serve(args: &[&str]) -> Served {
    let port = free_port();
    let args: Vec<String> = args
        .iter()
        .map(|a| a.replace("{port}", &port.to_string()))
        .collect();
    let child = Command::new("python3")
        .current_dir(ROOT)
        .args(&args)
        .stdout(Stdio::null())
        .spawn()
        .expect("python3 runs");
    let served = Served {
        child,
        url: format!("http://127.0.0.1:{port}"),
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "{args:?} never listened");
        std::thread::sleep(Duration::from_millis(50));
    }
    served
}

fn serve_pion(level: &str) -> Served {
    serve(&[
        "scripts/inf8215_agent.py",
        "--port",
        "{port}",
        "--level",
        level,
        "--pion",
        PION,
    ])
}

fn serve_fixture(class: &str) -> Served {
    serve(&[FIXTURES, "--class", class, "--port", "{port}"])
}

/// The course client's games between two served agents, one JSON object each.
fn course_games(yellow: &str, red: &str, extra: &[&str]) -> Vec<Value> {
    let out = Command::new("python3")
        .current_dir(ROOT)
        .args([
            "tests/inf8215/course_client.py",
            yellow,
            red,
            "--pion",
            PION,
        ])
        .args(extra)
        .output()
        .expect("the course client runs");
    assert!(
        out.status.success(),
        "the course client failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// Checks a game played out to the end, the course's score and pion's status agreeing.
fn assert_played_out(game: &Value) {
    assert!(
        game.get("reason").is_none(),
        "a game lost by a fault: {game}"
    );
    assert!(game["plies"].as_u64().unwrap() >= 20, "{game}");
    let status = game["status"].as_str().unwrap();
    let expected = match game["winner"].as_i64().unwrap() {
        1 => "status over winner 1 ",
        -1 => "status over winner 2 ",
        _ => "status over draw ",
    };
    assert!(status.starts_with(expected), "{game}");
    assert!(
        status.contains(" tiebreak "),
        "judged under tiebreak5: {game}"
    );
}

#[test]
fn pion_served_as_a_course_agent_plays_whole_games_on_its_clock() {
    let pion = serve_pion("max");
    let greedy = serve_fixture("GreedyAgent");
    let games = course_games(
        &pion.url,
        &greedy.url,
        &["--games", "2", "--swap", "--time", "5"],
    );
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_played_out(game);
        let pion_colour = if game["yellow"] == pion.url.as_str() {
            1
        } else {
            -1
        };
        assert_eq!(
            game["winner"], pion_colour,
            "pion lost to a greedy agent: {game}"
        );
        // pion's clock spent some of the credit and kept some of it.
        let left = game["credits"][if pion_colour == 1 { 0 } else { 1 }]
            .as_f64()
            .unwrap();
        assert!(left > 0.0 && left < 5.0, "credit left {left}: {game}");
    }
}

#[test]
fn untimed_games_and_bare_matrices_are_played_as_older_frameworks_send_them() {
    let pion = serve_pion("greedy");
    let random = serve_fixture("RandomAgent");
    for game in course_games(&random.url, &pion.url, &["--games", "1"]) {
        assert_played_out(&game);
    }
    let script = format!(
        "import xmlrpc.client as x\n\
         p = x.ServerProxy('{}', allow_none=True)\n\
         m = [[0]*9 for _ in range(9)]\n\
         m[8][0], m[8][1] = 4, -1\n\
         print(p.play(m, 1, 1, None))\n\
         print(p.play(m, -1, 1, 3.0))\n",
        pion.url
    );
    let out = python(&script);
    // Only a8-b8 towers touch: yellow's best is to cover red; red covers yellow.
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        ["[8, 0, 8, 1]", "[8, 1, 8, 0]"]
    );
}

fn python(script: &str) -> String {
    let out = Command::new("python3")
        .args(["-c", script])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn percepts_that_are_no_avalam_board_are_refused_with_a_reason() {
    let pion = serve_pion("greedy");
    let script = format!(
        "import xmlrpc.client as x\n\
         p = x.ServerProxy('{}', allow_none=True)\n\
         full = [[1]*9 for _ in range(9)]\n\
         cases = [({{'rows': 9}}, 1), ([[0]*9]*8, 1), ([[6]+[0]*8]+[[0]*9]*8, 1),\n\
                  ([[0]*9]*9, 1), (full, 2), ({{'m': full, 'max_height': 4}}, 1),\n\
                  ([[True]*9]*9, -1), ('board', 1)]\n\
         for percepts, player in cases:\n\
         \x20   try:\n\
         \x20       print('answered', p.play(percepts, player, 1, 5.0))\n\
         \x20   except x.Fault as e:\n\
         \x20       print(e.faultString.split(':', 1)[1])\n",
        pion.url
    );
    let out = python(&script);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "percepts: a dict without the board 'm' (keys: ['rows'])",
            "percepts: the board must be 9 rows of 9 heights, got 8 rows",
            "percepts: m[0][0] is 6, not a height from -5 to 5",
            "percepts: the game is over on this board (no action is left)",
            "player must be 1 (yellow, positive heights) or -1, not 2",
            "percepts: max_height 4, Avalam's is 5",
            "percepts: m[0][0] is True, not a height from -5 to 5",
            "percepts: the board must be 9 rows of 9 heights, got str rows",
        ]
    );
    // The server still plays after all that.
    let ok = python(&format!(
        "import xmlrpc.client as x\n\
         m = [[0]*9 for _ in range(9)]\n\
         m[0][0], m[0][1] = 1, -1\n\
         print(x.ServerProxy('{}').play({{'m': m, 'rows': 9, 'columns': 9, 'max_height': 5}}, 1, 1, 2.0))\n",
        pion.url
    ));
    assert_eq!(ok.trim(), "[0, 0, 0, 1]");
}

/// A referee match of `games` between the wrapped agent `cmd` and pion at level greedy, under
/// tiebreak5; the records.
fn wrapped_match(name: &str, cmd: &str, games: u32, tc: &str) -> (Vec<Value>, Output, PathBuf) {
    wrapped_match_in(None, name, cmd, games, tc)
}

/// [`wrapped_match`] with the agent's engine run in the folder `dir` (the referee's `dir=`).
fn wrapped_match_in(
    dir: Option<&str>,
    name: &str,
    cmd: &str,
    games: u32,
    tc: &str,
) -> (Vec<Value>, Output, PathBuf) {
    let engine_dir = dir.map(|d| format!("dir={d}"));
    let dir = crate::common::scratch(&format!("inf8215-{name}"));
    let out = Command::new(crate::common::binary("referee"))
        .current_dir(ROOT)
        .args(["--game", "avalam", "--variant", "tiebreak5", "--engine"])
        .arg(format!("name={name}"))
        .args(engine_dir)
        .arg(format!("cmd={cmd}"))
        .args(["--engine", "name=pion"])
        .arg(format!("cmd={PION}"))
        .arg("option.Level=greedy")
        .args(["--games", &games.to_string(), "--tc", tc, "--json", "--out"])
        .arg(dir.join("games.jsonl"))
        .arg("--log-dir")
        .arg(dir.join("logs"))
        .output()
        .expect("the referee runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let records = fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (records, out, dir)
}

fn log_of(dir: &Path, name: &str) -> String {
    fs::read_to_string(dir.join("logs").join(format!("{name}.0.log"))).unwrap_or_default()
}

#[test]
fn course_agents_wrapped_as_engines_play_referee_matches() {
    let module = format!("python3 scripts/inf8215_agent.py engine --module {FIXTURES} --class");
    let (records, _, dir) = wrapped_match("noisy", &format!("{module} NoisyAgent"), 4, "tc=5+0.1");
    assert_eq!(records.len(), 4);
    for r in &records {
        assert_eq!(r["reason"], "normal", "{r}");
        assert_eq!(r["variant"], "tiebreak5", "{r}");
    }
    // What the agent printed went to the log, not into the protocol.
    assert!(log_of(&dir, "noisy").contains("! thinking about step"));
    let served = serve_fixture("GreedyAgent");
    let url = format!(
        "python3 scripts/inf8215_agent.py engine --url {}",
        served.url
    );
    let (records, _, _) = wrapped_match("served", &url, 2, "tc=5+0.1");
    for r in &records {
        assert_eq!(r["reason"], "normal", "{r}");
    }
}

#[test]
fn a_course_shaped_agent_file_loads_in_its_own_folder() {
    // my_player.py star-imports avalam.py beside it and reads weights.txt from its folder.
    let script = format!("{ROOT}/scripts/inf8215_agent.py");
    let cmd = format!("python3 {script} engine --module my_player.py");
    let folder = format!("{ROOT}/tests/inf8215/course_like");
    let (records, _, dir) = wrapped_match_in(Some(&folder), "student", &cmd, 2, "tc=5+0.1");
    for r in &records {
        assert_eq!(r["reason"], "normal", "{r}");
    }
    assert!(log_of(&dir, "student").contains("! step 1 time left 5.0"));
}

#[test]
fn faulty_course_agents_forfeit_with_their_reason_and_nothing_hangs() {
    let module = format!("python3 scripts/inf8215_agent.py engine --module {FIXTURES} --class");
    let cases = [
        (
            "RaisingAgent",
            "protocol-error",
            "the agent raised ValueError: my heuristic divided by zero",
        ),
        ("MalformedAgent", "protocol-error", "malformed action"),
        ("OffBoardAgent", "protocol-error", "leaves the 9x9 board"),
        ("IllegalAgent", "illegal-move", "played 'a9b9'"),
        ("SlowAgent", "timeout", "sent no bestmove within 1000 ms"),
    ];
    for (class, reason, detail) in cases {
        let started = Instant::now();
        let (records, _, _) = wrapped_match(class, &format!("{module} {class}"), 2, "tc=1+0.1");
        for r in &records {
            assert_eq!(r["reason"], reason, "{r}");
            assert_eq!(r["loser"], class, "{r}");
            assert!(r["detail"].as_str().unwrap().contains(detail), "{r}");
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{class} held the match up"
        );
    }
    let nobody = format!(
        "python3 scripts/inf8215_agent.py engine --url http://127.0.0.1:{}",
        free_port()
    );
    let (records, _, _) = wrapped_match("nobody", &nobody, 2, "tc=1+0.1");
    for r in &records {
        assert_eq!(r["reason"], "protocol-error", "{r}");
        assert!(
            r["detail"]
                .as_str()
                .unwrap()
                .contains("nobody answers at the agent's URL"),
            "{r}"
        );
    }
}
