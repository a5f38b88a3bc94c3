//! The checks on the flags and their combinations: each refusal is a [`UsageError`] (the
//! binary prints it as clap's usage error, exit code 2), before any engine is started.

use std::time::Duration;

use clap::ArgMatches;
use pion_rules::GameKind;
use pion_rules::game::Game;

use super::{Cli, MaxPliesArg, OpeningsOrder};
use crate::config::{EngineSpec, MatchConfig, MaxPliesRule, SprtSpec, TournamentSpec};
use crate::engine::handshake::{Proto, ProtoChoice};
use crate::engine::seat::uci_plays;
use crate::run::adjudicate::{Adjudication, DrawRule, ResignRule};
use crate::run::schedule::{self, Format};

/// A flag whose value, or a combination of flags, the referee refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

fn usage(message: impl std::fmt::Display) -> UsageError {
    UsageError(message.to_string())
}

/// Each `--engine` occurrence with its own words.
pub fn engine_words(matches: &ArgMatches) -> Vec<Vec<String>> {
    matches
        .get_occurrences::<String>("engine")
        .map(|occurrences| occurrences.map(|o| o.cloned().collect()).collect())
        .unwrap_or_default()
}

/// The `--sprt` words as a test.
pub fn sprt_spec(words: &[String]) -> Result<SprtSpec, UsageError> {
    SprtSpec::parse(words).map_err(|e| usage(format!("{e:#}")))
}

/// The `--variant` of game `G`: its default without the flag.
pub fn variant<G: Game>(name: Option<&str>) -> Result<G::Variant, UsageError> {
    match name {
        None => Ok(G::Variant::default()),
        Some(name) => G::parse_variant(name).ok_or_else(|| {
            usage(format!(
                "unknown --variant '{name}' for {}: expected one of {}",
                G::NAME,
                G::variant_names().join(", ")
            ))
        }),
    }
}

