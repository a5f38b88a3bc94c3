//! pion-web against a hostile web page and a hostile client, each test the attack itself: a
//! cross-site upgrade or upload, a page that wedges its engine's input then goes away, an
//! engine that exits while a child holds its output, slow and silent connections, concurrent
//! uploads. Each checks that the server still serves and that no engine is left. All traffic
//! stays on 127.0.0.1.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::{Page, Server, pion, wait_gone};
use serde_json::json;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

/// An engine given as a shell script, as an `--engine` word list.
fn shell(name: &str, script: &str) -> Vec<String> {
    vec![format!("name={name}"), format!("cmd=sh -c '{script}'")]
}

/// A raw HTTP/1.1 request with these headers; the status code (0 if the server closed first).
fn raw(server: &Server, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> u16 {
    let mut stream = TcpStream::connect(&server.addr).expect("connects");
    let mut head = format!("{method} {path} HTTP/1.1\r\n");
    for (name, value) in headers {
        head += &format!("{name}: {value}\r\n");
    }
    if !headers.iter().any(|(name, _)| *name == "Connection") {
        head += "Connection: close\r\n";
    }
    head += &format!("Content-Length: {}\r\n\r\n", body.len());
    stream.write_all(head.as_bytes()).unwrap();
    let _ = stream.write_all(body);
    // The status line is enough (an upgraded socket stays open after it).
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut response = Vec::new();
    let mut buf = [0u8; 4096];
    while !response.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => response.extend_from_slice(&buf[..n]),
        }
    }
    String::from_utf8_lossy(&response)
        .get(9..12)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}

/// The headers of a WebSocket upgrade from `origin` (none: a client that is not a browser).
fn upgrade<'a>(host: &'a str, origin: Option<&'a str>) -> Vec<(&'a str, &'a str)> {
    let mut headers = vec![
        ("Host", host),
        ("Upgrade", "websocket"),
        ("Connection", "Upgrade"),
        ("Sec-WebSocket-Version", "13"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
    ];
    if let Some(origin) = origin {
        headers.push(("Origin", origin));
    }
    headers
}

#[test]
fn other_sites_cannot_open_the_socket_nor_upload() {
    let server = Server::start(&[pion()], &[]);
    let own = format!("http://{}", server.addr);
    let host = server.addr.as_str();
    let port = server.addr.rsplit(':').next().unwrap();
    let localhost = format!("localhost:{port}");
    let localhost_origin = format!("http://localhost:{port}");
    // Another web site, a sandboxed frame or file (Origin: null), DNS rebinding (Host).
    for (host, origin) in [
        (host, Some("http://evil.example")),
        (host, Some("null")),
        (host, Some("https://127.0.0.1")),
        ("evil.example", None),
        ("evil.example", Some("http://evil.example")),
    ] {
        let status = raw(&server, "GET", "/ws", &upgrade(host, origin), b"");
        assert_eq!(status, 403, "upgrade with Host {host}, Origin {origin:?}");
        let mut headers = vec![("Host", host), ("Content-Type", "text/plain")];
        headers.extend(origin.map(|o| ("Origin", o)));
        let status = raw(&server, "POST", "/api/records", &headers, b"{}\n");
        assert_eq!(status, 403, "upload with Host {host}, Origin {origin:?}");
        let status = raw(&server, "GET", "/api/records", &[("Host", host)], b"");
        if host == "evil.example" {
            assert_eq!(status, 403, "a rebound name reads nothing");
        }
    }
    // The server's own page, in each loopback spelling, and a client that is not a browser.
    for (host, origin) in [
        (host, Some(own.as_str())),
        (localhost.as_str(), Some(localhost_origin.as_str())),
        (host, None),
    ] {
        let status = raw(&server, "GET", "/ws", &upgrade(host, origin), b"");
        assert_eq!(status, 101, "upgrade with Host {host}, Origin {origin:?}");
    }
    // Still serving.
    assert_eq!(server.http("GET", "/", b"").0, 200);
}

#[tokio::test]
async fn the_page_of_this_server_plays_through_its_socket() {
    let server = Server::start(&[pion()], &[]);
    let mut request = format!("ws://{}/ws", server.addr)
        .into_client_request()
        .unwrap();
    let origin = HeaderValue::from_str(&format!("http://{}", server.addr)).unwrap();
    request.headers_mut().insert("Origin", origin);
    let (socket, _) = tokio_tungstenite::connect_async(request)
        .await
        .expect("the server's own origin is served");
    let mut page = Page { socket };
    assert_eq!(page.next().await["t"], "hello");
    page.start("p1", "pion").await;
    page.line("p1", "isready").await;
    page.line_from("p1", "readyok").await;
}

