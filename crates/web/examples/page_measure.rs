//! Measures the page in headless Chromium (docs/web.md): Avalam's start position analysed with
//! `go infinite` for SECONDS (default 30), sampling each second the frames drawn, the tab's
//! JavaScript heap and its number of DOM nodes.
//!
//! `cargo build --release -p pion -p pion-web && cargo run --release -p pion-web --features lab --example
//! page_measure -- 30` (needs /usr/bin/chromium and /usr/bin/chromedriver).

#[path = "../tests/web/browser/mod.rs"]
mod browser;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use browser::Browser;

#[tokio::main]
async fn main() {
    let seconds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let dir = std::env::current_exe()
        .unwrap()
        .ancestors()
        .nth(2)
        .unwrap()
        .to_path_buf();
    let mut server = Command::new(dir.join("pion-web"))
        .args(["--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("pion-web is built (cargo build --release -p pion -p pion-web)");
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap()
        .to_string();

    let b = Browser::start(1280, 900).await;
    b.client.goto(&url).await.unwrap();
    b.wait(
        "the board",
        "return document.querySelectorAll('#board .cell').length === 81",
        Duration::from_secs(30),
    )
    .await;
    // Both seats human, so that only the analysis runs.
    let kind = b
        .client
        .find(fantoccini::Locator::Css("#kind-2"))
        .await
        .unwrap();
    kind.select_by_value("human").await.unwrap();
    b.js("window.__frames = 0; const tick = () => { window.__frames++; requestAnimationFrame(tick); }; requestAnimationFrame(tick); return 1;").await;
    assert!(b.click("#analysis").await);
    println!("second  fps  js-heap-MiB  dom-nodes  info-depth");
    let mut fps = Vec::new();
    let mut heap = Vec::new();
    for second in 1..=seconds {
        let before = b.js("return window.__frames").await.as_f64().unwrap();
        tokio::time::sleep(Duration::from_secs(1)).await;
        let sample = b
            .js("return [window.__frames, performance.memory ? performance.memory.usedJSHeapSize : 0, document.getElementsByTagName('*').length, document.getElementById('stats').textContent]")
            .await;
        let frames = sample[0].as_f64().unwrap() - before;
        let mib = sample[1].as_f64().unwrap() / 1048576.0;
        fps.push(frames);
        heap.push(mib);
        println!(
            "{second:6}  {frames:3.0}  {mib:11.2}  {:9}  {}",
            sample[2],
            sample[3].as_str().unwrap_or("")
        );
    }
    let min = fps.iter().cloned().fold(f64::INFINITY, f64::min);
    let mean = fps.iter().sum::<f64>() / fps.len() as f64;
    println!(
        "fps: mean {mean:.1}, lowest {min:.0}; JS heap: first {:.2} MiB, last {:.2} MiB, highest {:.2} MiB",
        heap[0],
        heap[heap.len() - 1],
        heap.iter().cloned().fold(0.0, f64::max)
    );
    b.close().await;
    // SAFETY: kill only sends a signal.
    unsafe {
        libc::kill(server.id() as i32, libc::SIGTERM);
    }
    let _ = server.wait();
}
