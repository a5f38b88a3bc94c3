//! Reading an engine's replies: the other direction of the protocol, for the referee and for
//! any front end that drives an engine process.
//!
//! pion prints [`crate::Reply`]; what comes back from an arbitrary engine is less certain, so
//! this parser is lenient where the protocol allows it (`info` lines are read by
//! [`InfoFields::parse`], which skips unknown fields as UCI front ends do) and exact about what a referee relies on (`bestmove`, `readyok`,
//! `pionok`, `ugiok`). A line it does not know is [`Heard::Other`], never an error: an engine may
//! print anything between replies.

use crate::engine_info::InfoFields;
use crate::info::{Info, Score};

/// One line from an engine, as a front end understands it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard {
    /// `id <field> <value>`: the engine's name, author or version.
    Id {
        /// `name`, `author`, `version`...
        field: String,
        /// The rest of the line.
        value: String,
    },
    /// `pionok`: the end of the answer to `pion`.
    PionOk,
    /// `ugiok`: the end of the answer to `ugi`.
    UgiOk,
    /// `uciok`: the end of the answer to `uci` (the Oware UCI dialect).
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `info ...`, with the fields this parser knows.
    Info(Info),
    /// `info string <text>`: a message from the engine, not progress.
    InfoString(String),
    /// `game <name>`: a game the engine plays.
    Game(String),
    /// `option name <name> type ...`: an option the engine has (its name may hold spaces).
    Option(String),
    /// `bestmove <move> [ponder <move>]`; `None` for `bestmove none` (no legal move).
    BestMove(Option<String>),
    /// `legal <move>...`: the legal moves, none when the game is over.
    Legal(Vec<String>),
    /// `status ...`: whose turn it is and the score, or who won and why.
    Status(crate::reply::Status),
    /// `position <board> <side>`: the last line of the answer to `show`, the position string.
    Position(String),
    /// A line that starts as a reply this parser knows but breaks its grammar: why.
    Malformed(&'static str),
    /// `error <message>`.
    Error(String),
    /// An empty line or anything else (`info string`, a banner, a debug print).
    Other,
}

/// The words after `status`, in one of protocol.md's three forms.
fn parse_status(words: &[&str]) -> Heard {
    use crate::reply::Status;
    use pion_rules::game::EndReason;
    let player = |word: &str| word.parse::<u8>().ok().filter(|n| (1..=2).contains(n));
    let score = |p1: &str, p2: &str| Some([p1.parse().ok()?, p2.parse().ok()?]);
    let reason = |word: &str| EndReason::from_word(word).map(EndReason::as_str);
    // A variant with a tie-break ends every form with `tiebreak <p1> <p2>`.
    let (words, tiebreak) = match *words {
        [ref head @ .., "tiebreak", p1, p2] => match score(p1, p2) {
            Some(tiebreak) => (head, Some(tiebreak)),
            None => return Heard::Malformed("status: the tiebreak takes two numbers"),
        },
        _ => (words, None),
    };
    let status = match *words {
        ["playing", "turn", turn, "score", p1, p2] => {
            player(turn).zip(score(p1, p2)).map(|(turn, score)| Status {
                turn: Some(turn),
                winner: None,
                score,
                reason: None,
                tiebreak,
            })
        }
        ["over", "winner", winner, "score", p1, p2, "reason", why] => player(winner)
            .zip(score(p1, p2))
            .zip(reason(why))
            .map(|((winner, score), why)| Status {
                turn: None,
                winner: Some(winner),
                score,
                reason: Some(why),
                tiebreak,
            }),
        ["over", "draw", "score", p1, p2, "reason", why] => {
            score(p1, p2).zip(reason(why)).map(|(score, why)| Status {
                turn: None,
                winner: None,
                score,
                reason: Some(why),
                tiebreak,
            })
        }
        _ => None,
    };
    status.map_or(
        Heard::Malformed("status takes one of the three forms of protocol.md"),
        Heard::Status,
    )
}

