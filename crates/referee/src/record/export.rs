//! Games written for other tools and for people: PGN (its tag pairs and movetext syntax, with
//! pion's own move notation and the engines' data as comments) and a plain text list.
//!
//! PGN was made for chess, but its syntax carries any game: tag pairs `[Name "value"]`, then
//! numbered moves, `{comments}` and the result. The tags are the Seven Tag Roster with
//! `Player1`/`Player2` for White/Black (the players' names in these games), plus `Game`,
//! `Variant`, `SetUp`/`FEN` (the start position in pion's notation), `Time` and `Termination`.
//! The opening moves the referee played are marked `{book}`; each engine move carries
//! `{score/depth nodes time}` as fastchess writes them (the score in points, the time the
//! referee measured), with what the engine did not report left out.

use pion_protocol::engine_info::MoveData;

/// One game as the exports need it.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportGame {
    /// The event, e.g. `pion referee tournament`.
    pub event: String,
    /// Where it was played (the machine's name, or `?`).
    pub site: String,
    /// When the game started, as `YYYY-MM-DDTHH:MM:SSZ`, if known.
    pub started: Option<String>,
    /// The round (1-based).
    pub round: u64,
    /// The game's index in its match or tournament.
    pub game: u64,
    /// Names of player 1 and player 2.
    pub players: [String; 2],
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// `avalam` or `awale`.
    pub rules: String,
    /// The rule variant.
    pub variant: String,
    /// The start position in pion's notation (`<board> <side>`).
    pub position: String,
    /// The opening moves, played by the referee.
    pub opening: Vec<String>,
    /// The engines' moves.
    pub moves: Vec<String>,
    /// What the engine said about each of its moves (may be shorter than `moves`).
    pub data: Vec<MoveData>,
    /// The wall time of each engine move, in milliseconds (may be shorter than `moves`).
    pub times_ms: Vec<u64>,
    /// Why the game ended, as the records say it (`normal`, `timeout`, ...).
    pub reason: String,
    /// What exactly ended it, for forfeits and adjudications.
    pub detail: Option<String>,
}

/// PGN's `Termination` word for a record's reason.
pub fn termination(reason: &str) -> &'static str {
    match reason {
        "normal" => "normal",
        "timeout" => "time forfeit",
        "illegal-move" | "protocol-error" => "rules infraction",
        "crash" => "abandoned",
        "adjudication" => "adjudication",
        _ => "unterminated",
    }
}

