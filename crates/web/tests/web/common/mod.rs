//! What the bridge and browser tests share: a pion-web server on a free loopback port with the
//! engines a test chooses, the pion binary it relays to, and a WebSocket client.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// The directory of the test's own profile (`target/debug` or `target/release`).
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its path");
    exe.parent()
        .and_then(Path::parent)
        .expect("tests run from target/<profile>/deps")
        .to_path_buf()
}

/// The `pion` binary of this profile, built if `cargo test -p pion-web` has not built it.
pub fn pion_binary() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let dir = profile_dir();
            let pion = dir.join("pion");
            if !pion.exists() {
                let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
                let mut command = Command::new(cargo);
                command.args(["build", "-p", "pion", "--bin", "pion"]);
                if dir.ends_with("release") {
                    command.arg("--release");
                }
                let status = command.status().expect("cargo can be run");
                assert!(status.success(), "building pion failed");
            }
            pion
        })
        .clone()
}

/// The broken engine of the tests in `mode` as an `--engine` word list, named `name`.
pub fn broken(name: &str, mode: &str) -> Vec<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/broken_engine.py");
    vec![
        format!("name={name}"),
        format!("cmd=python3 {} {mode}", script.display()),
    ]
}

/// pion as an `--engine` word list.
pub fn pion() -> Vec<String> {
    vec![
        "name=pion".to_string(),
        format!("cmd={}", pion_binary().display()),
    ]
}

/// A running pion-web, stopped with SIGTERM when dropped.
pub struct Server {
    pub child: Child,
    pub addr: String,
}

impl Server {
    /// Starts pion-web on a free port with these engines and extra arguments.
    pub fn start(engines: &[Vec<String>], extra: &[&str]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_pion-web"));
        command.args(["--listen", "127.0.0.1:0"]);
        for words in engines {
            command.arg("--engine").args(words);
        }
        // The engines look for databases in an empty folder, whatever this machine installed:
        // the page shows pion's one note about them, the same on every machine.
        let no_databases =
            std::env::temp_dir().join(format!("pion-web-no-egtb-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&no_databases);
        command
            .args(extra)
            .env("PION_EGTB", &no_databases)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        let mut child = command.spawn().expect("pion-web starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("piped"))
            .read_line(&mut first)
            .expect("pion-web prints its address");
        let addr = first
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .to_string();
        Server { child, addr }
    }

    /// Sends SIGTERM and waits for the exit.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        // SAFETY: kill only sends a signal.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGTERM);
        }
        self.child.wait().expect("pion-web is reaped")
    }

    /// One HTTP/1.1 request; the status code and the body.
    pub fn http(&self, method: &str, path: &str, body: &[u8]) -> (u16, String) {
        let mut stream = std::net::TcpStream::connect(&self.addr).expect("connects");
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.addr,
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body).unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).unwrap();
        let response = String::from_utf8_lossy(&response).into_owned();
        let status = response[9..12].parse().expect("a status code");
        let body = response
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default();
        (status, body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            self.terminate();
        }
    }
}

/// Whether process `pid` is gone (reaped, or never existed). A zombie counts as gone: it runs
/// nothing, and its parent's reaping is the parent's business.
pub fn gone(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// Waits up to `limit` for `pid` to be gone.
pub fn wait_gone(pid: i32, limit: Duration) -> bool {
    let until = Instant::now() + limit;
    while Instant::now() < until {
        if gone(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    gone(pid)
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A page's WebSocket, as the tests drive it.
pub struct Page {
    pub socket: Socket,
}

impl Page {
    /// Connects, and returns the page with the server's `hello`.
    pub async fn open(server: &Server) -> (Page, Value) {
        let (socket, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", server.addr))
            .await
            .expect("the WebSocket opens");
        let mut page = Page { socket };
        let hello = page.next().await;
        (page, hello)
    }

    pub async fn send(&mut self, message: Value) {
        self.socket
            .send(Message::text(message.to_string()))
            .await
            .expect("sent");
    }

    /// Sends a line, or says the server has already closed the socket (as it does to a page
    /// that floods it: the test may still be writing when that happens).
    pub async fn try_line(&mut self, id: &str, line: &str) -> bool {
        let message = json!({"t": "send", "id": id, "line": line});
        self.socket
            .send(Message::text(message.to_string()))
            .await
            .is_ok()
    }

    pub async fn line(&mut self, id: &str, line: &str) {
        self.send(json!({"t": "send", "id": id, "line": line}))
            .await;
    }

    /// The next message of the server (10 s at most); `{"t":"closed"}` when the socket ends.
    pub async fn next(&mut self) -> Value {
        loop {
            let message = tokio::time::timeout(Duration::from_secs(10), self.socket.next())
                .await
                .expect("the server answers within 10 s");
            match message {
                Some(Ok(Message::Text(text))) => return serde_json::from_str(&text).unwrap(),
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => {
                    return json!({"t": "closed"});
                }
                Some(Ok(_)) => continue,
            }
        }
    }

    /// Skips messages until one for which `want` is true.
    pub async fn until(&mut self, want: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self.next().await;
            if want(&message) {
                return message;
            }
            assert_ne!(message["t"], "closed", "the socket closed first");
        }
    }

    /// Skips messages until the line of engine `id` that starts with `prefix`.
    pub async fn line_from(&mut self, id: &str, prefix: &str) -> String {
        let message = self
            .until(|m| {
                m["t"] == "line" && m["id"] == id && m["line"].as_str().unwrap().starts_with(prefix)
            })
            .await;
        message["line"].as_str().unwrap().to_string()
    }

    /// Starts engine `name` under `id` and does the handshake; its pid.
    pub async fn start(&mut self, id: &str, name: &str) -> i32 {
        self.send(json!({"t": "start", "id": id, "engine": name}))
            .await;
        let started = self.until(|m| m["t"] != "line").await;
        assert_eq!(started["t"], "started", "{started}");
        self.line(id, "pion").await;
        self.line_from(id, "pionok").await;
        started["pid"].as_i64().unwrap() as i32
    }
}

/// The referee's mock UCI Oware engine as an `--engine` word list with `proto=uci`, named
/// `name`, logging every command it receives to `log`.
pub fn uci_mock(name: &str, log: &Path) -> Vec<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../referee/tests/engines/uci_mock.py");
    vec![
        format!("name={name}"),
        format!(
            "cmd=python3 {} --name {name} --log {}",
            script.display(),
            log.display()
        ),
        "proto=uci".to_string(),
    ]
}
