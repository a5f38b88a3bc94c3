//! The page, shipped inside the binary: plain HTML, CSS and JavaScript, no build step, nothing
//! fetched from elsewhere, so it works offline.

/// The page itself.
pub const INDEX: &str = include_str!("../assets/index.html");

/// The other files of the page, by the name the page asks for, with their content types.
const FILES: [(&str, &str, &str); 17] = [
    (
        "ui.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/ui.js"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../assets/style.css"),
    ),
    (
        "engine.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/engine.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/board.js"),
    ),
    (
        "game.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/game.js"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/app.js"),
    ),
    (
        "controls.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/controls.js"),
    ),
    (
        "viewer.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/viewer.js"),
    ),
    (
        "state.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/state.js"),
    ),
    (
        "panel.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/panel.js"),
    ),
    (
        "clock.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/clock.js"),
    ),
    (
        "sow.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/sow.js"),
    ),
    (
        "store.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/store.js"),
    ),
    (
        "record.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/record.js"),
    ),
    (
        "files.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/files.js"),
    ),
    (
        "seats.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/seats.js"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_str!("../assets/favicon.svg"),
    ),
];

/// The content type and text of the page file `name`.
pub fn find(name: &str) -> Option<(&'static str, &'static str)> {
    FILES
        .iter()
        .find(|(file, _, _)| *file == name)
        .map(|(_, content_type, body)| (*content_type, *body))
}
