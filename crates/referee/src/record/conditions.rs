//! Comparing the conditions recorded with games, so that a refused `--resume` or `merge` names
//! the one field that differs and both values, in one line.
//!
//! Conditions are a JSON object (time control, options, openings, adjudication, ...); records
//! of older versions hold them as one line of text. Both are JSON values here: two texts are
//! compared as texts, a text and an object differ as a whole.

use serde_json::Value;

/// The first difference between two conditions, as `path: a against b`, `None` if equal.
/// Objects are compared key by key in sorted order, arrays item by item.
pub fn first_difference(a: &Value, b: &Value) -> Option<String> {
    difference(a, b, "conditions")
}

fn difference(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|key| {
                let missing = Value::Null;
                let (u, v) = (
                    x.get(key).unwrap_or(&missing),
                    y.get(key).unwrap_or(&missing),
                );
                difference(u, v, &format!("{path}.{key}"))
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (u, v))| difference(u, v, &format!("{path}[{i}]"))),
        _ if a == b => None,
        _ => Some(format!("{path}: {} against {}", show(a), show(b))),
    }
}

/// A value as it reads in a message: texts in quotes, absent values as `absent`.
fn show(value: &Value) -> String {
    match value {
        Value::Null => "absent".to_string(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn equal_conditions_have_no_difference() {
        let a = json!({"tc": "movetime=100", "engines": [{"name": "a"}, {"name": "b"}]});
        assert_eq!(first_difference(&a, &a.clone()), None);
        assert_eq!(
            first_difference(&json!("games 2 tc"), &json!("games 2 tc")),
            None
        );
    }

    #[test]
    fn the_first_differing_field_is_named_with_both_values() {
        let a = json!({"games": 200, "tc": "movetime=100", "engines": [{"name": "a", "options": {"Hash": "16"}}]});
        let b = json!({"games": 200, "tc": "movetime=100", "engines": [{"name": "a", "options": {"Hash": "32"}}]});
        assert_eq!(
            first_difference(&a, &b).unwrap(),
            r#"conditions.engines[0].options.Hash: "16" against "32""#
        );
        let c = json!({"games": 200, "tc": "movetime=50"});
        let d = json!({"games": 200, "tc": "movetime=100", "draw": {"movecount": 8}});
        assert_eq!(
            first_difference(&c, &d).unwrap(),
            r#"conditions.draw: absent against {"movecount":8}"#
        );
        assert_eq!(
            first_difference(&json!({"engines": [1]}), &json!({"engines": [1, 2]})).unwrap(),
            "conditions.engines: [1] against [1,2]"
        );
    }

    #[test]
    fn old_text_conditions_differ_as_a_whole() {
        let old = json!("games 2 tc MoveTime(100)");
        let new = json!({"games": 2});
        assert_eq!(
            first_difference(&old, &new).unwrap(),
            r#"conditions: "games 2 tc MoveTime(100)" against {"games":2}"#
        );
    }
}