#[tokio::test]
async fn a_page_that_wedges_its_engines_input_then_closes_leaves_nothing() {
    // `sleep` never reads: what the page sends fills the pipe.
    let server = Server::start(&[pion(), shell("deaf", "exec sleep 300")], &[]);
    let (mut page, _) = Page::open(&server).await;
    page.send(json!({"t": "start", "id": "p1", "engine": "deaf"}))
        .await;
    let started = page.until(|m| m["t"] == "started").await;
    let deaf = started["pid"].as_i64().unwrap() as i32;
    let line = "x".repeat(60_000);
    let sent = Instant::now();
    for _ in 0..40 {
        page.line("p1", &line).await;
    }
    // The session goes on at once: another engine of the page answers while the first is stuck.
    page.start("rules", "pion").await;
    page.line("rules", "isready").await;
    page.line_from("rules", "readyok").await;
    assert!(
        sent.elapsed() < Duration::from_secs(4),
        "{:?}",
        sent.elapsed()
    );
    // The engine that does not read is stopped and reported.
    let exit = page.until(|m| m["t"] == "exit").await;
    assert!(
        exit["message"]
            .as_str()
            .unwrap()
            .contains("stopped reading its input"),
        "{exit}"
    );
    assert!(wait_gone(deaf, Duration::from_secs(5)));
    // Wedge a second one, then close the page at once: nothing is left.
    page.send(json!({"t": "start", "id": "p2", "engine": "deaf"}))
        .await;
    let started = page.until(|m| m["t"] == "started").await;
    let deaf = started["pid"].as_i64().unwrap() as i32;
    for _ in 0..10 {
        page.line("p2", &line).await;
    }
    page.send(json!({"t": "kill", "id": "p2"})).await;
    assert!(
        wait_gone(deaf, Duration::from_secs(5)),
        "a kill is never held up"
    );
    drop(page);
    let (mut page, hello) = Page::open(&server).await;
    assert_eq!(hello["t"], "hello", "the slot was given back");
    page.start("p1", "pion").await;
}

#[tokio::test]
async fn an_engine_that_exits_while_its_child_holds_the_output_is_reported() {
    let server = Server::start(
        &[
            shell("holder", "sleep 300 & echo child $!; sleep 0.3; exit 0"),
            shell(
                "escaper",
                "setsid sleep 300 & echo child $!; sleep 0.3; exit 5",
            ),
        ],
        &[],
    );
    let (mut page, _) = Page::open(&server).await;
    for (name, status) in [("holder", 0), ("escaper", 5)] {
        page.send(json!({"t": "start", "id": "p1", "engine": name}))
            .await;
        let started = page.until(|m| m["t"] == "started").await;
        let pid = started["pid"].as_i64().unwrap() as i32;
        let line = page.line_from("p1", "child").await;
        let child: i32 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        let exit = page.until(|m| m["t"] == "exit").await;
        let expected = format!("engine '{name}' exited with status {status}");
        assert!(
            exit["message"].as_str().unwrap().contains(&expected),
            "{exit}"
        );
        assert!(wait_gone(pid, Duration::from_secs(5)));
        if name == "holder" {
            // In the engine's group: killed with it.
            assert!(wait_gone(child, Duration::from_secs(5)));
        } else {
            // setsid left the group (beyond any process-group kill): the exit is still seen,
            // and the page can go on. The test cleans up after the escapee.
            // SAFETY: kill only sends a signal.
            unsafe { libc::kill(child, libc::SIGKILL) };
        }
        // Sending to the ended engine is an error, not a write into a pipe nobody reads.
        page.line("p1", "isready").await;
        let reply = page.next().await;
        assert_eq!(reply["t"], "error", "{reply}");
    }
}