/// The game and the match (or tournament) the flags of a run describe, `engine_words` being
/// the words of each `--engine`.
pub fn match_config(
    cli: &Cli,
    engine_words: &[Vec<String>],
) -> Result<(GameKind, MatchConfig), UsageError> {
    let engines = engine_words
        .iter()
        .map(|words| {
            let words: Vec<String> = cli.each.iter().chain(words).cloned().collect();
            EngineSpec::parse(&words).map_err(|e| usage(format!("{e:#}")))
        })
        .collect::<Result<Vec<EngineSpec>, UsageError>>()?;
    if engines.len() < 2 {
        return Err(usage(format!(
            "a match needs two --engine and a tournament more, got {}",
            engines.len()
        )));
    }
    EngineSpec::check_names(&engines).map_err(|e| usage(format!("{e:#}")))?;
    if let Some(game) = cli.game
        && let Some(uci) = engines
            .iter()
            .find(|e| e.proto == ProtoChoice::Only(Proto::Uci))
        && let Err(why) = uci_plays(game, cli.variant.as_deref())
    {
        return Err(usage(format!("engine '{}' (proto=uci) {why}", uci.name)));
    }
    let format = match (cli.tournament, engines.len()) {
        (Some(format), _) => Some(format),
        (None, 2) => None,
        (None, _) => Some(Format::RoundRobin),
    };
    let sprt = cli.sprt.as_deref().map(sprt_spec).transpose()?;
    if sprt.is_some() && format.is_some() {
        return Err(usage(format!(
            "--sprt tests one engine against another: it cannot stop a tournament of {} engines (run the pairing of interest as a match)",
            engines.len()
        )));
    }
    if sprt.is_some() && cli.shard.is_some() {
        return Err(usage(
            "--sprt cannot stop a sharded match (each shard sees part of it): run the shards without it and pass --sprt to `referee merge`",
        ));
    }
    let (tournament, games) = match format {
        Some(format) => {
            if cli.games.is_some() {
                return Err(usage(
                    "--games sizes a match: a tournament's size is --rounds N (colour-swapped pairs per pairing)",
                ));
            }
            let rounds = cli.rounds.unwrap_or(1);
            let spec = TournamentSpec { format, rounds };
            let games = schedule::total_games(format, engines.len(), rounds);
            (Some(spec), games)
        }
        None => {
            if cli.rounds.is_some() {
                return Err(usage(
                    "--rounds sizes a tournament: a match's size is --games N",
                ));
            }
            (None, cli.games.unwrap_or(100))
        }
    };
    if games == 0 {
        return Err(usage("--games must be at least 1"));
    }
    let adjudication = Adjudication {
        draw: cli
            .draw
            .as_deref()
            .map(DrawRule::parse)
            .transpose()
            .map_err(usage)?,
        resign: cli
            .resign
            .as_deref()
            .map(ResignRule::parse)
            .transpose()
            .map_err(usage)?,
        proven: cli.adjudicate_proven,
    };
    let game = cli.game.ok_or_else(|| usage("--game is required"))?;
    let ms = Duration::from_millis;
    let config = MatchConfig {
        engines,
        tournament,
        games,
        concurrency: cli.concurrency as usize,
        tc: cli.tc,
        time_margin: ms(cli.timemargin),
        hang_timeout: ms(cli.hang_timeout),
        startup_timeout: ms(cli.startup_timeout),
        isready_timeout: ms(cli.isready_timeout),
        quit_timeout: ms(cli.quit_timeout),
        openings: cli.openings.clone(),
        shuffle_openings: matches!(cli.openings_order, OpeningsOrder::Shuffle),
        seed: cli.seed,
        variant: cli.variant.clone(),
        max_plies: cli.maxplies,
        max_plies_rule: match cli.maxplies_rule {
            MaxPliesArg::Score => MaxPliesRule::Score,
            MaxPliesArg::Draw => MaxPliesRule::Draw,
        },
        adjudication,
        zero: cli.rating_zero,
        sprt,
        shard: cli.shard,
        out: cli.out.clone(),
        resume: cli.resume,
        log_dir: cli.log_dir.clone(),
        log_all_info: cli.log_all_info,
    };
    Ok((game, config))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, FromArgMatches};

    /// The game and config of `referee ARGS`, or the usage error it is refused with.
    fn check(args: &[&str]) -> Result<(GameKind, MatchConfig), UsageError> {
        let matches = Cli::command()
            .try_get_matches_from(std::iter::once("referee").chain(args.iter().copied()))
            .expect("clap accepts the flags");
        let cli = Cli::from_arg_matches(&matches).expect("clap accepts the flags");
        match_config(&cli, &engine_words(&matches))
    }

    /// `referee --game awale` with engines `a`, `b` (and more) and `extra` flags.
    fn run(engines: &[&str], extra: &[&str]) -> Result<(GameKind, MatchConfig), UsageError> {
        let words: Vec<String> = engines.iter().map(|name| format!("name={name}")).collect();
        let mut args = vec!["--game", "awale"];
        for words in &words {
            args.extend(["--engine", words.as_str(), "cmd=./engine"]);
        }
        args.extend(extra);
        check(&args)
    }

    fn refusal(result: Result<(GameKind, MatchConfig), UsageError>) -> String {
        result.expect_err("the flags are refused").0
    }

    #[test]
    fn a_match_of_two_engines_is_accepted_with_its_defaults() {
        let (game, config) = run(&["a", "b"], &[]).unwrap();
        assert_eq!(game, GameKind::Awale);
        assert_eq!(config.engines.len(), 2);
        assert!(config.tournament.is_none());
        assert_eq!(config.games, 100);
        assert_eq!(config.time_margin, Duration::from_millis(100));
    }

    #[test]
    fn three_engines_make_a_round_robin_sized_by_rounds() {
        let (_, config) = run(&["a", "b", "c"], &["--rounds", "2"]).unwrap();
        let tournament = config.tournament.expect("a tournament");
        assert_eq!(tournament.format, Format::RoundRobin);
        assert_eq!(tournament.rounds, 2);
        // Three pairings, two colour-swapped pairs each.
        assert_eq!(config.games, 12);
    }

    #[test]
    fn one_engine_is_refused() {
        let message = refusal(run(&["a"], &[]));
        assert!(message.contains("needs two --engine"), "{message}");
    }

    #[test]
    fn two_engines_of_one_name_are_refused() {
        let message = refusal(run(&["a", "a"], &[]));
        assert!(message.contains("'a'"), "{message}");
    }

    #[test]
    fn a_malformed_engine_is_refused() {
        let message = refusal(check(&[
            "--game", "awale", "--engine", "name=a", "--engine", "name=b", "cmd=./b",
        ]));
        assert!(message.contains("cmd"), "{message}");
    }

    #[test]
    fn sizes_of_the_other_kind_of_run_are_refused() {
        let message = refusal(run(&["a", "b", "c"], &["--games", "10"]));
        assert!(message.starts_with("--games sizes a match"), "{message}");
        let message = refusal(run(&["a", "b"], &["--rounds", "3"]));
        assert!(
            message.starts_with("--rounds sizes a tournament"),
            "{message}"
        );
        let message = refusal(run(&["a", "b"], &["--games", "0"]));
        assert_eq!(message, "--games must be at least 1");
    }

    #[test]
    fn sprt_is_refused_in_a_tournament_and_a_shard() {
        let sprt = ["--sprt", "elo0=0", "elo1=10"];
        let message = refusal(run(&["a", "b", "c"], &sprt));
        assert!(
            message.contains("cannot stop a tournament of 3 engines"),
            "{message}"
        );
        let sharded = [sprt.as_slice(), &["--shard", "1/2"]].concat();
        let message = refusal(run(&["a", "b"], &sharded));
        assert!(message.contains("cannot stop a sharded match"), "{message}");
        assert!(run(&["a", "b"], &sprt).unwrap().1.sprt.is_some());
    }

    #[test]
    fn bad_adjudication_and_sprt_words_are_refused() {
        assert!(run(&["a", "b"], &["--draw", "movecount=x"]).is_err());
        assert!(run(&["a", "b"], &["--resign", "nonsense=1"]).is_err());
        assert!(run(&["a", "b"], &["--sprt", "elo0=10", "elo1=0"]).is_err());
    }

    #[test]
    fn an_unknown_variant_names_the_known_ones() {
        use pion_rules::awale::Awale;
        let message = variant::<Awale>(Some("nonsense")).unwrap_err().0;
        assert!(
            message.starts_with("unknown --variant 'nonsense' for awale: expected one of"),
            "{message}"
        );
        assert!(variant::<Awale>(None).is_ok());
    }

    #[test]
    fn a_uci_engine_is_refused_for_a_game_the_dialect_cannot_play() {
        let message = refusal(check(&[
            "--game",
            "avalam",
            "--engine",
            "name=a",
            "cmd=./a",
            "proto=uci",
            "--engine",
            "name=b",
            "cmd=./b",
        ]));
        assert!(message.starts_with("engine 'a' (proto=uci) "), "{message}");
    }
}
