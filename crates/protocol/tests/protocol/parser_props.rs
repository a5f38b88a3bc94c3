//! Property tests of the protocol parser: printing and parsing agree, and no text panics it.

use pion_protocol::{Command, GameKind, GoParams, Query, Start, parse_command};
use proptest::prelude::*;

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
