//! A headless Chromium driven over WebDriver (Debian's chromium and chromium-driver), for the
//! browser tests: start, find, click, wait, screenshot.

#![allow(dead_code)]

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

/// At most two browsers at once (as many as the two cores of CI machines): a browser test
/// mostly waits on its page, but more Chromiums and engines than cores slow each other down.
pub static BROWSER_SLOTS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// Waits for a browser slot, held until the permit is dropped.
pub async fn browser_slot() -> tokio::sync::SemaphorePermit<'static> {
    BROWSER_SLOTS
        .acquire()
        .await
        .expect("the slots are never closed")
}

/// Fails the test at once, with one line saying what to install, where the browser is missing:
/// a browser test may not pass by being skipped. `.ci/run` installs both packages.
pub fn require() {
    if !(Path::new(CHROMEDRIVER).exists() && Path::new(CHROMIUM).exists()) {
        panic!(
            "browser tests: {CHROMIUM} or {CHROMEDRIVER} is missing \
             (apt-get install chromium chromium-driver, as .ci/run does)"
        );
    }
}

/// A chromedriver with one headless Chromium session; both end when dropped.
pub struct Browser {
    pub client: Client,
    driver: Child,
    profile: PathBuf,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Browser {
    /// Starts chromedriver and a Chromium of `width` x `height`.
    pub async fn start(width: u32, height: u32) -> Browser {
        let port = free_port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // Its own group, so that a failed test's Drop takes Chromium down with it.
            .process_group(0)
            .spawn()
            .expect("chromedriver starts");
        let profile = std::env::temp_dir().join(format!("pion-web-chromium-{port}"));
        let _ = std::fs::remove_dir_all(&profile);
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".to_string(),
            json!({
                "binary": CHROMIUM,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                    format!("--user-data-dir={}", profile.display()),
                    format!("--window-size={width},{height}"),
                ],
            }),
        );
        let until = Instant::now() + Duration::from_secs(20);
        let client = loop {
            let connector = hyper_util::client::legacy::connect::HttpConnector::new();
            match ClientBuilder::new(connector)
                .capabilities(caps.clone())
                .connect(&format!("http://127.0.0.1:{port}"))
                .await
            {
                Ok(client) => break client,
                Err(e) if Instant::now() > until => panic!("no WebDriver session: {e}"),
                Err(_) => tokio::time::sleep(Duration::from_millis(25)).await,
            }
        };
        Browser {
            client,
            driver,
            profile,
        }
    }

    /// Runs `script` (a function body) in the page and returns its value.
    pub async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Waits until `script` returns a truthy value (within `limit`), and returns it.
    pub async fn wait(&self, what: &str, script: &str, limit: Duration) -> Value {
        match self.try_wait(script, limit).await {
            Some(value) => value,
            None => {
                let messages = self.text("#messages").await;
                panic!("timed out waiting for {what}; the page's messages: {messages:?}");
            }
        }
    }

    /// Waits until `script` returns a truthy value (within `limit`); None if it never does.
    pub async fn try_wait(&self, script: &str, limit: Duration) -> Option<Value> {
        let until = Instant::now() + limit;
        loop {
            let value = self.js(script).await;
            let truthy = !matches!(&value, Value::Null | Value::Bool(false))
                && value != json!("")
                && value != json!(0);
            if truthy {
                return Some(value);
            }
            if Instant::now() > until {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The text of the first element matching `css`.
    pub async fn text(&self, css: &str) -> String {
        let script = format!(
            "const e = document.querySelector({}); return e ? e.textContent : null;",
            json!(css)
        );
        self.js(&script).await.as_str().unwrap_or("").to_string()
    }

    /// A real WebDriver click on the first element matching `css`; false if it went stale
    /// (the board was redrawn in between) or is not there.
    pub async fn click(&self, css: &str) -> bool {
        match self.client.find(Locator::Css(css)).await {
            Ok(element) => element.click().await.is_ok(),
            Err(_) => false,
        }
    }

    /// Saves a screenshot as `target/<name>.png` and returns its path.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let png = self.client.screenshot().await.expect("a screenshot");
        let path = target_dir().join(format!("{name}.png"));
        std::fs::write(&path, png).expect("the screenshot is written");
        path
    }

    /// Ends the session, then the browser and the driver.
    pub async fn close(self) {
        let _ = self.client.clone().close().await;
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // SAFETY: killpg only sends a signal; the group is the driver's, not yet reaped.
        unsafe {
            libc::killpg(self.driver.id() as i32, libc::SIGKILL);
        }
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// `target/`, above the profile directory the tests run from.
pub fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.ancestors()
        .nth(3)
        .expect("target/<profile>/deps/test")
        .to_path_buf()
}

// The page's helpers need the tests' server (tests/common); the measuring example has none.
#[cfg(test)]
mod page;
#[cfg(test)]
pub use page::*;
