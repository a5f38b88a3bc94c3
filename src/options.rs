//! pion's options, declared once: the `option` lines `pion` lists, the checks `setoption`
//! makes and what each option changes all come from the one table in [`declared`].

use pion_protocol::{OptionKind, OptionSpec};
use pion_rules::game::Game;
use pion_rules::{GameKind, with_game};

use crate::search::{Algorithm, Level, MAX_DEPTH, Settings};

/// What a checked `setoption` asks the session to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// New search settings.
    Settings(Settings),
    /// Switch to a game (a new game of it).
    Game(GameKind),
    /// A variant of the current game (a new game in it).
    Variant(String),
    /// Where Awale's endgame databases come from.
    EgtbPath(crate::egtb::Choice),
}

/// A value that passed its option's check: a number in range, one of the listed words, or
/// the free text of a string option.
enum Value<'a> {
    Number(i64),
    Word(&'a str),
    Text(&'a str),
}

/// One option: its name, its type and range given the default settings, and what a checked
/// value changes.
struct Declared {
    name: &'static str,
    kind: fn(&Settings) -> OptionKind,
    apply: fn(Settings, Value) -> Change,
}

fn spin(default: i64, min: i64, max: i64) -> OptionKind {
    OptionKind::Spin { default, min, max }
}

fn combo(default: &str, vars: &[&str]) -> OptionKind {
    OptionKind::Combo {
        default: default.to_string(),
        vars: vars.iter().map(|v| v.to_string()).collect(),
    }
}

/// Every variant name of every game, each once, in the games' order.
fn variant_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for game in GameKind::ALL {
        for name in with_game!(game, G => G::variant_names()) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// The settings with a spin option's checked number applied by `set`.
fn with_number(mut settings: Settings, value: Value, set: fn(&mut Settings, i64)) -> Change {
    if let Value::Number(n) = value {
        set(&mut settings, n);
    }
    Change::Settings(settings)
}

/// The table: every option pion has, in the order `pion` lists them.
fn declared() -> [Declared; 12] {
    use Value::{Number, Word};
    [
        Declared {
            name: "Game",
            kind: |_| combo(GameKind::ALL[0].name(), &GameKind::ALL.map(GameKind::name)),
            apply: |s, v| match v {
                Word(w) => GameKind::from_name(w).map_or(Change::Settings(s), Change::Game),
                Number(_) | Value::Text(_) => Change::Settings(s),
            },
        },
        Declared {
            name: "Hash",
            kind: |d| spin(d.hash_mib as i64, 1, 4096),
            apply: |s, v| with_number(s, v, |s, n| s.hash_mib = n as usize),
        },
        Declared {
            // Listed for front ends that always set it; the search uses one thread.
            name: "Threads",
            kind: |_| spin(1, 1, 1),
            apply: |s, _| Change::Settings(s),
        },
        Declared {
            name: "Search",
            kind: |_| combo("alphabeta", &["alphabeta", "mcts"]),
            apply: |mut s, v| {
                s.algorithm = match v {
                    Word("mcts") => Algorithm::Mcts,
                    _ => Algorithm::AlphaBeta,
                };
                Change::Settings(s)
            },
        },
        Declared {
            name: "Level",
            kind: |_| combo("max", &Level::ALL.map(|(_, name)| name)),
            apply: |mut s, v| {
                if let Some((level, _)) = Level::ALL
                    .iter()
                    .find(|(_, n)| matches!(v, Word(w) if w == *n))
                {
                    s.level = *level;
                }
                Change::Settings(s)
            },
        },
        Declared {
            name: "Depth",
            kind: |_| spin(0, 0, i64::from(MAX_DEPTH)),
            apply: |s, v| with_number(s, v, |s, n| s.level_depth = (n > 0).then_some(n as u32)),
        },
        Declared {
            name: "Seed",
            kind: |d| spin(d.seed as i64, 0, i64::from(u32::MAX)),
            apply: |s, v| with_number(s, v, |s, n| s.seed = n as u64),
        },
        Declared {
            name: "Variant",
            kind: |_| combo("standard", &variant_names()),
            apply: |s, v| match v {
                Word(w) => Change::Variant(w.to_string()),
                Number(_) | Value::Text(_) => Change::Settings(s),
            },
        },
        Declared {
            name: "MoveOverhead",
            kind: |d| spin(d.move_overhead_ms as i64, 0, 5000),
            apply: |s, v| with_number(s, v, |s, n| s.move_overhead_ms = n as u64),
        },
        Declared {
            name: "Exploration",
            kind: |d| spin(d.mcts_exploration as i64, 0, 1000),
            apply: |s, v| with_number(s, v, |s, n| s.mcts_exploration = n as u32),
        },
        Declared {
            name: "EgtbPath",
            kind: |_| OptionKind::String,
            // `<empty>` is how UCI front ends send an empty string, and GUIs send every
            // option's default at start: the default must keep the default directory.
            apply: |_, v| match v {
                Value::Text(text) => Change::EgtbPath(crate::egtb::Choice::from_value(text)),
                _ => Change::EgtbPath(crate::egtb::Choice::Default),
            },
        },
        Declared {
            name: "OwnBook",
            kind: |d| OptionKind::Check {
                default: d.own_book,
            },
            apply: |mut s, v| {
                s.own_book = matches!(v, Word("true"));
                Change::Settings(s)
            },
        },
    ]
}

/// The options `pion` lists, in order.
pub fn option_specs() -> Vec<OptionSpec> {
    let defaults = Settings::default();
    declared()
        .iter()
        .map(|o| OptionSpec {
            name: o.name,
            kind: (o.kind)(&defaults),
        })
        .collect()
}

/// Checks `setoption name <name> value <value>` against the table and says what it changes,
/// starting from `settings`; the error is the reply's text.
pub fn set_option(settings: Settings, name: &str, value: Option<&str>) -> Result<Change, String> {
    let options = declared();
    let Some(option) = options.iter().find(|o| o.name.eq_ignore_ascii_case(name)) else {
        let names: Vec<&str> = options.iter().map(|o| o.name).collect();
        return Err(format!(
            "setoption: unknown option '{}' (options: {})",
            pion_rules::game::shorten(name),
            names.join(", ")
        ));
    };
    let name = option.name;
    let Some(value) = value.filter(|v| !v.is_empty()) else {
        return Err(format!("setoption: {name} needs a value"));
    };
    let lowered = value.to_ascii_lowercase();
    let checked = match (option.kind)(&Settings::default()) {
        OptionKind::Spin { min, max, .. } => {
            let n: i64 = value.parse().map_err(|_| {
                format!(
                    "setoption: {name} takes a whole number from {min} to {max}, not '{}'",
                    pion_rules::game::shorten(value)
                )
            })?;
            if n < min || n > max {
                return Err(format!(
                    "setoption: {name} must be from {min} to {max}, not {n}"
                ));
            }
            Value::Number(n)
        }
        OptionKind::Combo { vars, .. } => {
            if !vars.contains(&lowered) {
                return Err(format!(
                    "setoption: {name} must be one of {}, not '{}'",
                    vars.join(", "),
                    pion_rules::game::shorten(&lowered)
                ));
            }
            Value::Word(&lowered)
        }
        OptionKind::Check { .. } => match lowered.as_str() {
            "true" | "false" => Value::Word(&lowered),
            _ => return Err(format!("setoption: {name} must be true or false")),
        },
        OptionKind::String => Value::Text(value),
    };
    Ok((option.apply)(settings, checked))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_option_can_be_set_to_its_default() {
        for spec in option_specs() {
            let value = match &spec.kind {
                OptionKind::Spin { default, .. } => default.to_string(),
                OptionKind::Combo { default, .. } => default.clone(),
                OptionKind::Check { default } => default.to_string(),
                OptionKind::String => "<empty>".to_string(),
            };
            assert!(
                set_option(Settings::default(), spec.name, Some(&value)).is_ok(),
                "{} = {value}",
                spec.name
            );
        }
    }

    #[test]
    fn values_are_checked_before_anything_changes() {
        let s = Settings::default();
        assert_eq!(
            set_option(s, "hash", Some("0")),
            Err("setoption: Hash must be from 1 to 4096, not 0".into())
        );
        assert_eq!(
            set_option(s, "Depth", Some("65")),
            Err("setoption: Depth must be from 0 to 64, not 65".into())
        );
        assert!(set_option(s, "Level", Some("grandmaster")).is_err());
        assert!(set_option(s, "Nope", Some("1")).is_err());
        assert!(set_option(s, "Seed", None).is_err());
        let Ok(Change::Settings(changed)) = set_option(s, "Level", Some("Greedy")) else {
            panic!("a level is a settings change");
        };
        assert_eq!(changed.level, Level::Greedy);
        assert_eq!(
            set_option(s, "game", Some("AWALE")),
            Ok(Change::Game(GameKind::Awale))
        );
        assert_eq!(
            set_option(s, "Variant", Some("grandslam-capture")),
            Ok(Change::Variant("grandslam-capture".into()))
        );
    }
}
