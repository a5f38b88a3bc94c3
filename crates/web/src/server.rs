//! The HTTP side: the page (embedded in the binary), the WebSocket that bridges to engines, the
//! records of a match, and a shutdown that leaves no engine behind.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use pion_referee::config::EngineSpec;
use tokio::sync::Semaphore;

use crate::{assets, process, records, session};

/// What the server was started with.
#[derive(Debug)]
pub struct Settings {
    /// The engines a page may start, by name.
    pub engines: Vec<EngineSpec>,
    /// A records file to show in the match viewer (`--records`).
    pub records: Option<PathBuf>,
    /// Browser connections served at once.
    pub max_sessions: usize,
    /// The longest line relayed, in bytes, in either direction.
    pub max_line: usize,
    /// Messages a second a page may send on average.
    pub max_messages: u32,
    /// How long a page may send nothing before its engines are stopped.
    pub idle_timeout: Duration,
}

/// The server's shared state.
#[derive(Clone)]
struct App {
    settings: Arc<Settings>,
    sessions: Arc<Semaphore>,
}

/// The routes of the server.
fn router(settings: Arc<Settings>) -> Router {
    let app = App {
        sessions: Arc::new(Semaphore::new(settings.max_sessions)),
        settings,
    };
    Router::new()
        .route(
            "/",
            get(|| async { page("text/html; charset=utf-8", assets::INDEX) }),
        )
        .route("/{file}", get(asset))
        .route("/ws", get(socket))
        .route("/api/records", get(given_records).post(uploaded_records))
        .layer(DefaultBodyLimit::max(records::MAX_RECORDS_BYTES + 1))
        .with_state(app)
}

/// A static page part, never cached (a rebuilt server serves the new page at once).
fn page(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

async fn asset(axum::extract::Path(file): axum::extract::Path<String>) -> Response {
    match assets::find(&file) {
        Some((content_type, body)) => page(content_type, body),
        None => (StatusCode::NOT_FOUND, "no such file\n").into_response(),
    }
}

async fn socket(State(app): State<App>, upgrade: WebSocketUpgrade) -> Response {
    let permit = app.sessions.clone().try_acquire_owned();
    let settings = app.settings.clone();
    // Twice the line limit: a line a little too long gets a sentence from the session; a message
    // far past it (not a page's) ends the connection.
    let max_message = 2 * settings.max_line + 4096;
    upgrade
        .max_message_size(max_message)
        .max_frame_size(max_message)
        .on_upgrade(move |mut socket| async move {
            match permit {
                Ok(_permit) => session::run(socket, settings).await,
                Err(_) => {
                    let message = format!(
                        "the server is busy: {} pages are open, the most it serves at once (pion-web --max-sessions)",
                        settings.max_sessions
                    );
                    let refusal = serde_json::to_string(&session::ToPage::Error {
                        id: None,
                        message: &message,
                    })
                    .expect("messages serialize");
                    let _ = socket
                        .send(Message::Text(refusal.into()))
                        .await;
                    let _ = socket.send(Message::Close(None)).await;
                }
            }
        })
}

/// A match view as JSON, or its error as `{"error": ...}` with status 400.
fn view_response(result: Result<records::MatchView, String>) -> Response {
    match result {
        Ok(view) => axum::Json(view).into_response(),
        Err(error) => (
            StatusCode::BAD_REQUEST,
            axum::Json(serde_json::json!({ "error": error })),
        )
            .into_response(),
    }
}

async fn given_records(State(app): State<App>) -> Response {
    let Some(path) = &app.settings.records else {
        return (
            StatusCode::NOT_FOUND,
            axum::Json(serde_json::json!({ "error": "pion-web was started without --records" })),
        )
            .into_response();
    };
    let source = path.display().to_string();
    // Read at each request: a match still being played shows its new games on reload.
    let result = match tokio::fs::metadata(path).await {
        Ok(meta) if meta.len() > records::MAX_RECORDS_BYTES as u64 => {
            Err(records::records_too_large(&source, Some(meta.len())))
        }
        _ => match tokio::fs::read(path).await {
            Ok(text) => records::read(&text, &source),
            Err(e) => Err(format!("cannot read {source}: {e}")),
        },
    };
    view_response(result)
}

async fn uploaded_records(
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    match body {
        Ok(body) => view_response(records::read(&body, "the uploaded file")),
        Err(_) => view_response(Err(records::records_too_large("the uploaded file", None))),
    }
}

/// Resolves at Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .expect("a SIGTERM handler can be installed");
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}

/// Serves on `listener` until Ctrl-C or SIGTERM, then kills every engine still running.
pub async fn serve(listener: tokio::net::TcpListener, settings: Settings) -> anyhow::Result<()> {
    let app = router(Arc::new(settings));
    // Lines are small and interactive: no Nagle delay on them.
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let server = axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    );
    tokio::select! {
        result = server => result?,
        _ = shutdown_signal() => {}
    }
    let killed = process::kill_all();
    eprintln!("pion-web: stopped ({killed} engine process groups killed)");
    Ok(())
}
