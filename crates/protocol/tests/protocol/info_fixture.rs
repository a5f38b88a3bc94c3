//! The fixture of `info` lines that both readers of the protocol check themselves against: this
//! crate's `InfoFields` here, and the web page's `parseInfo` in pion-web's browser tests. One
//! file of lines and their readings, so that the page's copy of the grammar cannot drift.

use pion_protocol::engine_info::InfoFields;
use pion_protocol::{Bound, Score};
use serde_json::{Map, Value, json};

/// The fixture's text.
const FIXTURE: &str = include_str!("fixtures/info_lines.json");

/// `fields` in the fixture's shape: the fields given, with the page's names.
fn reading(fields: &InfoFields) -> Value {
    let mut out = Map::new();
    let counts = [
        ("depth", fields.depth.map(u64::from)),
        ("seldepth", fields.seldepth.map(u64::from)),
        ("nodes", fields.nodes),
        ("time", fields.time_ms),
        ("hashfull", fields.hashfull.map(u64::from)),
        ("playouts", fields.playouts),
        ("tbhits", fields.tbhits),
    ];
    for (name, value) in counts {
        if let Some(value) = value {
            out.insert(name.to_string(), json!(value));
        }
    }
    if let Some(score) = fields.score {
        let mut s = match score.value {
            Score::Centi(v) => json!({"kind": "cp", "value": v}),
            Score::Mate(v) => json!({"kind": "mate", "value": v}),
            Score::Win(v) => json!({"kind": "win", "value": v}),
            Score::Loss(v) => json!({"kind": "loss", "value": v}),
            Score::Draw => json!({"kind": "draw"}),
        };
        match score.bound {
            Some(Bound::Lower) => s["bound"] = json!("lowerbound"),
            Some(Bound::Upper) => s["bound"] = json!("upperbound"),
            None => {}
        }
        out.insert("score".to_string(), s);
    }
    if !fields.pv.is_empty() {
        out.insert("pv".to_string(), json!(fields.pv));
    }
    if let Some(text) = &fields.string {
        out.insert("string".to_string(), json!(text));
    }
    Value::Object(out)
}

#[test]
fn every_line_of_the_fixture_reads_as_written() {
    let cases: Vec<Value> = serde_json::from_str(FIXTURE).expect("the fixture is JSON");
    assert!(cases.len() >= 15);
    for case in cases {
        let line = case["line"].as_str().unwrap();
        let fields = InfoFields::parse(line).expect("an info line");
        let mut got = reading(&fields);
        // A `pv` with no move is an empty list in the Rust type, which `reading` leaves out.
        if line.split_whitespace().last() == Some("pv") {
            got["pv"] = json!([]);
        }
        assert_eq!(got, case["reading"], "{line}");
    }
}
