//! Property tests of the protocol parser, and a fuzz-style run of the real binary.

mod common;

use common::Pion;
use pion_protocol::{Command, GameKind, GoParams, Query, Start, parse_command};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn word() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9./,]{1,12}".prop_filter("not a keyword", |w| {
        w != "moves" && w != "value" && w != "fen"
    })
}

fn go_params() -> impl Strategy<Value = GoParams> {
    (
        proptest::option::of(0u32..1000),
        proptest::option::of(any::<u64>()),
        proptest::option::of(any::<u64>()),
        proptest::option::of(any::<u64>()),
        proptest::option::of(any::<u64>()),
        proptest::option::of(any::<u64>()),
        proptest::option::of(any::<u64>()),
        proptest::option::of(any::<u32>()),
        any::<bool>(),
    )
        .prop_map(
            |(depth, nodes, movetime, p1time, p2time, p1inc, p2inc, movestogo, infinite)| {
                GoParams {
                    depth,
                    nodes,
                    movetime,
                    p1time,
                    p2time,
                    p1inc,
                    p2inc,
                    movestogo,
                    infinite,
                }
            },
        )
}

fn command() -> impl Strategy<Value = Command> {
    prop_oneof![
        Just(Command::Pion),
        Just(Command::Ugi),
        Just(Command::IsReady),
        Just(Command::UgiNewGame),
        Just(Command::Legal),
        Just(Command::Undo),
        Just(Command::Status),
        Just(Command::Show),
        Just(Command::Stop),
        Just(Command::Quit),
        proptest::option::of(prop_oneof![Just(GameKind::Avalam), Just(GameKind::Awale)])
            .prop_map(Command::NewGame),
        (
            proptest::collection::vec(word(), 1..3),
            proptest::option::of(word())
        )
            .prop_map(|(name, value)| Command::SetOption {
                name: name.join(" "),
                value
            }),
        (
            proptest::option::of((word(), word())),
            proptest::collection::vec(word(), 0..5)
        )
            .prop_map(|(start, moves)| Command::Position {
                start: match start {
                    None => Start::StartPos,
                    Some((board, side)) => Start::Notation {
                        board,
                        side,
                        fen: false,
                    },
                },
                moves,
            }),
        word().prop_map(Command::Play),
        go_params().prop_map(Command::Go),
        any::<u32>().prop_map(Command::Perft),
        proptest::option::of(any::<u32>()).prop_map(Command::Bench),
        prop_oneof![
            Just(Query::P1Turn),
            Just(Query::GameOver),
            Just(Query::Result)
        ]
        .prop_map(Command::Query),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Formatting a command and parsing it back gives the same command.
    #[test]
    fn commands_round_trip(command in command()) {
        let text = command.to_string();
        prop_assert_eq!(parse_command(&text), Ok(command), "text: {}", text);
    }

    /// Any string parses to a command or an error, without panicking, and errors are one line.
    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,80}") {
        if let Err(e) = parse_command(&text) {
            prop_assert!(!e.0.is_empty());
        }
    }

    /// Valid commands with extra whitespace around the tokens parse the same.
    #[test]
    fn whitespace_does_not_matter(command in command(), pad in "[ \t]{1,3}") {
        let text = command.to_string();
        let spaced = format!("{pad}{}{pad}", text.split(' ').collect::<Vec<_>>().join(&pad));
        prop_assert_eq!(parse_command(&spaced), Ok(command));
    }
}

const SEEDS: &[&str] = &[
    "pion",
    "isready",
    "newgame awale",
    "newgame avalam",
    "position startpos moves a5b5 b5c5",
    "position 4,4,4,4,4,4/4,4,4,4,4,4/0,0 2 moves a",
    "legal",
    "play a5b5",
    "play C",
    "undo",
    "status",
    "show",
    "go depth 2",
    "go nodes 500",
    "stop",
    "setoption name Hash value 8",
    "setoption name Variant value own-colour",
    "setoption name Level value random",
    "perft 2",
    "query result",
    "ugi",
];

/// Whether a reply line has one of the documented shapes.
fn well_formed(line: &str) -> bool {
    const STARTS: &[&str] = &[
        "id ",
        "game ",
        "option name ",
        "info ",
        "bestmove ",
        "legal",
        "status ",
        "board ",
        "position ",
        "perft depth ",
        "response ",
        "error ",
    ];
    const WHOLE: &[&str] = &["pionok", "ugiok", "readyok"];
    // The board picture lines of `show`.
    let picture = line.starts_with(|c: char| c.is_ascii_digit() || c == ' ');
    WHOLE.contains(&line) || STARTS.iter().any(|s| line.starts_with(s)) || picture
}

fn mutate(rng: &mut Xoshiro256PlusPlus, line: &str) -> String {
    let mut bytes: Vec<char> = line.chars().collect();
    for _ in 0..rng.random_range(1..4) {
        let at = rng.random_range(0..=bytes.len());
        match rng.random_range(0..4) {
            0 if at < bytes.len() => {
                bytes.remove(at);
            }
            1 => bytes.insert(at, char::from(rng.random_range(0x20u8..0x7f))),
            2 => bytes.insert(at, ' '),
            _ => bytes.insert(
                at,
                char::from_u32(rng.random_range(0..0x3000)).unwrap_or('?'),
            ),
        }
    }
    bytes
        .into_iter()
        .filter(|&c| c != '\n' && c != '\r')
        .collect()
}

/// Random and mutated valid lines: every reply is well formed and the engine stays responsive.
#[test]
fn fuzzed_input_keeps_the_engine_well_formed_and_responsive() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut pion = Pion::start();
    for round in 0..600 {
        let base = SEEDS[rng.random_range(0..SEEDS.len())];
        let line = if rng.random_bool(0.5) {
            base.to_string()
        } else {
            mutate(&mut rng, base)
        };
        pion.send(&line);
        if round % 10 == 0 {
            pion.send("stop");
            pion.send("isready");
            loop {
                let reply = pion.recv();
                assert!(
                    well_formed(&reply),
                    "after {line:?}: malformed reply {reply:?}"
                );
                if reply == "readyok" {
                    break;
                }
            }
        }
    }
    pion.send("stop");
    pion.send("quit");
    while let Some(reply) = pion.recv_within(std::time::Duration::from_secs(10)) {
        assert!(well_formed(&reply), "malformed reply {reply:?}");
    }
    assert!(pion.wait_success());
}
