//! The HTTP side: the page (embedded in the binary), the WebSocket that bridges to engines, the
//! records of a match, and a shutdown that leaves no engine behind.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ws::{Message, WebSocketUpgrade};
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use pion_referee::config::EngineSpec;
use tokio::sync::Semaphore;
use tower::ServiceExt;

use crate::guard::Guard;
use crate::{assets, process, records, session};

/// How long a connection may take to send a request's headers, or stay silent between
/// requests: a slow or silent client cannot hold a connection (and a descriptor) longer.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long an upload may take to arrive.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(60);

/// Records files read at once (uploads and `--records`); more are told to wait.
pub const MAX_READS: usize = 2;

/// The name the page starts the rules process by (never a configured engine's).
pub const RULES: &str = "rules";

/// What the server was started with.
#[derive(Debug)]
pub struct Settings {
    /// The engines a page may start, by name.
    pub engines: Vec<EngineSpec>,
    /// The rules process of every page (`--rules`, or the pion next to pion-web), named [`RULES`].
    pub rules: EngineSpec,
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
    /// The hosts and origins requests must come from.
    pub guard: Guard,
}

/// The server's shared state.
#[derive(Clone)]
struct App {
    settings: Arc<Settings>,
    sessions: Arc<Semaphore>,
    reads: Arc<Semaphore>,
}

/// The addresses of the connection a request came on.
#[derive(Clone, Copy, Debug)]
struct Connection {
    local: SocketAddr,
    peer: SocketAddr,
}

/// The routes of the server, every one behind the guard.
fn router(settings: Arc<Settings>) -> Router {
    let app = App {
        sessions: Arc::new(Semaphore::new(settings.max_sessions)),
        reads: Arc::new(Semaphore::new(MAX_READS)),
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
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

/// Refuses, with 403 and a line on stderr, a request whose Host or Origin is not this
/// server's (see [`Guard`]).
async fn guard(State(app): State<App>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let text = |name| {
        headers
            .get(name)
            .map(|v: &header::HeaderValue| v.to_str().unwrap_or("(not text)"))
    };
    let Some(connection) = request.extensions().get::<Connection>().copied() else {
        return next.run(request).await;
    };
    let verdict =
        app.settings
            .guard
            .check(text(header::HOST), text(header::ORIGIN), connection.local);
    match verdict {
        Ok(()) => next.run(request).await,
        Err(why) => {
            eprintln!(
                "pion-web: refused {} {} from {}: {why}",
                request.method(),
                request.uri().path().chars().take(100).collect::<String>(),
                connection.peer
            );
            (
                StatusCode::FORBIDDEN,
                format!("pion-web refused this request: {why}\n"),
            )
                .into_response()
        }
    }
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

/// A match view as JSON, or its error as `{"error": ...}` with `status`.
fn error_response(status: StatusCode, error: &str) -> Response {
    (status, axum::Json(serde_json::json!({ "error": error }))).into_response()
}

/// Reads records text into the JSON answer, on a blocking thread (a 32 MiB file is parsed and
/// serialized in tens of milliseconds: not on the threads that serve the pages), then gives the
/// memory back to the system.
async fn answer(text: Vec<u8>, source: String) -> Response {
    let built = tokio::task::spawn_blocking(move || {
        let answer = match records::read(&text, &source) {
            Ok(view) => serde_json::to_vec(&view)
                .map(|json| (StatusCode::OK, json))
                .map_err(|e| e.to_string()),
            Err(error) => Ok((
                StatusCode::BAD_REQUEST,
                serde_json::to_vec(&serde_json::json!({ "error": error })).unwrap_or_default(),
            )),
        };
        drop(text);
        answer
    })
    .await;
    let response = match built {
        Ok(Ok((status, json))) => {
            (status, [(header::CONTENT_TYPE, "application/json")], json).into_response()
        }
        Ok(Err(e)) => error_response(StatusCode::INTERNAL_SERVER_ERROR, &e),
        Err(_) => error_response(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the records could not be read",
        ),
    };
    give_back_memory();
    response
}

/// Returns freed memory to the system (glibc keeps it otherwise, and a few large uploads
/// would stay in the server's resident size).
fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory of the allocator.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The answer to a records request while [`MAX_READS`] are being read.
fn busy() -> Response {
    error_response(
        StatusCode::SERVICE_UNAVAILABLE,
        &format!("the server is reading {MAX_READS} records files already: try again in a moment"),
    )
}

async fn given_records(State(app): State<App>) -> Response {
    let Some(path) = &app.settings.records else {
        return error_response(
            StatusCode::NOT_FOUND,
            "pion-web was started without --records",
        );
    };
    let Ok(_permit) = app.reads.clone().try_acquire_owned() else {
        return busy();
    };
    let source = path.display().to_string();
    // Read at each request: a match still being played shows its new games on reload.
    match tokio::fs::metadata(path).await {
        Ok(meta) if meta.len() > records::MAX_RECORDS_BYTES as u64 => error_response(
            StatusCode::BAD_REQUEST,
            &records::records_too_large(&source, Some(meta.len())),
        ),
        _ => match tokio::fs::read(path).await {
            Ok(text) => answer(text, source).await,
            Err(e) => error_response(
                StatusCode::BAD_REQUEST,
                &format!("cannot read {source}: {e}"),
            ),
        },
    }
}

/// An uploaded records file: counted (at most [`MAX_READS`] at once, the permit taken before
/// the body is read), bounded in size and in time.
async fn uploaded_records(State(app): State<App>, body: Body) -> Response {
    let Ok(_permit) = app.reads.clone().try_acquire_owned() else {
        return busy();
    };
    let source = "the uploaded file";
    let limit = records::MAX_RECORDS_BYTES;
    match tokio::time::timeout(BODY_TIMEOUT, axum::body::to_bytes(body, limit)).await {
        Ok(Ok(bytes)) => answer(Vec::from(bytes), source.to_string()).await,
        Ok(Err(_)) => error_response(
            StatusCode::PAYLOAD_TOO_LARGE,
            &records::records_too_large(source, None),
        ),
        Err(_) => error_response(
            StatusCode::REQUEST_TIMEOUT,
            &format!("the upload took more than {} s", BODY_TIMEOUT.as_secs()),
        ),
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
///
/// Each connection is served by hyper with a timer, so that a client that sends its headers
/// slowly, or nothing at all, is cut off after [`HEADER_TIMEOUT`].
pub async fn serve(listener: tokio::net::TcpListener, settings: Settings) -> anyhow::Result<()> {
    let app = router(Arc::new(settings));
    let listen = listener.local_addr()?;
    let shutdown = shutdown_signal();
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = &mut shutdown => break,
        };
        let (tcp, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(_) => {
                // Out of descriptors, most likely: let the header timeout free some.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        // Lines are small and interactive: no Nagle delay on them.
        let _ = tcp.set_nodelay(true);
        let connection = Connection {
            local: tcp.local_addr().unwrap_or(listen),
            peer,
        };
        let service =
            app.clone()
                .map_request(move |mut request: Request<hyper::body::Incoming>| {
                    request.extensions_mut().insert(connection);
                    request.map(Body::new)
                });
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT);
            let served = http
                .serve_connection(TokioIo::new(tcp), TowerToHyperService::new(service))
                .with_upgrades();
            let _ = served.await;
        });
    }
    let killed = process::kill_all();
    eprintln!("pion-web: stopped ({killed} engine process groups killed)");
    Ok(())
}
