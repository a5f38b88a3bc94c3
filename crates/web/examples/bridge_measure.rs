//! Measures the bridge (docs/web.md):
//!
//! - `latency [N]`: `isready` -> `readyok` round trips through pion-web's WebSocket against the
//!   same over a pipe to pion, N of each (default 2000): median and 99th percentile.
//! - `sessions [ROUNDS]`: 8 pages at once, each starting pion and `go infinite`, closed and
//!   opened again ROUNDS times (default 100): the server's engine processes, open file
//!   descriptors and resident memory after each round.
//!
//! Build first, then run: `cargo build --release -p pion -p pion-web --bins && cargo run --release -p
//! pion-web --features lab --example bridge_measure -- latency`.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// `target/<profile>`, where pion and pion-web were built.
fn bin_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.ancestors().nth(2).unwrap().to_path_buf()
}

fn percentiles(mut samples: Vec<Duration>) -> (f64, f64) {
    samples.sort();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    (at(0.5).as_secs_f64() * 1e6, at(0.99).as_secs_f64() * 1e6)
}

struct Server {
    child: std::process::Child,
    addr: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(bin_dir().join("pion-web"))
            .args(["--listen", "127.0.0.1:0"])
            .args(extra)
            .stdout(Stdio::piped())
            .spawn()
            .expect("pion-web is built (cargo build --release -p pion -p pion-web)");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .unwrap()
            .trim_end_matches(['/', '\n', ' ']);
        let addr = addr.split('/').next().unwrap().to_string();
        Server { child, addr }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // SAFETY: kill only sends a signal.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGTERM);
        }
        let _ = self.child.wait();
    }
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn next(socket: &mut Socket) -> Value {
    loop {
        match socket.next().await {
            Some(Ok(Message::Text(text))) => return serde_json::from_str(&text).unwrap(),
            Some(Ok(_)) => continue,
            _ => return json!({"t": "closed"}),
        }
    }
}

async fn send(socket: &mut Socket, value: Value) {
    socket.send(Message::text(value.to_string())).await.unwrap();
}

/// Opens a page and starts pion in it under id `e`.
async fn page_with_pion(addr: &str) -> Socket {
    let (mut socket, _) =
        tokio_tungstenite::connect_async_with_config(format!("ws://{addr}/ws"), None, true)
            .await
            .unwrap();
    next(&mut socket).await;
    send(
        &mut socket,
        json!({"t": "start", "id": "e", "engine": "pion"}),
    )
    .await;
    let started = next(&mut socket).await;
    assert_eq!(started["t"], "started", "{started}");
    socket
}

async fn latency(n: usize) {
    // Over a pipe.
    let mut pion = Command::new(bin_dir().join("pion"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = pion.stdin.take().unwrap();
    let mut stdout = BufReader::new(pion.stdout.take().unwrap());
    let mut pipe = Vec::with_capacity(n);
    let mut line = String::new();
    for _ in 0..n + 100 {
        let t = Instant::now();
        stdin.write_all(b"isready\n").unwrap();
        stdin.flush().unwrap();
        line.clear();
        stdout.read_line(&mut line).unwrap();
        assert_eq!(line, "readyok\n");
        pipe.push(t.elapsed());
    }
    drop(stdin);
    let _ = pion.wait();
    // Over the WebSocket: the server relays to its own pion pipe.
    let server = Server::start(&["--max-messages", "100000"]);
    let mut socket = page_with_pion(&server.addr).await;
    let mut ws = Vec::with_capacity(n);
    for _ in 0..n + 100 {
        let t = Instant::now();
        send(
            &mut socket,
            json!({"t": "send", "id": "e", "line": "isready"}),
        )
        .await;
        let reply = next(&mut socket).await;
        assert_eq!(reply["line"], "readyok", "{reply}");
        ws.push(t.elapsed());
    }
    // The first 100 of each warm up (page cache, allocator, TCP).
    let (pm, p99) = percentiles(pipe.split_off(100));
    let (wm, w99) = percentiles(ws.split_off(100));
    println!("isready -> readyok, {n} round trips each, microseconds");
    println!("pipe to pion:        median {pm:7.1}  p99 {p99:7.1}");
    println!("WebSocket via bridge: median {wm:7.1}  p99 {w99:7.1}");
    println!(
        "added by the bridge:  median {:7.1}  p99 {:7.1}",
        wm - pm,
        w99 - p99
    );
}

/// The server's children that are alive, its open descriptors and its resident memory (KiB).
fn server_state(pid: u32) -> (usize, usize, u64) {
    let children = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| {
            std::fs::read_to_string(format!("/proc/{p}/stat")).is_ok_and(|stat| {
                let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
                let fields: Vec<&str> = rest.split_whitespace().collect();
                // After the name: state, then the parent's pid.
                fields.get(1) == Some(&pid.to_string().as_str()) && fields[0] != "Z"
            })
        })
        .count();
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .count();
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let rss = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    (children, fds, rss)
}

async fn sessions(rounds: usize) {
    let server = Server::start(&["--max-sessions", "8"]);
    let pid = server.child.id();
    let (c0, f0, r0) = server_state(pid);
    println!("round  engines-alive-while-open  engines-after-close  fds  rss-KiB");
    println!("start  -  {c0}  {f0}  {r0}");
    let mut worst = (0, 0);
    for round in 1..=rounds {
        let mut pages = Vec::new();
        for _ in 0..8 {
            let mut socket = page_with_pion(&server.addr).await;
            send(
                &mut socket,
                json!({"t": "send", "id": "e", "line": "go infinite"}),
            )
            .await;
            pages.push(socket);
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        let (open, _, _) = server_state(pid);
        for mut socket in pages {
            let _ = socket.close(None).await;
        }
        // Give the server a moment to kill and reap the engines and close their pipes.
        let until = Instant::now() + Duration::from_secs(5);
        let mut state = server_state(pid);
        while (state.0 > 0 || state.1 > f0) && Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(20)).await;
            state = server_state(pid);
        }
        worst = (worst.0.max(state.0), worst.1.max(state.1));
        if round % 10 == 0 || round == 1 {
            println!("{round}  {open}  {}  {}  {}", state.0, state.1, state.2);
        }
    }
    let (c, f, r) = server_state(pid);
    println!(
        "end: {c} engines alive, {f} fds (start {f0}), RSS {r} KiB (start {r0} KiB); worst after a round: {} engines, {} fds",
        worst.0, worst.1
    );
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let count = |default| args.get(2).and_then(|n| n.parse().ok()).unwrap_or(default);
    match args.get(1).map(String::as_str) {
        Some("latency") => latency(count(2000)).await,
        Some("sessions") => sessions(count(100)).await,
        _ => eprintln!("usage: bridge_measure latency [N] | sessions [ROUNDS]"),
    }
}