/// Reads one line an engine wrote.
pub fn parse_heard(line: &str) -> Heard {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("id") => match words.next() {
            Some(field) => Heard::Id {
                field: field.to_string(),
                value: words.collect::<Vec<_>>().join(" "),
            },
            None => Heard::Other,
        },
        Some("pionok") => Heard::PionOk,
        Some("ugiok") => Heard::UgiOk,
        Some("uciok") => Heard::UciOk,
        Some("readyok") => Heard::ReadyOk,
        Some("legal") => Heard::Legal(words.map(str::to_string).collect()),
        Some("status") => parse_status(&words.collect::<Vec<_>>()),
        Some("position") => match words.collect::<Vec<_>>() {
            position if position.is_empty() => Heard::Malformed("position needs a position string"),
            position => Heard::Position(position.join(" ")),
        },
        Some("game") => words
            .next()
            .map_or(Heard::Other, |name| Heard::Game(name.to_string())),
        Some("option") if words.next() == Some("name") => {
            let name: Vec<&str> = words.take_while(|w| *w != "type").collect();
            Heard::Option(name.join(" "))
        }
        Some("bestmove") => match words.collect::<Vec<_>>()[..] {
            ["none"] => Heard::BestMove(None),
            // UCI engines name the reply they expect after their move: it is not part of it.
            [mv] | [mv, "ponder", _] => Heard::BestMove(Some(mv.to_string())),
            _ => {
                Heard::Malformed("bestmove takes exactly one move (and optionally 'ponder <move>')")
            }
        },
        Some("error") => Heard::Error(line.trim().trim_start_matches("error").trim().to_string()),
        Some("info") => InfoFields::parse(line).map_or(Heard::Other, info),
        _ => Heard::Other,
    }
}