#[test]
fn fifty_slow_connections_neither_starve_the_page_nor_stay() {
    let server = Server::start(&[pion()], &[]);
    let mut slow: Vec<TcpStream> = (0..50)
        .map(|i| {
            let mut stream = TcpStream::connect(&server.addr).unwrap();
            // Half send the start of a request and stop (slowloris), half send nothing.
            if i % 2 == 0 {
                stream
                    .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                    .unwrap();
            }
            stream
        })
        .collect();
    let asked = Instant::now();
    assert_eq!(server.http("GET", "/", b"").0, 200);
    assert!(asked.elapsed() < Duration::from_secs(5));
    // Each one is cut off by the header timeout (10 s): the server closes them.
    let give_up = Instant::now() + Duration::from_secs(30);
    for stream in &mut slow {
        let left = give_up.saturating_duration_since(Instant::now());
        stream
            .set_read_timeout(Some(left.max(Duration::from_millis(1))))
            .unwrap();
        let mut buf = [0u8; 512];
        let closed = loop {
            match stream.read(&mut buf) {
                Ok(0) => break true,
                Ok(_) => continue,
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break true,
                Err(_) => break false,
            }
        };
        assert!(closed, "a slow connection was held for 30 s");
    }
    assert_eq!(server.http("GET", "/", b"").0, 200);
}

/// The resident memory of a process, in MiB.
fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    kib / 1024.0
}

#[test]
fn concurrent_uploads_are_counted_and_their_memory_given_back() {
    let server = Server::start(&[pion()], &[]);
    // 31 MiB that is not records: read to its end, then refused in one sentence.
    let body = vec![b'x'; 31 * 1024 * 1024];
    let mut peaks = Vec::new();
    for _ in 0..3 {
        let statuses: Vec<u16> = std::thread::scope(|scope| {
            let uploads: Vec<_> = (0..8)
                .map(|_| {
                    scope.spawn(|| {
                        let host = [("Host", server.addr.as_str())];
                        raw(&server, "POST", "/api/records", &host, &body)
                    })
                })
                .collect();
            uploads.into_iter().map(|u| u.join().unwrap()).collect()
        });
        // At most two are read at once; the others are told to come back (503), or cut off
        // while still sending the body the server will not read (0: the connection reset).
        assert!(
            statuses.iter().all(|s| [400, 503, 0].contains(s)),
            "{statuses:?}"
        );
        assert!(statuses.contains(&400), "{statuses:?}");
        peaks.push(rss_mib(server.child.id()));
        assert_eq!(server.http("GET", "/", b"").0, 200);
    }
    let after = rss_mib(server.child.id());
    eprintln!("server RSS after each round of 8 uploads: {peaks:.1?} MiB");
    // Two 31 MiB bodies at most at once, given back after: far below 8 x 31 MiB held.
    assert!(after < 120.0, "{after:.1} MiB kept after the uploads");
}

/// pion-web with these arguments, expected to refuse them: its stderr.
fn refused(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_pion-web"))
        .args(args)
        .output()
        .expect("pion-web runs");
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn exposure_and_ignored_settings_are_refused_on_the_command_line() {
    let pion = format!("cmd={}", crate::common::pion_binary().display());
    let public = refused(&["--listen", "0.0.0.0:0", "--engine", "name=pion", &pion]);
    assert!(public.contains("add --public"), "{public}");
    let tc = refused(&["--engine", "name=pion", &pion, "tc=movetime=100"]);
    assert!(tc.contains("--engine tc= is for the referee"), "{tc}");
    let proto = refused(&["--engine", "name=pion", &pion, "proto=ugi"]);
    assert!(
        proto.contains("--engine proto=ugi: pion-web speaks pion's protocol")
            && proto.contains("proto=uci"),
        "{proto}"
    );
    let name = refused(&["--engine", "name=rules", &pion]);
    assert!(name.contains("the engine name 'rules'"), "{name}");
    let origin = refused(&[
        "--allow-origin",
        "evil.example",
        "--engine",
        "name=pion",
        &pion,
    ]);
    assert!(origin.contains("is not an origin"), "{origin}");
}

#[tokio::test]
async fn the_rules_process_is_pion_whatever_the_engines() {
    // The only configured engine knows nothing of `legal`: the rules are still pion's.
    let random = vec![
        "name=random".to_string(),
        format!(
            "cmd=python3 {}/../../scripts/random_engine.py",
            env!("CARGO_MANIFEST_DIR")
        ),
    ];
    let server = Server::start(&[random], &[]);
    let (mut page, hello) = Page::open(&server).await;
    assert_eq!(hello["engines"], json!(["random"]));
    assert_eq!(hello["rules"], "rules");
    let pid = page.start("rules", "rules").await;
    page.line("rules", "newgame awale").await;
    page.line("rules", "legal").await;
    let legal = page.line_from("rules", "legal").await;
    assert_eq!(legal, "legal A B C D E F");
    drop(page);
    assert!(wait_gone(pid, Duration::from_secs(5)));
}