/// A PGN string value: quotes and backslashes escaped, line breaks made spaces.
fn tag_value(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '"' => "\\\"".to_string(),
            '\\' => "\\\\".to_string(),
            c if c.is_control() => " ".to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// A comment's text: PGN comments end at the first `}`, so braces become parentheses.
fn comment(text: &str) -> String {
    let clean: String = text
        .chars()
        .map(|c| match c {
            '{' => '(',
            '}' => ')',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    format!("{{{clean}}}")
}

/// The comment of an engine move: `{score/depth nodes time}`, each part present when known.
fn move_comment(data: Option<&MoveData>, time_ms: Option<u64>) -> Option<String> {
    move_note(data, time_ms).map(|note| comment(&note))
}

/// What is known of an engine move, `score/depth nodes time`, for the comments of PGN and OGN.
pub fn move_note(data: Option<&MoveData>, time_ms: Option<u64>) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(d) = data {
        match (d.score, d.depth) {
            (Some(s), Some(depth)) => parts.push(format!("{}/{depth}", s.human())),
            (Some(s), None) => parts.push(s.human()),
            (None, Some(depth)) => parts.push(format!("d{depth}")),
            (None, None) => {}
        }
        if let Some(n) = d.nodes {
            parts.push(format!("{n}n"));
        }
    }
    if let Some(ms) = time_ms {
        parts.push(format!("{:.3}s", ms as f64 / 1000.0));
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// The side to move (0 = player 1) of a position string: its last word is `1` or `2`.
fn side_to_move(position: &str) -> usize {
    usize::from(position.split_whitespace().last() == Some("2"))
}

/// Joins tokens into lines of at most 79 characters (PGN's export limit is 80).
fn wrap(tokens: &[String]) -> String {
    let mut out = String::new();
    let mut line = 0;
    for token in tokens {
        if line > 0 && line + 1 + token.len() > 79 {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out += token;
        line += token.len();
    }
    out
}

impl ExportGame {
    /// The game in PGN: tag pairs, a blank line, the movetext, a blank line.
    pub fn pgn(&self) -> String {
        let date = self
            .started
            .as_deref()
            .filter(|s| s.len() >= 19)
            .map(|s| (s[..10].replace('-', "."), s[11..19].to_string()));
        let mut tags: Vec<(&str, String)> = vec![
            ("Event", self.event.clone()),
            ("Site", self.site.clone()),
            (
                "Date",
                date.as_ref()
                    .map_or("????.??.??".to_string(), |d| d.0.clone()),
            ),
            ("Round", self.round.to_string()),
            ("Player1", self.players[0].clone()),
            ("Player2", self.players[1].clone()),
            ("Result", self.result.clone()),
            ("Game", self.rules.clone()),
            ("Variant", self.variant.clone()),
            ("SetUp", "1".to_string()),
            ("FEN", self.position.clone()),
        ];
        if let Some((_, time)) = &date {
            tags.push(("Time", time.clone()));
        }
        tags.push(("GameNumber", self.game.to_string()));
        tags.push(("Termination", termination(&self.reason).to_string()));
        let mut out: String = tags
            .iter()
            .map(|(name, value)| format!("[{name} \"{}\"]\n", tag_value(value)))
            .collect();
        out.push('\n');

        let mut tokens = Vec::new();
        let first = side_to_move(&self.position);
        let mut need_number = true;
        let all = self
            .opening
            .iter()
            .map(|m| (m, None))
            .chain(self.moves.iter().enumerate().map(|(i, m)| {
                (
                    m,
                    Some(move_comment(
                        self.data.get(i),
                        self.times_ms.get(i).copied(),
                    )),
                )
            }));
        for (ply, (mv, engine)) in all.enumerate() {
            let side = (first + ply) % 2;
            let number = (first + ply) / 2 + 1;
            if side == 0 {
                tokens.push(format!("{number}."));
            } else if need_number {
                tokens.push(format!("{number}..."));
            }
            tokens.push(mv.clone());
            let note = match engine {
                None => Some(comment("book")),
                Some(note) => note,
            };
            need_number = note.is_some();
            tokens.extend(note);
        }
        if let Some(detail) = &self.detail {
            tokens.push(comment(detail));
        }
        tokens.push(self.result.clone());
        out += &wrap(&tokens);
        out += "\n\n";
        out
    }

    /// The game as a plain list for people: a heading, the start, one line per move, the end.
    pub fn text(&self) -> String {
        let when = self.started.as_deref().map_or(String::new(), |s| {
            format!(", {}", s.replace('T', " ").replace('Z', " UTC"))
        });
        let mut out = format!(
            "Game {} (round {}): {} - {}, {} {}{when}\n",
            self.game, self.round, self.players[0], self.players[1], self.rules, self.variant
        );
        out += &format!("Start: {}\n", self.position);
        let first = side_to_move(&self.position);
        let width = self.players.iter().map(String::len).max().unwrap_or(0);
        let all = self
            .opening
            .iter()
            .map(|m| (m, None))
            .chain(self.moves.iter().enumerate().map(|(i, m)| (m, Some(i))));
        for (ply, (mv, engine)) in all.enumerate() {
            let side = (first + ply) % 2;
            let who = &self.players[side];
            let note = match engine {
                None => "book".to_string(),
                Some(i) => {
                    let mut parts = Vec::new();
                    if let Some(d) = self.data.get(i) {
                        parts.extend(d.score.map(|s| format!("score {}", s.human())));
                        parts.extend(d.depth.map(|x| format!("depth {x}")));
                        parts.extend(d.nodes.map(|x| format!("nodes {x}")));
                    }
                    parts.extend(self.times_ms.get(i).map(|t| format!("{t} ms")));
                    parts.join(", ")
                }
            };
            let line = format!("{:>4}. {who:<width$}  {mv:<6}  {note}", ply + 1);
            out += line.trim_end();
            out.push('\n');
        }
        let detail = self
            .detail
            .as_deref()
            .map_or(String::new(), |d| format!(": {d}"));
        out += &format!("Result: {} ({}{detail})\n\n", self.result, self.reason);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> ExportGame {
        let mut data = vec![MoveData::default(); 3];
        data[0].update("info depth 7 score cp 30 nodes 1234 time 98");
        data[2].update("info depth 9 score win 2 lowerbound nodes 55 time 3");
        ExportGame {
            event: "pion referee tournament".into(),
            site: "lab \"A\"".into(),
            started: Some("2026-12-05T20:39:20Z".into()),
            round: 3,
            game: 12,
            players: ["pion 0.1.0".into(), "random".into()],
            result: "1-0".into(),
            rules: "avalam".into(),
            variant: "standard".into(),
            position: "..yr...../9/9/9/9/9/9/9/9 1".into(),
            opening: vec!["a5b5".into(), "b5c5".into()],
            moves: vec!["d5c5".into(), "g4f3".into(), "e4e5".into()],
            data,
            times_ms: vec![100, 7, 3],
            reason: "adjudication".into(),
            detail: Some("both engines proved {a win}".into()),
        }
    }

    #[test]
    fn pgn_has_the_tags_and_the_commented_movetext() {
        let pgn = game().pgn();
        let expected_tags = [
            r#"[Event "pion referee tournament"]"#,
            r#"[Site "lab \"A\""]"#,
            r#"[Date "2026.12.05"]"#,
            r#"[Round "3"]"#,
            r#"[Player1 "pion 0.1.0"]"#,
            r#"[Player2 "random"]"#,
            r#"[Result "1-0"]"#,
            r#"[Game "avalam"]"#,
            r#"[Variant "standard"]"#,
            r#"[SetUp "1"]"#,
            r#"[FEN "..yr...../9/9/9/9/9/9/9/9 1"]"#,
            r#"[Time "20:39:20"]"#,
            r#"[GameNumber "12"]"#,
            r#"[Termination "adjudication"]"#,
        ];
        let lines: Vec<&str> = pgn.lines().collect();
        assert_eq!(&lines[..expected_tags.len()], &expected_tags);
        assert_eq!(lines[expected_tags.len()], "");
        let movetext = lines[expected_tags.len() + 1..].join(" ");
        assert_eq!(
            movetext.trim(),
            "1. a5b5 {book} 1... b5c5 {book} 2. d5c5 {+0.30/7 1234n 0.100s} 2... g4f3 \
             {0.007s} 3. e4e5 {>=win 2/9 55n 0.003s} {both engines proved (a win)} 1-0"
        );
        assert!(pgn.ends_with("1-0\n\n"));
        assert!(pgn.lines().all(|l| l.len() <= 80));
    }

    #[test]
    fn a_game_from_player_2_starts_with_an_ellipsis() {
        let mut g = game();
        g.position = "4,4,4,4,4,4/4,4,4,4,4,4/0,0 2".into();
        g.opening.clear();
        g.moves = vec!["d".into(), "C".into()];
        g.data.clear();
        g.times_ms.clear();
        g.detail = None;
        g.started = None;
        let pgn = g.pgn();
        assert!(pgn.contains("[Date \"????.??.??\"]"));
        assert!(!pgn.contains("[Time "));
        assert!(pgn.ends_with("\n1... d 2. C 1-0\n\n"), "{pgn}");
    }

    #[test]
    fn long_games_wrap_within_80_columns() {
        let mut g = game();
        g.moves = vec!["a1b2".into(); 200];
        g.times_ms = vec![12; 200];
        let pgn = g.pgn();
        assert!(pgn.lines().all(|l| l.len() <= 79));
        assert_eq!(pgn.matches("a1b2").count(), 200);
    }

    #[test]
    fn text_lists_every_move_with_its_player() {
        let text = game().text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "Game 12 (round 3): pion 0.1.0 - random, avalam standard, 2026-12-05 20:39:20 UTC"
        );
        assert_eq!(lines[1], "Start: ..yr...../9/9/9/9/9/9/9/9 1");
        assert_eq!(lines[2], "   1. pion 0.1.0  a5b5    book");
        assert_eq!(lines[3], "   2. random      b5c5    book");
        assert_eq!(
            lines[4],
            "   3. pion 0.1.0  d5c5    score +0.30, depth 7, nodes 1234, 100 ms"
        );
        assert_eq!(lines[5], "   4. random      g4f3    7 ms");
        assert_eq!(
            lines[7],
            "Result: 1-0 (adjudication: both engines proved {a win})"
        );
    }

    #[test]
    fn forfeits_get_pgn_terminations() {
        assert_eq!(termination("timeout"), "time forfeit");
        assert_eq!(termination("illegal-move"), "rules infraction");
        assert_eq!(termination("crash"), "abandoned");
        assert_eq!(termination("normal"), "normal");
    }
}