/// The `info` reply of a line read by [`InfoFields::parse`], or its message for `info string`.
fn info(fields: InfoFields) -> Heard {
    if let Some(text) = fields.string {
        return Heard::InfoString(text);
    }
    Heard::Info(Info {
        depth: fields.depth.unwrap_or(0),
        seldepth: fields.seldepth.unwrap_or(0),
        // UGI's mate is not a score of these games.
        score: fields.score.filter(|s| !matches!(s.value, Score::Mate(_))),
        nodes: fields.nodes.unwrap_or(0),
        time_ms: fields.time_ms.unwrap_or(0),
        hashfull: fields.hashfull,
        playouts: fields.playouts,
        tbhits: fields.tbhits,
        pv: fields.pv,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EngineScore, Reply, Score, Status};

    #[test]
    fn what_pion_prints_reads_back_the_same() {
        let info = Info {
            depth: 7,
            seldepth: 9,
            score: Some(EngineScore::new(Score::Loss(3), true)),
            nodes: 12345,
            time_ms: 17,
            hashfull: Some(12),
            playouts: None,
            tbhits: Some(40),
            pv: vec!["a1b2".into(), "c3c4".into()],
        };
        let line = Reply::Info(info.clone()).to_string();
        assert_eq!(parse_heard(&line), Heard::Info(info));
        for score in [Score::Centi(-250), Score::Win(4), Score::Draw] {
            let info = Info {
                depth: 1,
                score: Some(score.into()),
                ..Info::default()
            };
            assert_eq!(
                parse_heard(&Reply::Info(info.clone()).to_string()),
                Heard::Info(info)
            );
        }
        assert_eq!(
            parse_heard(&Reply::BestMove(Some("C".into())).to_string()),
            Heard::BestMove(Some("C".into()))
        );
        assert_eq!(
            parse_heard(&Reply::BestMove(None).to_string()),
            Heard::BestMove(None)
        );
        assert_eq!(parse_heard(&Reply::PionOk.to_string()), Heard::PionOk);
        for moves in [vec![], vec!["a1b2".to_string(), "c3c4".to_string()]] {
            assert_eq!(
                parse_heard(&Reply::Legal(moves.clone()).to_string()),
                Heard::Legal(moves)
            );
        }
        let statuses = [
            (Some(2), None, None),
            (None, Some(1), Some("nomoves")),
            (None, Some(2), Some("captures")),
            (None, None, Some("repetition")),
        ];
        for (turn, winner, reason) in statuses {
            for tiebreak in [None, Some([3, 1])] {
                let status = Status {
                    turn,
                    winner,
                    score: [23, 25],
                    reason,
                    tiebreak,
                };
                assert_eq!(
                    parse_heard(&Reply::Status(status.clone()).to_string()),
                    Heard::Status(status)
                );
            }
        }
        let board = Reply::Board {
            game: "awale",
            picture: "  f e d c b a\n  A B C D E F".into(),
            position: "4,4,4,4,4,4/4,4,4,4,4,4/0,0 1".into(),
        }
        .to_string();
        let heard: Vec<Heard> = board.lines().map(parse_heard).collect();
        assert_eq!(
            heard.last(),
            Some(&Heard::Position("4,4,4,4,4,4/4,4,4,4,4,4/0,0 1".into()))
        );
        assert_eq!(parse_heard(&Reply::UgiOk.to_string()), Heard::UgiOk);
        assert_eq!(parse_heard(&Reply::ReadyOk.to_string()), Heard::ReadyOk);
        assert_eq!(
            parse_heard(&Reply::Error("bad move 'x'".into()).to_string()),
            Heard::Error("bad move 'x'".into())
        );
        assert_eq!(
            parse_heard(&Reply::Id("name", "pion 0.1".into()).to_string()),
            Heard::Id {
                field: "name".into(),
                value: "pion 0.1".into()
            }
        );
    }

    #[test]
    fn other_engines_lines_are_read_leniently() {
        assert_eq!(
            parse_heard("bestmove e2e4 ponder e7e5"),
            Heard::BestMove(Some("e2e4".into()))
        );
        assert_eq!(
            parse_heard("  bestmove   C  "),
            Heard::BestMove(Some("C".into()))
        );
        assert!(matches!(parse_heard("bestmove"), Heard::Malformed(_)));
        assert!(matches!(parse_heard("bestmove a b"), Heard::Malformed(_)));
        assert_eq!(parse_heard("game awale"), Heard::Game("awale".into()));
        assert_eq!(
            parse_heard("option name Skill Level type spin default 1 min 1 max 2"),
            Heard::Option("Skill Level".into())
        );
        assert_eq!(
            parse_heard("info string hello  there"),
            Heard::InfoString("hello  there".into())
        );
        assert_eq!(parse_heard(""), Heard::Other);
        for broken in [
            "status playing turn 3 score 1 2",
            "status over winner 1 score 1 2",
            "status over draw score 1 x reason nomoves",
            "status over draw score 1 2 reason boredom",
            "status over draw score 1 2 reason nomoves tiebreak 1",
            "status over draw score 1 2 reason nomoves tiebreak 1 x",
            "position",
        ] {
            assert!(
                matches!(parse_heard(broken), Heard::Malformed(_)),
                "{broken}"
            );
        }
        assert_eq!(parse_heard("readyokay"), Heard::Other);
        let Heard::Info(info) =
            parse_heard("info depth 3 multipv 1 score cp 12 tbhits 4 nodes x pv A b")
        else {
            panic!("an info line");
        };
        assert_eq!(info.depth, 3);
        assert_eq!(info.score, Some(Score::Centi(12).into()));
        assert_eq!(info.nodes, 0, "an unreadable number is left out");
        assert_eq!(info.pv, ["A", "b"]);
        let Heard::Info(info) = parse_heard("info score mate 3 depth 2") else {
            panic!("an info line");
        };
        assert_eq!(
            (info.score, info.depth),
            (None, 2),
            "mate is not a score of these games"
        );
    }

    #[test]
    fn broken_replies_are_other_lines_or_malformed_never_a_panic() {
        // Known words without what must follow them are not replies.
        assert_eq!(parse_heard("id"), Heard::Other);
        assert_eq!(parse_heard("game"), Heard::Other);
        assert_eq!(parse_heard("option"), Heard::Other);
        assert_eq!(parse_heard("option type spin"), Heard::Other);
        assert_eq!(
            parse_heard("Bestmove C"),
            Heard::Other,
            "words are case-sensitive"
        );
        assert_eq!(parse_heard("\u{0}\u{7f} \u{fffd}"), Heard::Other);
        assert!(matches!(
            parse_heard("bestmove C ponder"),
            Heard::Malformed(_)
        ));
        assert!(matches!(
            parse_heard("bestmove C hint D"),
            Heard::Malformed(_)
        ));
        assert_eq!(parse_heard("error"), Heard::Error(String::new()));
        assert_eq!(parse_heard("error   "), Heard::Error(String::new()));
    }

    #[test]
    fn info_lines_with_bad_values_keep_the_fields_that_read() {
        assert_eq!(parse_heard("info"), Heard::Info(Info::default()));
        let Heard::Info(info) = parse_heard(
            "info depth 99999999999 seldepth -1 nodes 18446744073709551616 time 5 score cp 1e9",
        ) else {
            panic!("an info line");
        };
        assert_eq!(
            info,
            Info {
                time_ms: 5,
                ..Info::default()
            },
            "numbers out of range are left out"
        );
        // A value that does not read is skipped, and the word after the name is a name again.
        let Heard::Info(info) = parse_heard("info depth nodes 7 score win lowerbound time") else {
            panic!("an info line");
        };
        assert_eq!((info.depth, info.nodes), (0, 7));
        assert_eq!(info.score, None);
        let Heard::Info(info) = parse_heard("info score cp 12 upperbound depth 1 pv") else {
            panic!("an info line");
        };
        assert_eq!(
            (info.score, info.depth),
            (
                Some(EngineScore {
                    value: Score::Centi(12),
                    bound: Some(crate::Bound::Upper)
                }),
                1
            )
        );
        assert!(info.pv.is_empty());
        assert_eq!(
            parse_heard("info depth 3 string  two  words"),
            Heard::InfoString("two  words".into())
        );
        assert_eq!(parse_heard("info string"), Heard::InfoString(String::new()));
    }
}
