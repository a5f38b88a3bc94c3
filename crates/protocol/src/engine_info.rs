//! What an engine says while it searches, read tolerantly: [`InfoFields`], the one grammar of
//! `info` lines (the [`crate::Heard::Info`] reply is built from it too), and [`MoveData`], what
//! the referee keeps of them in its records, prints in exports and reads for adjudication.
//!
//! Unlike pion's own commands, other authors' engines are read tolerantly, as fastchess reads
//! them: unknown words and malformed values are skipped, and `info string` starts free text.
//! Scores are read into [`EngineScore`], the one score type (in `info.rs`): pion's (`cp`,
//! `win`, `draw`, `loss`, with `lowerbound`/`upperbound`) and UGI's `mate N`.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::info::EngineScore;

/// The fields of one `info` line, each `None` when the line did not give it or gave a value
/// that does not read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoFields {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `score ...`, with its bound.
    pub score: Option<EngineScore>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `time`, in milliseconds.
    pub time_ms: Option<u64>,
    /// `hashfull`, per mille.
    pub hashfull: Option<u32>,
    /// `playouts`.
    pub playouts: Option<u64>,
    /// `tbhits`.
    pub tbhits: Option<u64>,
    /// `pv ...`: the rest of the line.
    pub pv: Vec<String>,
    /// `string ...`: the rest of the line, a message rather than progress.
    pub string: Option<String>,
}

impl InfoFields {
    /// Reads an `info` line (the whole line, `info` included); `None` for any other line.
    ///
    /// A field's name is followed by its value; a value that does not read is skipped and the
    /// word after the name is read as a name again. `pv` and `string` take the rest of the
    /// line. Unknown words (`multipv`, `currmove`, `nps`, which is derived) are skipped.
    pub fn parse(line: &str) -> Option<InfoFields> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"info") {
            return None;
        }
        let mut fields = InfoFields::default();
        let mut i = 1;
        while i < words.len() {
            let next = words.get(i + 1);
            // How many words the field took: its name, and its value if that read.
            let value = |read: bool| 1 + usize::from(read);
            i += match words[i] {
                "depth" => value(read(next, &mut fields.depth)),
                "seldepth" => value(read(next, &mut fields.seldepth)),
                "nodes" => value(read(next, &mut fields.nodes)),
                "time" => value(read(next, &mut fields.time_ms)),
                "hashfull" => value(read(next, &mut fields.hashfull)),
                "playouts" => value(read(next, &mut fields.playouts)),
                "tbhits" => value(read(next, &mut fields.tbhits)),
                "score" => match EngineScore::from_words(&words[i + 1..]) {
                    Some((score, used)) => {
                        fields.score = Some(score);
                        1 + used
                    }
                    None => 1,
                },
                "pv" => {
                    fields.pv = words[i + 1..].iter().map(|w| w.to_string()).collect();
                    break;
                }
                "string" => {
                    let text = line.split_once(" string").map_or("", |(_, text)| text);
                    fields.string = Some(text.trim().to_string());
                    break;
                }
                _ => 1,
            };
        }
        Some(fields)
    }
}

/// Sets `field` from `word` if it reads; whether it did.
fn read<T: FromStr>(word: Option<&&str>, field: &mut Option<T>) -> bool {
    match word.and_then(|w| w.parse().ok()) {
        Some(value) => {
            *field = Some(value);
            true
        }
        None => false,
    }
}

/// What the engine reported while searching the move it played; each field absent when the
/// engine never gave it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveData {
    /// The last score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<EngineScore>,
    /// The last depth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// The last node count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// The last time, in milliseconds, as the engine measured it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<u64>,
}

impl MoveData {
    /// Takes the fields of one `info` line (the whole line, `info` included), each keeping
    /// its last value; other lines are ignored, and so is the text of `info string`.
    pub fn update(&mut self, line: &str) {
        if let Some(fields) = InfoFields::parse(line) {
            self.take(&fields);
        }
    }

    /// Takes the fields that `fields` gives.
    pub fn take(&mut self, fields: &InfoFields) {
        self.score = fields.score.or(self.score);
        self.depth = fields.depth.or(self.depth);
        self.nodes = fields.nodes.or(self.nodes);
        self.time = fields.time_ms.or(self.time);
    }

    /// Whether the engine said nothing at all.
    pub fn is_empty(&self) -> bool {
        *self == MoveData::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::info::{Bound, Score};

    fn data(lines: &[&str]) -> MoveData {
        let mut d = MoveData::default();
        for line in lines {
            d.update(line);
        }
        d
    }

    #[test]
    fn the_last_value_of_each_field_is_kept() {
        let d = data(&[
            "info depth 3 seldepth 5 score cp 12 nodes 900 nps 9000 time 100 pv a1b1",
            "info depth 4 score cp -30 lowerbound nodes 2000 time 210 hashfull 3 pv a1b2 c3c4",
            "info string depth 99 score cp 5000",
            "info currmove a1b1 nodes 2500",
        ]);
        assert_eq!(d.depth, Some(4));
        assert_eq!(d.nodes, Some(2500));
        assert_eq!(d.time, Some(210));
        assert_eq!(
            d.score,
            Some(EngineScore {
                value: Score::Centi(-30),
                bound: Some(Bound::Lower)
            })
        );
    }

    #[test]
    fn malformed_values_are_skipped() {
        let d = data(&[
            "info depth 2 nodes 10",
            "info depth x nodes -4 score cp huge time",
            "bestmove a1b1",
            "information depth 9",
        ]);
        assert_eq!(
            d,
            MoveData {
                score: None,
                depth: Some(2),
                nodes: Some(10),
                time: None
            }
        );
        assert!(data(&["info string hello"]).is_empty());
    }

    #[test]
    fn move_data_serializes_only_what_was_said() {
        let d = data(&["info depth 7 score win 2 nodes 1234 time 98"]);
        assert_eq!(
            serde_json::to_string(&d).unwrap(),
            r#"{"score":"win 2","depth":7,"nodes":1234,"time":98}"#
        );
        assert_eq!(serde_json::to_string(&MoveData::default()).unwrap(), "{}");
    }

    #[test]
    fn one_grammar_reads_every_field_of_an_info_line() {
        let fields = InfoFields::parse(
            "info depth 5 seldepth 8 multipv 1 score win 3 lowerbound nodes 77 nps 9 time 12 \
             hashfull 4 playouts 6 tbhits 2 pv a1b2 c3",
        );
        assert_eq!(
            fields,
            Some(InfoFields {
                depth: Some(5),
                seldepth: Some(8),
                score: Some(EngineScore {
                    value: Score::Win(3),
                    bound: Some(Bound::Lower)
                }),
                nodes: Some(77),
                time_ms: Some(12),
                hashfull: Some(4),
                playouts: Some(6),
                tbhits: Some(2),
                pv: vec!["a1b2".into(), "c3".into()],
                string: None,
            })
        );
        assert_eq!(InfoFields::parse("bestmove a1b2"), None);
        assert_eq!(InfoFields::parse("information depth 3"), None);
        assert_eq!(InfoFields::parse(""), None);
        // Fields before `string` count; the rest of the line is the message.
        let fields = InfoFields::parse("info depth 3 string depth 9 hi").unwrap();
        assert_eq!(fields.depth, Some(3));
        assert_eq!(fields.string.as_deref(), Some("depth 9 hi"));
        assert_eq!(data(&["info depth 3 string depth 9"]).depth, Some(3));
    }
}
